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
  | { stderr: string }
  | { exit: number };

export type FakeClaudeScript = { steps: FakeClaudeStep[]; exitOnEof?: boolean };

/** Writes the script into `dir` and returns the env entries that make the stand-in use it. */
export async function writeFakeClaudeScript(dir: string, script: FakeClaudeScript, name = "fake-claude-script.json"): Promise<{ env: NodeJS.ProcessEnv; stdinLog: string; argsLog: string }> {
  const file = join(dir, name);
  await writeFile(file, JSON.stringify(script));
  const stdinLog = join(dir, `${name}.stdin.jsonl`);
  const argsLog = join(dir, `${name}.args.jsonl`);
  return { env: { FAKE_CLAUDE_SCRIPT: file, FAKE_CLAUDE_STDIN_LOG: stdinLog, FAKE_CLAUDE_ARGS_LOG: argsLog }, stdinLog, argsLog };
}
