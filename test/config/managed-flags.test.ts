// claude.extra_args may not carry flags Telecode sets itself, in any spelling.
import { describe, expect, it } from "vitest";
import { validateExtraArgs } from "../../src/config/index.js";

describe("validateExtraArgs", () => {
  it.each([
    ["-p"], ["--print"], ["--output-format"], ["--output-format=json"], ["--input-format"], ["--resume"], ["-r"],
    ["--resume=abc"], ["--continue"], ["-c"], ["--permission-mode"], ["--permission-mode=plan"], ["--permission-prompt-tool"],
    ["--dangerously-skip-permissions"], ["--allow-dangerously-skip-permissions"], ["--RESUME"], ["-pc"], ["-rabc"],
  ])("refuses %s", (arg) => {
    const problems = validateExtraArgs(["--verbose", arg]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(JSON.stringify(arg));
    expect(problems[0]).toContain("managed by Telecode");
  });

  it("accepts flags Telecode leaves alone, and values that merely resemble flags", () => {
    expect(validateExtraArgs(["--verbose", "--add-dir", "/tmp/x", "--model", "opus", "--append-system-prompt", "be brief", "--max-turns", "-1", "--debug"])).toEqual([]);
    expect(validateExtraArgs(["--printer", "--resume-later", "--continued"])).toEqual([]);
  });

  it("names every offending argument", () => {
    expect(validateExtraArgs(["-p", "--resume", "x", "--continue"])).toHaveLength(3);
  });
});
