// The built `telecode` when its output cannot be written: a reader that went away (`telecode
// doctor | head -1`, a killed `tee`) is no failure, each command finishing with its own code; a
// full disk (/dev/full) loses output, which is said and fails the command. Run as processes of
// their own, since a test's own process would catch the stream's error for them.
import { spawn } from "node:child_process";
import { closeSync, existsSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { telecodeBin } from "../support/telecode-bin.js";
import { SHARED_FIXTURE_DIR } from "../wire/fixtures.js";

const home = mkdtempSync(join(tmpdir(), "telecode-closed-output-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/**
 * Runs `telecode ARGS` with `closed` (stdout or stderr) read by nobody, or with stdout on a full
 * disk ("full"); the other stream is kept.
 */
function telecodeWithClosed(closed: "stdout" | "stderr" | "full", ...args: string[]) {
  const full = closed === "full" ? openSync("/dev/full", "w") : undefined;
  const child = spawn(process.execPath, [telecodeBin, ...args], {
    env: { PATH: process.env["PATH"], HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: home },
    stdio: ["ignore", full ?? "pipe", "pipe"],
  });
  if (full !== undefined) closeSync(full);
  // Closed before the command has loaded, so its first write finds no reader.
  if (closed !== "full") child[closed]?.destroy();
  let kept = "";
  child[closed === "stderr" ? "stdout" : "stderr"]?.setEncoding("utf8").on("data", (text: string) => (kept += text));
  return new Promise<{ code: number | null; kept: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, kept })),
  );
}

const RECORDING = join(SHARED_FIXTURE_DIR, "e-plan-exit-allow.stdout.jsonl");
const FULL_DISK = "(ENOSPC: no space left on the device)";

describe("telecode with its output's reader gone", () => {
  it("doctor finishes its checks and exits 1 for the problems it found", async () => {
    // No config in this HOME: several failed checks, all printed on stdout.
    const { code, kept } = await telecodeWithClosed("stdout", "doctor");
    expect(kept).toBe("");
    expect(code).toBe(1);
  });

  it("replay of a whole recording exits 0", async () => {
    const { code, kept } = await telecodeWithClosed("stdout", "replay", RECORDING, "--json");
    expect(kept).toBe("");
    expect(code).toBe(0);
  });

  it("a usage error on a closed stderr still exits 2", async () => {
    const { code, kept } = await telecodeWithClosed("stderr", "service");
    expect(kept).toBe("");
    expect(code).toBe(2);
  });

  it("run's usage error on a closed stderr still exits 2", async () => {
    const { code, kept } = await telecodeWithClosed("stderr", "run", "--no-such-option", "hi");
    expect(kept).toBe("");
    expect(code).toBe(2);
  });
});

describe.runIf(existsSync("/dev/full"))("telecode with its output on a full disk", () => {
  it("replay says the output was lost and exits 1", async () => {
    const { code, kept } = await telecodeWithClosed("full", "replay", RECORDING);
    expect(kept).toBe(`telecode: the output could not all be written ${FULL_DISK}.\n`);
    expect(code).toBe(1);
  });

  it("so does a command that would have succeeded, --version", async () => {
    const { code, kept } = await telecodeWithClosed("full", "--version");
    expect(kept).toBe(`telecode: the output could not all be written ${FULL_DISK}.\n`);
    expect(code).toBe(1);
  });

  it("doctor keeps the code of its own checks and says the output was lost", async () => {
    const { code, kept } = await telecodeWithClosed("full", "doctor");
    expect(kept).toBe(`telecode: the output could not all be written ${FULL_DISK}.\n`);
    expect(code).toBe(1);
  });
});
