// Renders one Telecode event as plain terminal text (used by `telecode replay` and the
// terminal front end). Pure: one event in, the text to print (or nothing) out; the steps a
// turn's closing line counts come from TurnSteps, which its caller feeds every event.
// No colours or cursor control here; a front end may add them around these lines.
import {
  cleanToolDetail,
  excerpt,
  failureText,
  formatCount,
  formatDurationMs,
  formatUsd,
  relativeToCwd,
  toolDisplayName,
} from "../domain/index.js";
import type { NoteKind, TelecodeEvent, TurnOrigin } from "../domain/index.js";
import { checklistSummary } from "./checklist.js";
import { toolLabel, whyItFailed } from "./tool-signs.js";

export type TerminalLineOptions = {
  /** Show thinking blocks (default true). */
  showThinking?: boolean;
  /** Longest text shown for thinking and tool details before "…". Default 300. */
  maxDetailChars?: number;
  /** The project directory: paths under it are shown relative to it. */
  cwd?: string;
  /** The tool calls of the turn a turn_finished closes (TurnSteps), said on its line. */
  steps?: number;
  /** A failed turn's error is said on a line of its own afterwards: its ■ line only says it failed. */
  failureSaidAfter?: boolean;
  /** End approval lines with the request's id, to match them up in a replay (default true). */
  requestIds?: boolean;
};

/**
 * Counts a turn's steps as the Telegram progress counts a run's: each tool call once,
 * subagents' included. (The CLI's own num_turns counts model calls, not steps.)
 */
export class TurnSteps {
  readonly #calls = new Set<string>();

  /** Takes every event, in order. */
  observe(event: TelecodeEvent): void {
    if (event.type === "turn_started") this.#calls.clear();
    else if (event.type === "tool_started") this.#calls.add(event.toolUseId);
  }

  /** The steps of the turn under way (or just finished). */
  get count(): number {
    return this.#calls.size;
  }
}

const NOTE_ICONS: Readonly<Record<NoteKind, string>> = {
  rate_limit: "⏳",
  api_retry: "↻",
  compaction: "⇊",
  warning: "⚠",
  info: "ℹ",
  stall: "…",
};

/** Subagent lines are indented under the tool call that started them. */
function indent(parentToolUseId: string | null): string {
  return parentToolUseId === null ? "" : "  │ ";
}

function oneLine(text: string, maxChars: number): string {
  return excerpt(text.replace(/\s*\n\s*/g, " ⏎ "), maxChars);
}

/** Who started a turn that no person's message started, as a terminal line says it. */
const ORIGIN_WORDS: Readonly<Record<Exclude<TurnOrigin, "person">, string>> = {
  schedule: "started by a schedule",
  wakeup: "started by a wake-up Claude asked for",
  monitor: "started by a Monitor event",
  subagent: "started by a background task that finished",
};

/**
 * The text for one event: one or more lines joined by "\n" (no trailing newline), or
 * undefined for events a terminal does not show (task progress; thinking when hidden).
 */
export function renderTerminalLine(event: TelecodeEvent, options: TerminalLineOptions = {}): string | undefined {
  const max = options.maxDetailChars ?? 300;
  const idOf = (requestId: string): string => (options.requestIds === false ? "" : ` [${requestId}]`);
  switch (event.type) {
    case "session_started": {
      const version = event.cliVersion === undefined ? "" : ` · Claude Code ${event.cliVersion}`;
      return `● session ${event.sessionId} · ${event.model || "default model"} · ${event.permissionMode || "default"} mode · ${event.cwd}${version}`;
    }
    case "turn_started":
      return event.origin === "person"
        ? `── turn ${event.turn} ──`
        : `── turn ${event.turn} (${ORIGIN_WORDS[event.origin]}) ──`;
    case "tool_started":
      return `${indent(event.parentToolUseId)}▸ ${oneLine(toolLabel(event.name, event.kind, event.title, options.cwd, max), max)}`;
    case "tool_updated":
      return `  … ${oneLine(event.detail, max)}`;
    case "tool_finished": {
      const mark = event.ok ? "✓" : "✗";
      // A success needs only a glimpse of its output; a failure says why in full.
      const clean = cleanToolDetail(event.detail);
      const shown = event.ok
        ? oneLine(successGlimpse(event.name, clean, options.cwd), Math.min(max, 80))
        : oneLine(whyItFailed(clean, options.cwd), max);
      const detail = shown === "" ? "" : ` — ${shown}`;
      const label = toolLabel(event.name, event.kind, event.title, options.cwd, 120);
      return `${indent(event.parentToolUseId)}${mark} ${oneLine(label, 120)}${detail}`;
    }
    case "text": {
      const prefix = indent(event.parentToolUseId);
      return prefix === ""
        ? event.text
        : event.text
            .split("\n")
            .map((line) => prefix + line)
            .join("\n");
    }
    case "thinking":
      if (options.showThinking === false) return undefined;
      return `${indent(event.parentToolUseId)}∴ ${oneLine(event.text, max)}`;
    case "note":
      return `${NOTE_ICONS[event.kind]} ${event.text}`;
    case "mode_changed":
      return `◆ permission mode: ${event.mode}`;
    case "task_changed": {
      if (event.phase === "updated") return undefined;
      const what = event.description ?? event.taskType ?? event.taskId;
      const status = event.status === undefined ? "" : ` (${event.status})`;
      const kind = event.backgrounded === true ? "background task" : "task";
      return `  ◇ ${kind} ${event.phase}: ${what}${status}`;
    }
    case "checklist":
      return event.items.length === 0 ? undefined : `☑ tasks ${checklistSummary(event.items, max)}`;
    case "approval_requested": {
      const r = event.request;
      const about = describeInput(r.input, max);
      const description =
        r.description === undefined || r.description === about ? "" : ` (${oneLine(r.description, 120)})`;
      const why = r.decisionReason === undefined ? "" : ` — ${r.decisionReason}`;
      return `? approval needed: ${toolDisplayName(r.toolName)}${about === "" ? "" : `: ${oneLine(about, max)}`}${description}${why}${idOf(r.requestId)}`;
    }
    case "approval_resolved":
      // Telecode's own rules decided: a refusal is told, with why, on the tool's line that follows.
      if (event.by === "policy")
        return event.decision === "allow" ? `✓ allowed without asking${idOf(event.requestId)}` : undefined;
      return `${event.decision === "allow" ? "✓ allowed" : "✗ denied"} by ${event.by}${idOf(event.requestId)}`;
    case "approval_withdrawn":
      return `  approval withdrawn by Claude Code${idOf(event.requestId)}`;
    case "question_asked":
      return event.questions.map((q) => `? ${q.question} (${q.options.map((o) => o.label).join(" / ")})`).join("\n");
    // Where a usage limit stands is for /usage; a warning or a reached limit comes as a note too.
    case "step_usage":
    case "usage_limit":
      return undefined;
    case "usage": {
      // A turn that failed before the model answered used nothing worth a line.
      if (event.inputTokens === 0 && event.outputTokens === 0 && event.costUsd === 0) return undefined;
      const context = event.contextPercent === undefined ? "" : ` · context ${event.contextPercent}%`;
      return `  tokens ${formatCount(event.inputTokens)} in / ${formatCount(event.outputTokens)} out · session ${formatUsd(event.costUsd)}${context}`;
    }
    case "turn_finished": {
      // As on the phone: no "0 steps", no "$0.00".
      const stats = [
        ...(options.steps ? [`${options.steps} step${options.steps === 1 ? "" : "s"}`] : []),
        formatDurationMs(event.durationMs),
        ...(event.costUsd > 0 ? [formatUsd(event.costUsd)] : []),
      ].join(" · ");
      if (event.interrupted) return `■ interrupted · ${stats}`;
      if (!event.ok && options.failureSaidAfter === true) return `■ failed · ${stats}`;
      if (!event.ok)
        return `■ failed: ${event.error === undefined ? "unknown error" : failureText(event.error)} · ${stats}`;
      return `■ done · ${stats}`;
    }
    case "prompt_suggested":
      return `💬 suggested next: ${oneLine(event.text, max)}`;
    case "run_completed": {
      const state = event.cancelled
        ? "cancelled"
        : event.interrupted
          ? "interrupted"
          : event.ok
            ? "completed"
            : `failed: ${event.error === undefined ? "unknown error" : failureText(event.error)}`;
      return `■ run ${event.runId} ${state} · ${formatDurationMs(event.durationMs)} · ${formatUsd(event.costUsd)}`;
    }
  }
}

/** Claude Code's note to the model after a file tool: "(file state is current in your context — …)". */
const NOTE_TO_MODEL = /\s*\(file state is current in your context[^)]*\)/;

/**
 * The first line of a successful tool's output, without what Claude Code tells the model there.
 * A Read's output is the file itself (numbered, and cut short in the event), which the ✓ line's
 * "📖 Read path" already names: nothing more is shown.
 */
function successGlimpse(name: string, detail: string, cwd: string | undefined): string {
  if (name === "Read") return "";
  return relativeToCwd(detail.replace(NOTE_TO_MODEL, ""), cwd).split("\n", 1)[0] ?? "";
}

/** A compact "key: value" view of a tool input for the approval line. */
function describeInput(input: Readonly<Record<string, unknown>>, max: number): string {
  const command = input["command"];
  if (typeof command === "string") return command;
  const path = input["file_path"];
  if (typeof path === "string") return path;
  const plan = input["plan"];
  if (typeof plan === "string") {
    const file = input["planFilePath"];
    return `plan of ${plan.split("\n").length} lines${typeof file === "string" ? ` in ${file}` : ""}`;
  }
  const questions = input["questions"];
  if (Array.isArray(questions)) return questions.map(describeQuestion).join("; ");
  const parts: string[] = [];
  for (const [key, value] of Object.entries(input)) {
    const text = typeof value === "string" ? value : (JSON.stringify(value) ?? "");
    parts.push(`${key}: ${text}`);
    if (parts.join(", ").length > max) break;
  }
  return excerpt(parts.join(", "), max);
}

function describeQuestion(question: unknown): string {
  if (typeof question !== "object" || question === null) return "?";
  const q = question as { question?: unknown; options?: unknown };
  const text = typeof q.question === "string" ? q.question : "?";
  if (!Array.isArray(q.options)) return text;
  const labels = q.options.map((o: unknown) =>
    typeof o === "object" && o !== null && typeof (o as { label?: unknown }).label === "string"
      ? (o as { label: string }).label
      : "?",
  );
  return `${text} (${labels.join(" / ")})`;
}
