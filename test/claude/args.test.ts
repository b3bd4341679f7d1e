// Argument building and the extra_args guard: an allow-list read as the CLI's parser reads it,
// unsafe flags only when explicitly allowed, managed flags never, in every spelling.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  buildArgs,
  SAFE_EXTRA_ARGS,
  UNSAFE_EXTRA_ARGS,
  unsafeArgNameProblem,
  validateExtraArgs,
} from "../../src/claude/index.js";

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
    ["--model=opus"],
    ["--session-id=0b0e9a43-1111-4222-8333-944445555666"],
    ["--"],
  ])("refuses %s and names it", (arg) => {
    const problems = validateExtraArgs(["--add-dir", "/tmp", arg]);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(`"${arg}"`);
  });

  it("accepts the flags on the allow-list, with their values in every spelling", () => {
    expect(
      validateExtraArgs([
        "--add-dir",
        "/tmp",
        "/srv",
        "--append-system-prompt",
        "--settings is only text here",
        "-dapi",
        "--name",
        "x",
        "-n",
        "y",
        "--max-turns=5",
        "--verbose",
        "--debug",
        "hooks",
      ]),
    ).toEqual([]);
  });

  it("refuses flags that could bypass approvals unless they are explicitly allowed", () => {
    const settings = ["--settings", '{"permissions":{"allow":["Bash"]}}'];
    const [problem] = validateExtraArgs(settings);
    expect(problem).toContain('"--settings" is refused');
    expect(problem).toContain("claude.dangerously_allow_unsafe_args");
    for (const flag of ["--mcp-config", "--agents", "--setting-sources", "--plugin-dir"])
      expect(validateExtraArgs([flag, "x"])).toHaveLength(1);
    for (const flag of ["--strict-mcp-config", "--fork-session", "--no-session-persistence", "--replay-user-messages"])
      expect(validateExtraArgs([flag])).toHaveLength(1);
    expect(validateExtraArgs(settings, ["--settings"])).toEqual([]);
    expect(validateExtraArgs(["--settings=x", "--mcp-config", "a.json"], ["--settings"])).toHaveLength(1);
  });

  it("refuses an unknown flag and says which flags are allowed", () => {
    const [problem] = validateExtraArgs(["--managed-settings", "{}"]);
    expect(problem).toContain('"--managed-settings" is not a flag Telecode knows to be safe to pass');
    for (const flag of SAFE_EXTRA_ARGS) expect(problem).toContain(flag);
    expect(validateExtraArgs(["-x"])).toHaveLength(1);
  });

  it("refuses a word the CLI would read as a prompt or a command, and a flag without its value", () => {
    expect(validateExtraArgs(["doctor"])[0]).toContain('"doctor" is not a flag');
    expect(validateExtraArgs(["--add-dir=/a", "/b"])[0]).toContain('"/b" is not a flag');
    expect(validateExtraArgs(["--verbose", "mcp"])[0]).toContain('"mcp" is not a flag');
    expect(validateExtraArgs(["--name"])[0]).toContain("needs a value");
    expect(validateExtraArgs(["--verbose=yes"])[0]).toContain("takes none");
  });

  it("is documented flag by flag in docs/configuration.md", () => {
    const doc = readFileSync(new URL("../../docs/configuration.md", import.meta.url), "utf8");
    for (const flag of [...SAFE_EXTRA_ARGS, ...Object.keys(UNSAFE_EXTRA_ARGS)]) expect(doc).toContain(`\`${flag}`);
  });

  it("names only the flags it can allow in claude.dangerously_allow_unsafe_args", () => {
    expect(unsafeArgNameProblem("--settings")).toBeUndefined();
    expect(unsafeArgNameProblem("--model")).toContain("a flag Telecode manages");
    expect(unsafeArgNameProblem("--add-dir")).toContain("always allowed");
    expect(unsafeArgNameProblem("constructor")).toContain("not a flag this key can allow");
  });

  it("refuses any argument list that hides a refused flag among harmless ones", () => {
    const harmless = fc.constantFrom(
      ["--add-dir", "/tmp"],
      ["--verbose"],
      ["--name", "x"],
      ["-dapi"],
      ["--append-system-prompt", "-p"],
      ["--betas", "a", "b"],
    );
    const refused = fc.constantFrom(
      "-p",
      "--resume=1",
      "--continue",
      "--permission-mode=plan",
      "--dangerously-skip-permissions",
      "-c",
      "-vc",
      "--settings={}",
      "--strict-mcp-config",
      "--managed-settings={}",
    );
    fc.assert(
      fc.property(fc.array(harmless), refused, fc.array(harmless), (before, flag, after) => {
        expect(validateExtraArgs([...before.flat(), flag, ...after.flat()]).length).toBeGreaterThan(0);
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

  it("adds Telecode's system prompt lines, joined after the person's own (the CLI keeps only the last flag)", () => {
    const base = { cwd: "/p", permissionMode: "default", appendSystemPrompt: "Use the outbox." } as const;
    const alone = buildArgs(base, { supportsHookEvents: false });
    expect(alone.slice(-2)).toEqual(["--append-system-prompt", "Use the outbox."]);
    for (const theirs of [["--append-system-prompt", "Be brief."], ["--append-system-prompt=Be brief."]]) {
      const args = buildArgs(
        { ...base, extraArgs: ["--add-dir", "/x", ...theirs, "--verbose"] },
        { supportsHookEvents: false },
      );
      expect(args.filter((a) => a.startsWith("--append-system-prompt"))).toHaveLength(1);
      expect(args.slice(-5)).toEqual([
        "--add-dir",
        "/x",
        "--verbose",
        "--append-system-prompt",
        "Be brief.\n\nUse the outbox.",
      ]);
    }
    expect(buildArgs({ cwd: "/p", permissionMode: "default" }, { supportsHookEvents: false })).not.toContain(
      "--append-system-prompt",
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
