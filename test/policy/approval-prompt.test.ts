// What an approval shows (Bash, Edit diff, Write head, other tools' key fields, why the CLI
// asks) and what each choice sends back, including "always allow in this session".
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/domain/events.js";
import {
  answerFromTypedLine,
  approvalPrompt,
  compactLineDiff,
  personDeniedMessage,
  promptLines,
  resolveApproval,
  splitLongText,
  type DiffLine,
} from "../../src/policy/index.js";
import { fixtureRequest } from "./fixture-events.js";
import { asked, machine, responded } from "./machine-harness.js";

const bash = fixtureRequest("c-control-bash-allow", "Bash");
const req = (
  toolName: string,
  input: Record<string, unknown>,
  extra: Partial<ApprovalRequest> = {},
): ApprovalRequest => ({
  requestId: "r1",
  toolName,
  input,
  permissionSuggestions: [],
  ...extra,
});

describe("what an approval shows", () => {
  it("Bash: the command and its description, and why the CLI asks", () => {
    const prompt = approvalPrompt({
      ...bash,
      decisionReason: "A variable in this command can't be checked before it runs",
    });
    expect(prompt.title).toBe("Run: touch created-by-test.txt && echo made");
    expect(prompt.sections).toEqual([
      { kind: "text", text: "Create a marker file" },
      { kind: "code", label: "command", text: "touch created-by-test.txt && echo made" },
      { kind: "text", label: "Why it asks", text: "A variable in this command can't be checked before it runs" },
      {
        kind: "text",
        label: "“Always allow” covers",
        text: "Bash(touch created-by-test.txt && echo made); files in /home/user/project",
      },
    ]);
  });

  it("leaves out the CLI's generic reason, which says only that the call needs approval", () => {
    const prompt = approvalPrompt({ ...bash, decisionReason: "This command requires approval" });
    expect(prompt.sections).toEqual([
      { kind: "text", text: "Create a marker file" },
      { kind: "code", label: "command", text: "touch created-by-test.txt && echo made" },
      {
        kind: "text",
        label: "“Always allow” covers",
        text: "Bash(touch created-by-test.txt && echo made); files in /home/user/project",
      },
    ]);
  });

  it("says what Always allow will allow: the CLI's rule, which may cover only part of a compound command", () => {
    const prompt = approvalPrompt(
      req(
        "Bash",
        { command: "cd web && npm test" },
        {
          permissionSuggestions: [
            { type: "addRules", rules: [{ toolName: "Bash", ruleContent: "npm test:*" }], behavior: "allow" },
            { type: "addRules", rules: [{ toolName: "WebFetch" }], behavior: "allow" },
            { type: "addRules", rules: [{ toolName: "mcp__ops__deploy" }], behavior: "allow" },
            { type: "setMode", mode: "acceptEdits" },
          ],
        },
      ),
    );
    expect(prompt.sections.at(-1)).toEqual({
      kind: "text",
      label: "“Always allow” covers",
      text: "Bash(npm test:*); every WebFetch call; every ops · deploy call",
    });
    expect(prompt.choices.map((c) => c.label)).toContain("Always allow in this session");
  });

  it("Edit: a compact diff with a few lines of context", () => {
    const old = ["a", "b", "c", "d", "e", "f", "g", "h"].join("\n");
    const next = ["a", "b", "c", "d", "E", "f", "g", "h"].join("\n");
    const prompt = approvalPrompt(req("Edit", { file_path: "/p/app.ts", old_string: old, new_string: next }));
    expect(prompt.title).toBe("Edit /p/app.ts");
    expect(prompt.sections[0]).toEqual({
      kind: "diff",
      path: "/p/app.ts",
      lines: [
        { op: "gap", skipped: 2 },
        { op: "context", text: "c" },
        { op: "context", text: "d" },
        { op: "removed", text: "e" },
        { op: "added", text: "E" },
        { op: "context", text: "f" },
        { op: "context", text: "g" },
        { op: "gap", skipped: 1 },
      ],
    });
  });

  it("Edit: says so when the change is one a diff cannot show", () => {
    const sections = (old_string: string, new_string: string) =>
      approvalPrompt(req("Edit", { file_path: "/p/app.ts", old_string, new_string })).sections;
    expect(sections("end()", "end()\n")).toEqual([
      { kind: "diff", path: "/p/app.ts", lines: [] },
      { kind: "text", text: "Only adds a line break at the end of the text it replaces." },
    ]);
    expect(sections("end()\n", "end()")[1]).toEqual({
      kind: "text",
      text: "Only removes a line break at the end of the text it replaces.",
    });
    expect(sections("a = 1;  \nb = 2;", "a = 1;\nb = 2;")).toEqual([
      {
        kind: "diff",
        path: "/p/app.ts",
        lines: [
          { op: "removed", text: "a = 1;  " },
          { op: "added", text: "a = 1;" },
          { op: "context", text: "b = 2;" },
        ],
      },
      { kind: "text", text: "Only whitespace changes: spaces, tabs or line breaks." },
    ]);
    expect(sections("same", "same")[1]).toMatchObject({
      text: "Changes nothing: the old and the new text are the same.",
    });
    expect(sections("a = 1;", "a = 2;")).toHaveLength(1);
  });

  it("Write: the path and the first lines, with how many more", () => {
    const content = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const prompt = approvalPrompt(req("Write", { file_path: "/p/new.txt", content }));
    const [head] = prompt.sections;
    expect(head).toMatchObject({ kind: "code", label: "/p/new.txt" });
    expect(head?.kind === "code" && head.text.split("\n")).toEqual([
      ...Array.from({ length: 12 }, (_, i) => `line ${i + 1}`),
      "… 18 more lines",
    ]);
  });

  it("Write: says first whether it creates the file or replaces the whole of one, when the file was read", () => {
    const sections = (fileNow?: ApprovalRequest["fileNow"]) =>
      approvalPrompt(req("Write", { file_path: "/p/a.ts", content: "x" }, fileNow === undefined ? {} : { fileNow }))
        .sections;
    expect(sections({ exists: false })[0]).toEqual({ kind: "text", text: "Creates a new file." });
    expect(sections({ exists: true, lines: 312 })[0]).toEqual({
      kind: "text",
      text: "Replaces the whole file (312 lines now).",
    });
    expect(sections({ exists: true, lines: 1 })[0]).toMatchObject({ text: "Replaces the whole file (1 line now)." });
    expect(sections({ exists: true, lines: 0 })[0]).toMatchObject({ text: "Replaces the whole file (empty now)." });
    // Not read (a file files.deny_globs covers, one too large): the new content only, as before.
    expect(sections()).toEqual([{ kind: "code", label: "/p/a.ts", text: "x" }]);
  });

  it("file tools name a file in the project relative to it, one outside it in full", () => {
    const root = { projectRoot: "/home/me/app" };
    const write = approvalPrompt(req("Write", { file_path: "/home/me/app/src/new.ts", content: "x" }), root);
    expect(write.title).toBe("Write src/new.ts");
    expect(write.sections[0]).toMatchObject({ kind: "code", label: "src/new.ts" });
    const edit = approvalPrompt(
      req("Edit", { file_path: "/home/me/app/a.ts", old_string: "a", new_string: "b" }),
      root,
    );
    expect(edit.title).toBe("Edit a.ts");
    expect(edit.sections[0]).toMatchObject({ kind: "diff", path: "a.ts" });
    expect(approvalPrompt(req("Write", { file_path: "/etc/hosts", content: "x" }), root).title).toBe(
      "Write /etc/hosts",
    );
    // A command is shown as it will run.
    expect(approvalPrompt(req("Bash", { command: "cat /home/me/app/a.ts" }), root).title).toBe(
      "Run: cat /home/me/app/a.ts",
    );
  });

  it("Always allow names the project's own directory as this project", () => {
    const text = (root: string) =>
      approvalPrompt(bash, { projectRoot: root }).sections.find(
        (s) => s.kind === "text" && s.label?.startsWith("“Always"),
      );
    expect(text("/home/user/project")).toMatchObject({
      text: "Bash(touch created-by-test.txt && echo made); files in this project",
    });
    expect(text("/home/user")).toMatchObject({
      text: "Bash(touch created-by-test.txt && echo made); files in project",
    });
    expect(text("/elsewhere")).toMatchObject({
      text: "Bash(touch created-by-test.txt && echo made); files in /home/user/project",
    });
  });

  it("a Monitor: what it watches, the command it runs in the background as code, and for how long", () => {
    const monitor = approvalPrompt(
      req("Monitor", { description: "watch the dev server", timeout_ms: 600_000, command: "npm run dev 2>&1" }),
    );
    expect(monitor.title).toBe("Monitor: npm run dev 2>&1");
    expect(monitor.sections).toEqual([
      { kind: "text", text: "watch the dev server" },
      { kind: "code", label: "command", text: "npm run dev 2>&1" },
      { kind: "text", text: "Runs in the background for up to 10 min; each line it prints reaches Claude." },
    ]);
    const socket = approvalPrompt(
      req("Monitor", { description: "deploy events", timeout_ms: 9_000_000, ws: { url: "wss://ci.example/events" } }),
    );
    expect(socket.title).toBe("Monitor: wss://ci.example/events");
    expect(socket.sections.slice(1)).toEqual([
      { kind: "fields", fields: [{ name: "websocket", value: "wss://ci.example/events" }] },
      { kind: "text", text: "Listens in the background for up to 30 min; each line that comes reaches Claude." },
    ]);
  });

  it("a worktree: what entering or leaving it does, with a warning before changes are thrown away", () => {
    const root = { projectRoot: "/home/me/app" };
    const enter = approvalPrompt(req("EnterWorktree", { name: "fix-login" }), root);
    expect(enter.title).toBe("EnterWorktree fix-login");
    expect(enter.sections).toEqual([
      { kind: "text", text: "Creates a git worktree named fix-login on a new branch and works there." },
    ]);
    const into = approvalPrompt(req("EnterWorktree", { path: "/home/me/app/.claude/worktrees/old" }), root);
    expect(into.title).toBe("EnterWorktree .claude/worktrees/old");
    expect(into.sections).toEqual([
      { kind: "text", text: "Switches to the git worktree at .claude/worktrees/old and works there." },
    ]);
    expect(approvalPrompt(req("ExitWorktree", { action: "keep" })).sections).toEqual([
      { kind: "text", text: "Leaves the worktree, keeping it and its branch on disk." },
    ]);
    const discard = approvalPrompt(req("ExitWorktree", { action: "remove", discard_changes: true }));
    expect(discard.title).toBe("ExitWorktree remove");
    expect(discard.sections).toEqual([
      { kind: "text", text: "Leaves the worktree and deletes it, and its branch." },
      {
        kind: "text",
        text: "⚠️ Throws away its uncommitted files and unmerged commits, even with a task still running there.",
      },
    ]);
    // A shape the CLI does not document: its fields, as for any other tool.
    expect(approvalPrompt(req("ExitWorktree", { action: "archive" })).sections).toEqual([
      { kind: "fields", fields: [{ name: "action", value: "archive" }] },
    ]);
  });

  it("other tools: their key fields, shortened, scalars first", () => {
    const prompt = approvalPrompt(
      req("mcp__db__query", { options: { deep: true }, sql: "select *\n  from users", limit: 5 }, { agentId: "a1" }),
    );
    expect(prompt.sections[0]).toEqual({
      kind: "fields",
      fields: [
        { name: "sql", value: "select * from users" },
        { name: "limit", value: "5" },
        { name: "options", value: '{"deep":true}' },
      ],
    });
    expect(prompt.sections.at(-1)).toEqual({ kind: "text", text: "Requested by a subagent." });
    // An MCP server's tool is named by its server and its name, not the CLI's mcp__db__query.
    expect(prompt.title).toBe("db · query");
    // A tool whose step names what it acts on is titled so, paths relative to the project.
    expect(approvalPrompt(req("Skill", { skill: "pdf" })).title).toBe("Skill pdf");
    expect(approvalPrompt(req("Agent", { description: "Review the diff", prompt: "…" })).title).toBe(
      "Agent Review the diff",
    );
    expect(
      approvalPrompt(req("Read", { file_path: "/home/me/app/src/a.ts" }), { projectRoot: "/home/me/app" }).title,
    ).toBe("Read src/a.ts");
    expect(promptLines(prompt, "mcp__db__query")[0]).toBe("? Allow db · query?");
  });

  it("choices: Allow, Always allow in this session (when the CLI suggests rules), Deny", () => {
    expect(approvalPrompt(bash).choices.map((c) => [c.id, c.label])).toEqual([
      ["allow", "Allow"],
      ["always", "Always allow in this session"],
      ["deny", "Deny"],
    ]);
    expect(approvalPrompt(req("Bash", { command: "x" })).choices.map((c) => c.id)).toEqual(["allow", "deny"]);
  });

  it("the plain-text form shows each thing once: the tool asked about, the command, numbered choices", () => {
    expect(promptLines(approvalPrompt(bash), "Bash")).toEqual([
      "? Allow Bash?",
      "  Create a marker file",
      "  $ touch created-by-test.txt && echo made",
      "  “Always allow” covers: Bash(touch created-by-test.txt && echo made); files in /home/user/project",
      "  [1] Allow",
      "  [2] Always allow in this session",
      "  [3] Deny",
    ]);
  });
});

describe("what each answer sends", () => {
  it("Allow echoes the input", () => {
    expect(resolveApproval(bash, { kind: "choice", choiceId: "allow" })?.answer).toEqual({
      behavior: "allow",
      updatedInput: bash.input,
    });
  });
  it("Always allow carries the CLI's rule suggestions for this session only, not its mode switch", () => {
    const answer = resolveApproval(bash, { kind: "choice", choiceId: "always" })?.answer;
    expect(answer).toEqual({
      behavior: "allow",
      updatedInput: bash.input,
      updatedPermissions: [
        {
          type: "addRules",
          rules: [{ toolName: "Bash", ruleContent: "touch created-by-test.txt && echo made" }],
          behavior: "allow",
          destination: "session",
        },
        { type: "addDirectories", directories: ["/home/user/project"], destination: "session" },
      ],
    });
  });
  it("Deny tells the model not to retry and to explain or propose another way", () => {
    const answer = resolveApproval(bash, { kind: "choice", choiceId: "deny" })?.answer;
    expect(answer).toEqual({ behavior: "deny", message: personDeniedMessage("Bash") });
    expect(personDeniedMessage("Bash")).toMatch(/phone.*Do not retry the same call.*propose another way/s);
  });
  it("a typed reply is a deny that carries the person's words", () => {
    const answer = resolveApproval(bash, { kind: "text", text: "no, use pnpm" })?.answer;
    expect(answer?.behavior === "deny" && answer.message).toMatch(/The person replied: "no, use pnpm"/);
  });
  it("a typed reply with a file is shown back with the file's name, not with Claude's words", () => {
    const typed = {
      kind: "text" as const,
      text: "see this\n\nI sent you a file; it is saved…",
      shown: "see this 📎 log.txt",
    };
    const resolved = resolveApproval(bash, typed);
    expect(resolved?.answer.behavior === "deny" && resolved.answer.message).toContain("I sent you a file");
    expect(resolved?.outcome.summary).toBe("Denied with your reply: see this 📎 log.txt");
  });
  it("says who decided, for Claude Code's own record: a person once, for good, or no", () => {
    const sent = (answer: (m: ReturnType<typeof machine>) => ReturnType<ReturnType<typeof machine>["step"]>) => {
      const m = machine();
      m.request(bash);
      return responded(answer(m))?.decisionClassification;
    };
    expect(sent((m) => m.tap(bash.requestId, "allow"))).toBe("user_temporary");
    // "Always allow" keeps its rules for the session only, yet it is the person's standing yes.
    expect(sent((m) => m.tap(bash.requestId, "always"))).toBe("user_permanent");
    expect(sent((m) => m.tap(bash.requestId, "deny"))).toBe("user_reject");
    expect(sent((m) => m.answer(bash.requestId, { kind: "text", text: "no, use pnpm" }))).toBe("user_reject");
    expect(sent((m) => m.step({ type: "timeout", decisionId: bash.requestId }))).toBe("config");
    // Nobody decided a request its session's end or its withdrawal answered.
    for (const input of [{ type: "session_ended" }, { type: "withdrawn", decisionId: bash.requestId }] as const) {
      const m = machine();
      m.request(bash);
      expect(responded(m.step(input))).toEqual({ behavior: "deny", message: expect.any(String) });
    }
  });
  it("preview prompts say why they appear", () => {
    const m = machine({ mode: "auto", previewChanges: true });
    const prompt = asked(m.request(req("Write", { file_path: "a", content: "b" })));
    expect(prompt?.caption).toMatch(/previews changes/);
    expect(responded(m.tap("r1", "allow"))?.behavior).toBe("allow");
  });
});

describe("text helpers", () => {
  it("compactLineDiff: equal texts give nothing; long diffs are cut with a final gap", () => {
    expect(compactLineDiff("same\n", "same\n")).toEqual([]);
    const old = Array.from({ length: 100 }, (_, i) => `o${i}`).join("\n");
    const next = Array.from({ length: 100 }, (_, i) => `n${i}`).join("\n");
    const diff = compactLineDiff(old, next, { maxLines: 10 });
    expect(diff).toHaveLength(10);
    expect(diff.at(-1)).toEqual<DiffLine>({ op: "gap", skipped: 191 });
  });
  it("compactLineDiff: an insertion in the middle keeps its neighbours", () => {
    expect(compactLineDiff("a\nb\nc", "a\nb\nx\nc", { contextLines: 1 })).toEqual([
      { op: "gap", skipped: 1 },
      { op: "context", text: "b" },
      { op: "added", text: "x" },
      { op: "context", text: "c" },
    ]);
  });
  it("splitLongText: parts within the limit, split at line breaks, nothing lost", () => {
    const plan = Array.from({ length: 50 }, (_, i) => `${i + 1}. a step of the plan`).join("\n");
    const parts = splitLongText(plan, 200);
    expect(parts.every((p) => p.length <= 200)).toBe(true);
    expect(parts.join("\n")).toBe(plan);
  });
});

describe("typed lines at a prompt without buttons", () => {
  const prompt = approvalPrompt(bash);
  it("a number or a label picks the choice", () => {
    expect(answerFromTypedLine(prompt, " 3 ")).toEqual({ kind: "choice", choiceId: "deny" });
    expect(answerFromTypedLine(prompt, "always allow in this session", "ann")).toEqual({
      kind: "choice",
      choiceId: "always",
      by: "ann",
    });
  });
  it("other text is the person's words; an empty line is nothing", () => {
    expect(answerFromTypedLine(prompt, "no, use pnpm")).toEqual({ kind: "text", text: "no, use pnpm" });
    expect(answerFromTypedLine(prompt, "9")).toEqual({ kind: "text", text: "9" });
    expect(answerFromTypedLine(prompt, "   ")).toBeUndefined();
  });
});
