// Argument building and the extra_args guard: managed flags are refused in every spelling.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { buildArgs, validateExtraArgs } from "../../src/claude/index.js";

describe("validateExtraArgs", () => {
  it.each([
    ["-p"],
    ["--print"],
    ["--output-format=json"],
    ["--input-format"],
    ["--resume"],
    ["--resume=abc"],
    ["-r"],
    ["-rabc"],
    ["--continue"],
    ["-c"],
    ["-cp"],
    ["--permission-mode=bypassPermissions"],
    ["--permission-prompt-tool=stdio"],
    ["--dangerously-skip-permissions"],
    ["--allow-dangerously-skip-permissions"],
    ["--allowedTools=Bash"],
    ["--"],
  ])("refuses %s and names it", (arg) => {
    const problems = validateExtraArgs(["--add-dir", "/tmp", arg]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`"${arg}"`);
  });

  it("accepts flags Telecode does not manage", () => {
    expect(
      validateExtraArgs([
        "--add-dir",
        "/tmp",
        "--append-system-prompt",
        "be brief",
        "-dapi",
        "--name",
        "x",
        "--fork-session",
      ]),
    ).toEqual([]);
  });

  it("refuses any argument list that hides a managed flag among harmless ones", () => {
    const harmless = fc.constantFrom("--add-dir", "/tmp", "--verbose", "--fork-session", "--name", "x");
    const managed = fc.constantFrom(
      "-p",
      "--resume=1",
      "--continue",
      "--permission-mode=plan",
      "--dangerously-skip-permissions",
      "-c",
    );
    fc.assert(
      fc.property(fc.array(harmless), managed, fc.array(harmless), (before, flag, after) => {
        expect(validateExtraArgs([...before, flag, ...after]).length).toBeGreaterThan(0);
      }),
    );
  });
});

describe("buildArgs", () => {
  it("builds control mode with no --allowedTools unless tools are named", () => {
    expect(buildArgs({ cwd: "/p", permissionMode: "default" }, { supportsHookEvents: false })).toEqual([
      "--output-format",
      "stream-json",
      "--input-format",
      "stream-json",
      "--verbose",
      "--permission-mode",
      "default",
      "--permission-prompt-tool",
      "stdio",
    ]);
    expect(
      buildArgs({ cwd: "/p", permissionMode: "default", allowedTools: [] }, { supportsHookEvents: false }),
    ).not.toContain("--allowedTools");
  });

  it("puts the prompt after -- in print mode, so a prompt starting with - is safe", () => {
    const args = buildArgs(
      { cwd: "/p", permissionMode: "acceptEdits", print: true, extraArgs: ["--add-dir", "/x"] },
      { supportsHookEvents: true, resume: "s1", prompt: "-p is text" },
    );
    expect(args.slice(0, 6)).toEqual([
      "-p",
      "--output-format",
      "stream-json",
      "--verbose",
      "--permission-mode",
      "acceptEdits",
    ]);
    expect(args).toContain("--include-hook-events");
    expect(args.slice(-4)).toEqual(["--add-dir", "/x", "--", "-p is text"]);
    expect(args[args.indexOf("--resume") + 1]).toBe("s1");
  });

  it("asks for partial messages only when the spec does", () => {
    expect(
      buildArgs({ cwd: "/p", permissionMode: "default", includePartialMessages: true }, { supportsHookEvents: false }),
    ).toContain("--include-partial-messages");
    expect(buildArgs({ cwd: "/p", permissionMode: "default" }, { supportsHookEvents: true })).not.toContain(
      "--include-partial-messages",
    );
  });

  it("passes the bypass flag only when asked, and resume wins over continue", () => {
    const args = buildArgs(
      { cwd: "/p", permissionMode: "default", dangerouslySkipPermissions: true, continue: true },
      { supportsHookEvents: false, resume: "s2", continueLast: false },
    );
    expect(args).toContain("--dangerously-skip-permissions");
    expect(args).not.toContain("--continue");
    expect(buildArgs({ cwd: "/p", permissionMode: "default" }, { supportsHookEvents: false })).not.toContain(
      "--dangerously-skip-permissions",
    );
  });
});
