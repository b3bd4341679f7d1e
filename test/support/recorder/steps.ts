// Shorthands the scenario files share: the stdin lines a consumer writes, the CLI flags of the
// two invocations, and the usual shape of a control-mode run (initialize, prompt, wait, close).
import type { ScenarioRun, SeenLine, Step } from "./scenario.js";

const STREAM_JSON = ["--output-format", "stream-json", "--input-format", "stream-json", "--verbose"];

/** Control mode: `--permission-mode MODE --permission-prompt-tool stdio`, extra flags before the mode. */
export function controlArgs(mode = "default", extra: readonly string[] = []): string[] {
  return [...STREAM_JSON, ...extra, "--permission-mode", mode, "--permission-prompt-tool", "stdio"];
}

/** Print mode: `-p PROMPT --output-format stream-json --verbose`, stdin closed at once. */
export function printArgs(prompt: string, extra: readonly string[] = []): string[] {
  return ["-p", prompt, "--output-format", "stream-json", "--verbose", ...extra];
}

export type HookMatchers = Record<string, readonly { matcher?: string; hookCallbackIds: string[]; timeout?: number }[]>;

/** The initialize request with `hooks`, and any other fields a host may send (`promptSuggestions`). */
export function initialize(hooks: HookMatchers | null = null, extra: Record<string, unknown> = {}): Step {
  return {
    write: { type: "control_request", request_id: "init_1", request: { subtype: "initialize", hooks, ...extra } },
  };
}

/** A user line: its content is the text, or content blocks (a document, an image) as given. */
export function user(content: string | readonly Record<string, unknown>[], uuid?: string): Step {
  return {
    write: {
      type: "user",
      message: { role: "user", content },
      parent_tool_use_id: null,
      session_id: "",
      ...(uuid === undefined ? {} : { uuid }),
    },
  };
}

export function controlRequest(requestId: string, request: Record<string, unknown>): Step {
  return { write: { type: "control_request", request_id: requestId, request } };
}

export const interrupt = (requestId = "interrupt_1"): Step => controlRequest(requestId, { subtype: "interrupt" });

/** The tool input of a can_use_tool request. */
export function inputOf(request: SeenLine): Record<string, unknown> {
  const inner = request["request"] as Record<string, unknown> | undefined;
  return (inner?.["input"] as Record<string, unknown> | undefined) ?? {};
}

/** Answers the `count`-th can_use_tool: allow with the input unchanged (plus `extra`). */
export function allowTool(count = 1, extra: Record<string, unknown> = {}): Step {
  return {
    answer: "control_request/can_use_tool",
    count,
    with: (request) => ({ behavior: "allow", updatedInput: inputOf(request), ...extra }),
  };
}

export function denyTool(message: string, count = 1): Step {
  return { answer: "control_request/can_use_tool", count, with: () => ({ behavior: "deny", message }) };
}

/** Answers the `count`-th hook_callback with `output`. */
export function answerHook(output: Record<string, unknown>, count = 1): Step {
  return { answer: "control_request/hook_callback", count, with: () => output };
}

/** After the `after`-th result: a pause, `before` (a control request and its answer, say), then a new prompt. */
export function thenPrompt(prompt: string, options: { after?: number; before?: readonly Step[] } = {}): Step[] {
  return [{ waitFor: "result", count: options.after ?? 1 }, { pauseMs: 300 }, ...(options.before ?? []), user(prompt)];
}

export type ControlRunOptions = {
  prompt?: string | readonly Record<string, unknown>[];
  mode?: string;
  extraArgs?: readonly string[];
  label?: string;
  hooks?: HookMatchers | null;
  /** More fields of the initialize request (`promptSuggestions: true`). */
  initialize?: Record<string, unknown>;
  /** What happens between the prompt and the last result. */
  middle?: readonly Step[];
  /** Results to wait for before closing stdin. */
  results?: number;
  /** What happens after the last result, before the pause that closes stdin. */
  after?: readonly Step[];
  /** Pause between the last result and closing stdin (the shared recordings used 0.5 s). */
  closeAfterMs?: number;
  resumeFrom?: string;
  env?: Readonly<Record<string, string | null>>;
};

/** initialize, the prompt, `middle`, wait for `results` results, pause, close stdin. */
export function controlRun(options: ControlRunOptions): ScenarioRun {
  const extra = options.extraArgs ?? [];
  const steps: Step[] = [initialize(options.hooks ?? null, options.initialize)];
  if (options.prompt !== undefined) steps.push(user(options.prompt));
  steps.push(...(options.middle ?? []));
  if ((options.results ?? 1) > 0) steps.push({ waitFor: "result", count: options.results ?? 1 });
  steps.push(...(options.after ?? []));
  steps.push({ pauseMs: options.closeAfterMs ?? 500 }, { closeStdin: true });
  const resumeFrom = options.resumeFrom;
  return {
    label: options.label ?? "main",
    args:
      resumeFrom === undefined
        ? controlArgs(options.mode, extra)
        : (context) => [...controlArgs(options.mode, extra), "--resume", context.sessionOf(resumeFrom)],
    ...(options.env === undefined ? {} : { env: options.env }),
    steps,
  };
}
