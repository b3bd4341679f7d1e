// Approvals asked at the terminal: what the person sees, and how typed answers become decisions.
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/domain/index.js";
import { createTerminalApprover, DENIED_AT_TERMINAL, describeApproval } from "../../src/terminal/index.js";

function setup() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.on("data", (c: Buffer) => (shown += c.toString("utf8")));
  const approver = createTerminalApprover({ input, output });
  return { input, approver, shown: () => shown };
}

const bash: ApprovalRequest = { requestId: "r1", toolName: "Bash", input: { command: "rm -rf build", description: "Clean" }, permissionSuggestions: [] };

describe("terminal approver", () => {
  it("allows on y and echoes the input", async () => {
    const { input, approver, shown } = setup();
    const decision = approver.ask(bash, new AbortController().signal);
    input.write("y\n");
    expect(await decision).toEqual({ behavior: "allow", updatedInput: { command: "rm -rf build", description: "Clean" }, by: "terminal" });
    expect(shown()).toContain("$ rm -rf build");
    approver.close();
  });

  it("denies on anything else, with the typed reason when given", async () => {
    const { input, approver } = setup();
    const first = approver.ask(bash, new AbortController().signal);
    const second = approver.ask({ ...bash, requestId: "r2" }, new AbortController().signal);
    input.write("\n");
    expect(await first).toMatchObject({ behavior: "deny", message: DENIED_AT_TERMINAL });
    input.write("n: use make clean instead\n");
    expect(await second).toMatchObject({ behavior: "deny", message: "The person at the terminal denied this: use make clean instead" });
    approver.close();
  });

  it("stops asking when the request is withdrawn", async () => {
    const { approver, shown } = setup();
    const abort = new AbortController();
    const decision = approver.ask(bash, abort.signal);
    await expect.poll(() => shown().includes("Allow?")).toBe(true);
    abort.abort();
    await expect(decision).rejects.toThrow("withdrawn");
    expect(shown()).toContain("withdrawn by Claude Code");
    approver.close();
  });

  it("answers AskUserQuestion with the chosen option labels", async () => {
    const { input, approver, shown } = setup();
    const request: ApprovalRequest = {
      requestId: "q1",
      toolName: "AskUserQuestion",
      input: { questions: [{ question: "Which colour?", header: "Colour", multiSelect: false, options: [{ label: "Red" }, { label: "Green" }] }] },
      permissionSuggestions: [],
    };
    const decision = approver.ask(request, new AbortController().signal);
    input.write("2\n");
    const answer = await decision;
    expect(answer.behavior === "allow" && answer.updatedInput["answers"]).toEqual({ "Which colour?": "Green" });
    expect(shown()).toContain("2. Green");
    approver.close();
  });
});

describe("describeApproval", () => {
  it("shows a short diff for Edit and cuts long Write content", () => {
    const edit = describeApproval({ requestId: "e", toolName: "Edit", input: { file_path: "/p/a.ts", old_string: "let x = 1;", new_string: "const x = 1;" }, permissionSuggestions: [] });
    expect(edit).toContain("file: /p/a.ts");
    expect(edit).toContain("- let x = 1;");
    expect(edit).toContain("+ const x = 1;");
    const content = Array.from({ length: 50 }, (_, i) => `line ${i}`).join("\n");
    const write = describeApproval({ requestId: "w", toolName: "Write", input: { file_path: "/p/b.txt", content }, permissionSuggestions: [] });
    expect(write).toContain("+ line 19");
    expect(write).not.toContain("+ line 20");
    expect(write).toContain("… 30 more lines");
  });
});
