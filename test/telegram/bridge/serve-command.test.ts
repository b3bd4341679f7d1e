// `telecode` (serve) before the bridge starts: no config says to run `telecode init`, a config
// that cannot serve Telegram names what is missing, bad flags are a usage error.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { main } from "../../../src/cli/main.js";
import { capturedIo } from "../../support/captured-io.js";

let home: string | undefined;
afterEach(async () => {
  if (home !== undefined) await rm(home, { recursive: true, force: true, maxRetries: 5 });
  home = undefined;
});

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = capturedIo(env);
  const code = await main(argv, io);
  return { code, stdout: io.out(), stderr: io.err() };
}

describe("telecode (serve) without a usable config", () => {
  it("says to run `telecode init` when there is no config file", async () => {
    home = await mkdtemp(join(tmpdir(), "telecode-serve-"));
    const result = await run([], { HOME: home });
    expect(result.code).toBe(78);
    // The tests run in a clone of Telecode, where the command is `npx telecode`.
    expect(result.stderr).toContain("Run `npx telecode init`");
  });

  it("names what a config lacks to serve Telegram", async () => {
    home = await mkdtemp(join(tmpdir(), "telecode-serve-"));
    const file = join(home, "config.toml");
    await writeFile(file, `[telegram]\nbot_token = "123456:${"A".repeat(35)}"\n[projects.app]\npath = "${home}"\n`, {
      mode: 0o600,
    });
    const result = await run(["--config", file], { HOME: home });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("telegram.allowed_user_ids");
    expect(result.stderr).not.toContain("A".repeat(35));
  });

  it("redacts an API key or token that a config error quotes", async () => {
    home = await mkdtemp(join(tmpdir(), "telecode-serve-"));
    const file = join(home, "config.toml");
    const key = `sk-ant-api03-${"K".repeat(30)}`;
    const token = `123456:${"A".repeat(35)}`;
    await writeFile(
      file,
      `[telegram]\nbot_token = "${token}"\nallowed_user_ids = [1]\n[claude]\nextra_args = ["--resume=${key}", "--continue=${token}"]\n[projects.app]\npath = "${home}"\n`,
      { mode: 0o600 },
    );
    const result = await run(["--config", file], { HOME: home });
    expect(result.code).toBe(78);
    expect(result.stderr).toContain("claude.extra_args");
    expect(result.stderr).toContain("sk-ant-[redacted]");
    expect(result.stderr).not.toContain("K".repeat(30));
    expect(result.stderr).not.toContain("A".repeat(35));
  });

  it("treats unknown flags as a usage error and prints help on --help", async () => {
    home = await mkdtemp(join(tmpdir(), "telecode-serve-"));
    expect((await run(["--nope"], { HOME: home })).code).toBe(2);
    const help = await run(["serve", "--help"], { HOME: home });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Usage: telecode [--config FILE]");
  });
});
