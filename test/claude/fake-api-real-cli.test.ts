// Proves the fake Messages API is good enough for the real CLI: a control-mode text turn,
// a tool call, a non-streaming probe, and routing by prompt marker. Raw spawn, no engine.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { reply, startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic/index.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../support/claude-workspace.js";
import { controlArgs } from "../support/recorder/steps.js";

const cliArgs = controlArgs();

let api: FakeAnthropic | undefined;
let ws: ClaudeWorkspace | undefined;
afterEach(async () => {
  await api?.close();
  await ws?.cleanup();
});

/** Runs one control-mode turn and returns every stdout line (parsed) and the exit code. */
async function runTurn(
  workspace: ClaudeWorkspace,
  prompt: string,
): Promise<{ lines: Record<string, unknown>[]; code: number | null }> {
  const child = spawn(realClaudePath, cliArgs, {
    cwd: workspace.cwd,
    env: workspace.env,
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  child.stdin.write(
    `${JSON.stringify({ type: "control_request", request_id: "init_1", request: { subtype: "initialize", hooks: null } })}\n`,
  );
  child.stdin.write(
    `${JSON.stringify({ type: "user", message: { role: "user", content: prompt }, parent_tool_use_id: null, session_id: "" })}\n`,
  );
  for await (const line of createInterface({ input: child.stdout })) {
    const msg = JSON.parse(line) as Record<string, unknown>;
    lines.push(msg);
    if (msg["type"] === "result") child.stdin.end();
  }
  return { lines, code: await exited };
}

describe("fake Anthropic API with the real CLI", () => {
  it("streams a text turn the CLI turns into an assistant line and a result", async () => {
    api = await startFakeAnthropic({ replies: [reply.text("Hello from the fake.", { chunks: 3 })] });
    ws = await makeClaudeWorkspace(api.url);
    const { lines, code } = await runTurn(ws, "Say hello");
    expect(code).toBe(0);
    const result = lines.find((l) => l["type"] === "result");
    expect(result?.["result"]).toBe("Hello from the fake.");
    expect(result?.["is_error"]).toBe(false);
    const [req] = api.requests();
    expect(req?.lastPrompt).toBe("Say hello");
    expect(req?.stream).toBe(true);
  });

  it("routes requests by the marker in the prompt and records tool results", async () => {
    api = await startFakeAnthropic();
    api.script([reply.bash("echo marker-output", "Print"), reply.text("done A")], "[job-A]");
    api.script([reply.text("wrong queue")]);
    ws = await makeClaudeWorkspace(api.url);
    const { lines } = await runTurn(ws, "Please run it [job-A]");
    expect(lines.find((l) => l["type"] === "result")?.["result"]).toBe("done A");
    const reqs = api.requests("[job-A]");
    expect(reqs).toHaveLength(2);
    expect(reqs[1]?.toolResults[0]?.text).toContain("marker-output");
    expect(api.pending()).toBe(1);
  });
});
