// The built `telecode` when the reader of its output has gone (`telecode doctor | head -1`, a
// killed `tee`): each command finishes and exits with its own code, with no stack trace. Run as
// processes of their own, since a test's own process would catch the stream's error for them.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { telecodeBin } from "../support/telecode-bin.js";
import { FIXTURE_DIR } from "../wire/fixtures.js";

const home = mkdtempSync(join(tmpdir(), "telecode-closed-output-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** Runs `telecode ARGS` with `closed` (stdout or stderr) read by nobody; the other is kept. */
function telecodeWithClosed(closed: "stdout" | "stderr", ...args: string[]) {
  const child = spawn(process.execPath, [telecodeBin, ...args], {
    env: { PATH: process.env["PATH"], HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  // Closed before the command has loaded, so its first write finds no reader.
  child[closed].destroy();
  let kept = "";
  child[closed === "stdout" ? "stderr" : "stdout"].setEncoding("utf8").on("data", (text: string) => (kept += text));
  return new Promise<{ code: number | null; kept: string }>((resolve) =>
    child.on("close", (code) => resolve({ code, kept })),
  );
}

describe("telecode with its output's reader gone", () => {
  it("doctor finishes its checks and exits 1 for the problems it found", async () => {
    // No config in this HOME: several failed checks, all printed on stdout.
    const { code, kept } = await telecodeWithClosed("stdout", "doctor");
    expect(kept).toBe("");
    expect(code).toBe(1);
  });

  it("replay of a whole recording exits 0", async () => {
    const file = join(FIXTURE_DIR, "e-plan-exit-allow.stdout.jsonl");
    const { code, kept } = await telecodeWithClosed("stdout", "replay", file, "--json");
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
