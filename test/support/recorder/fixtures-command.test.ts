// `npm run fixtures` into a folder, with the real CLI: recordings are added scenario by
// scenario, the folder's README describes every scenario it holds, and a recording already
// there is kept unless --replace says otherwise.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { realClaudePath } from "../claude-workspace.js";
import { useTempDirs } from "../temp-dirs.js";
import { main as fixtures } from "./fixtures-command.js";

const tempDir = useTempDirs("fixtures-command");

/** Runs the command; returns its exit code and everything it logged. */
async function record(args: string[]): Promise<{ code: number; log: string }> {
  const lines: string[] = [];
  const output = { print: (line: string) => void lines.push(line), log: (line: string) => void lines.push(line) };
  const code = await fixtures(["--cli", realClaudePath, ...args], output);
  return { code, log: lines.join("\n") };
}

describe("npm run fixtures into a folder", () => {
  it("adds scenarios to it, keeps its README whole, and keeps a recording unless told to replace it", async () => {
    const out = tempDir();
    expect((await record(["--only", "a-print-text", "--out", out])).code).toBe(0);
    expect(existsSync(join(out, "a-print-text.stdout.jsonl"))).toBe(true);

    expect((await record(["--only", "t2-bad-flag", "--out", out])).code).toBe(0);
    const readme = readFileSync(join(out, "README.md"), "utf8");
    expect(readme).toContain("- **a-print-text**: print mode");
    expect(readme).toContain("- **t2-bad-flag**:");

    const again = await record(["--only", "a-print-text", "--out", out]);
    expect(again.code).toBe(1);
    expect(again.log).toContain("already has recordings of a-print-text. Pass --replace to overwrite them");
  }, 120_000);

  it("leaves a README written by hand whole, and says which recordings it should describe", async () => {
    const out = tempDir();
    const byHand = "# Claude Code captures\n\n**a-print-text**: what the recording shows, in prose.\n";
    writeFileSync(join(out, "README.md"), byHand);
    const added = await record(["--only", "t2-bad-flag", "--out", out]);
    expect(added.code).toBe(0);
    expect(readFileSync(join(out, "README.md"), "utf8")).toBe(byHand);
    expect(added.log).toContain("README.md was written by hand and is left as it is; describe t2-bad-flag there.");
  }, 120_000);
});
