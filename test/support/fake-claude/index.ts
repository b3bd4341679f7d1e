// The stand-in `claude` binary: a script of stdout lines and stdin waits, for protocol edge
// cases the real CLI cannot be made to produce on demand, and for benchmarks.
import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

export const fakeClaudePath = resolve(import.meta.dirname, "fake-claude.js");

export type FakeClaudeStep =
  | { out: Record<string, unknown> | string }
  | { awaitIn: { type?: string; subtype?: string; request_id?: string } }
  | { sleepMs: number }
  | { replay: string; times?: number }
  | { timed: number; intervalMs?: number }
  | { stderr: string }
  | { exit: number };

export type FakeClaudeScript = {
  steps: FakeClaudeStep[];
  /** Exit 0 when stdin closes (default true, like the CLI). */
  exitOnEof?: boolean;
  /** Our control requests acked at once with success. Default interrupt, set_permission_mode, set_model. */
  autoAck?: string[];
};

/** Shorthands for the lines the real CLI prints (fields as in the 2.1.332 fixtures). */
export const line = {
  init(sessionId = "sess-fake-1"): Record<string, unknown> {
    return {
      type: "system",
      subtype: "init",
      session_id: sessionId,
      cwd: "/tmp",
      model: "claude-fake",
      permissionMode: "default",
      tools: ["Bash"],
      claude_code_version: "2.1.332",
      uuid: "u-init",
    };
  },
  text(text: string, sessionId = "sess-fake-1"): Record<string, unknown> {
    return {
      type: "assistant",
      message: {
        id: "msg_1",
        type: "message",
        role: "assistant",
        model: "claude-fake",
        content: [{ type: "text", text }],
        usage: { input_tokens: 1, output_tokens: 1 },
      },
      parent_tool_use_id: null,
      session_id: sessionId,
      uuid: "u-text",
    };
  },
  result(text: string, extra: Record<string, unknown> = {}, sessionId = "sess-fake-1"): Record<string, unknown> {
    return {
      type: "result",
      subtype: "success",
      is_error: false,
      result: text,
      session_id: sessionId,
      num_turns: 1,
      duration_ms: 5,
      total_cost_usd: 0.001,
      usage: { input_tokens: 1, output_tokens: 1 },
      ...extra,
    };
  },
  canUseTool(requestId: string, command = "touch x"): Record<string, unknown> {
    return {
      type: "control_request",
      request_id: requestId,
      request: {
        subtype: "can_use_tool",
        tool_name: "Bash",
        display_name: "Bash",
        input: { command },
        tool_use_id: `toolu_${requestId}`,
      },
    };
  },
};

/** Writes the script into `dir` and returns the env entries that make the stand-in use it. */
export async function writeFakeClaudeScript(
  dir: string,
  script: FakeClaudeScript,
  name = "fake-claude-script.json",
): Promise<{ env: NodeJS.ProcessEnv; stdinLog: string; argsLog: string }> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(script));
  const stdinLog = join(dir, `${name}.stdin.jsonl`);
  const argsLog = join(dir, `${name}.args.jsonl`);
  return {
    env: { FAKE_CLAUDE_SCRIPT: file, FAKE_CLAUDE_STDIN_LOG: stdinLog, FAKE_CLAUDE_ARGS_LOG: argsLog },
    stdinLog,
    argsLog,
  };
}
