// Turns a played scenario into the files of a recording, in the layout of the shared ones:
// NAME[.LABEL].stdout.jsonl and .transcript.jsonl per run, NAME.api.jsonl (one summary per
// request the fake API saw) and NAME.meta.json. Everything passes through one Sanitiser.
import type { FakeReply, RecordedRequest } from "../fake-anthropic/index.js";
import type { PlayedRun, PlayedScenario } from "./play.js";
import { Sanitiser } from "./sanitise.js";

/** File name → content. */
export type RecordingFiles = Map<string, string>;

const prefixOf = (name: string, label: string): string => (label === "main" ? name : `${name}.${label}`);

function describeReply(reply: Exclude<FakeReply, { kind: "dynamic" }> | undefined, answered: string): string {
  if (reply === undefined) return answered;
  switch (reply.kind) {
    case "message": {
      const blocks = reply.blocks.map((b) => (b.type === "tool_use" ? `tool_use:${b.name}` : b.type));
      const stop = reply.stopReason ?? (reply.blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
      return `sse [${blocks.join(",")}] ${stop}${reply.headers === undefined ? "" : ` +headers(${Object.keys(reply.headers).length})`}`;
    }
    case "cut":
      return `${describeReply(reply.message, answered)} break@${reply.afterEvents}`;
    case "error":
      return `error ${reply.status}`;
    case "hang":
      return "hang";
  }
}

function textsOf(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content.flatMap((b: { type?: unknown; text?: unknown }) =>
    b.type === "text" && typeof b.text === "string" ? [b.text] : [],
  );
}

function summarise(request: RecordedRequest): Record<string, unknown> {
  const body = request.body;
  const messages = Array.isArray(body["messages"]) ? (body["messages"] as { role?: string }[]) : [];
  const system = body["system"];
  const systemText = typeof system === "string" ? system : textsOf(system).join("\n");
  const thinking = body["thinking"] as { type?: unknown } | undefined;
  return {
    n: request.n,
    method: request.method,
    url: request.url,
    bytes: Buffer.byteLength(JSON.stringify(body)),
    model: request.model,
    stream: request.stream,
    max_tokens: request.maxTokens,
    messages: messages.length,
    assistants: messages.filter((m) => m.role === "assistant").length,
    tools: Array.isArray(body["tools"]) ? body["tools"].length : 0,
    thinking: typeof thinking?.type === "string" ? thinking.type : null,
    system_head: systemText.length > 100 ? `${systemText.slice(0, 100)}…` : systemText,
    last_prompt: request.lastPrompt.slice(0, 200),
    tool_results: request.toolResults.map((r) => ({
      id: r.toolUseId,
      is_error: r.isError,
      text: r.text.slice(0, 200),
      chars: r.text.length,
    })),
    track: request.key === "" ? "main" : request.key,
    response: describeReply(request.reply, request.answered),
  };
}

function runMeta(name: string, run: PlayedRun, clean: (line: string) => string): Record<string, unknown> {
  const out = run.transcript.flatMap((e) => (e.dir === "out" ? [e.line] : []));
  return {
    label: run.label,
    files: `${prefixOf(name, run.label)}.*`,
    args: run.args.map(clean),
    exit: run.exit,
    duration_ms: run.durationMs,
    stdout_lines: out.length,
    max_line_bytes: Math.max(0, ...out.map((line) => Buffer.byteLength(line))),
    warnings: run.warnings,
  };
}

/** The files of one recorded scenario, sanitised; `cliVersion` goes into the meta file. */
export function recordingFiles(played: PlayedScenario, cliVersion: string): RecordingFiles {
  const { scenario } = played;
  const sanitiser = new Sanitiser(played.place, scenario.keep);
  for (const run of played.runs) for (const e of run.transcript) if (e.dir === "out") sanitiser.learn(e.line);
  const clean = (line: string): string => sanitiser.clean(line);
  const files: RecordingFiles = new Map();
  for (const run of played.runs) {
    const prefix = prefixOf(scenario.name, run.label);
    const stdout = run.transcript.flatMap((e) => (e.dir === "out" ? [clean(e.line)] : []));
    files.set(`${prefix}.stdout.jsonl`, stdout.map((line) => `${line}\n`).join(""));
    const transcript = run.transcript.map((e) =>
      JSON.stringify(typeof e.line === "string" ? { ...e, line: clean(e.line) } : e),
    );
    files.set(`${prefix}.transcript.jsonl`, transcript.map((line) => `${line}\n`).join(""));
  }
  files.set(
    `${scenario.name}.api.jsonl`,
    played.requests.map((request) => `${clean(JSON.stringify(summarise(request)))}\n`).join(""),
  );
  const meta = {
    scenario: scenario.name,
    description: scenario.description,
    cli_version: cliVersion,
    runs: played.runs.map((run) => runMeta(scenario.name, run, clean)),
    api_requests: played.requests.length,
  };
  files.set(`${scenario.name}.meta.json`, `${JSON.stringify(meta, null, 2)}\n`);
  return files;
}
