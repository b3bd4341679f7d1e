// The Telegram progress message of one run (header, recent tool lines, notes, footer) and
// its compact summary once the run is over, as Telegram HTML always within the limits.
// Pure: time comes in as `nowMs`, clock formatting as a ClockFormatter.

import {
  excerpt,
  failedBeforeStart,
  formatDurationMs,
  formatUsd,
  keepsChecklist,
  runDurationMs,
  type ClockFormatter,
  type ProgressNote,
  type ProgressPhase,
  type ProgressState,
  type ProgressTool,
  TURN_CUT_OFF_NOTE,
} from "../domain/index.js";
import { isSteeringAnswer } from "../policy/index.js";
import { checklistCount, checklistLines, checklistSummary } from "./checklist.js";
import { escapeTelegramHtml, markdownToTelegramHtml } from "./telegram-html.js";
import { toolLabel, whyItFailed } from "./tool-signs.js";
import { TELEGRAM_TEXT_LIMIT } from "./telegram-html-parse.js";

export type ProgressRenderOptions = {
  nowMs: number;
  /** Formats rate-limit reset times; without it only the time left is shown. */
  clock?: ClockFormatter;
  /** Tool lines shown (most recent; running ones first to stay). Default 6. */
  maxToolLines?: number;
  /** Notes shown (most recent). Default 3. */
  maxNotes?: number;
};

const PHASES: Readonly<Record<ProgressPhase, { icon: string; label: string }>> = {
  starting: { icon: "⏳", label: "Starting…" },
  working: { icon: "⚙️", label: "Working" },
  waiting: { icon: "⏸", label: "Waiting for you" },
  done: { icon: "✅", label: "Done" },
  failed: { icon: "❌", label: "Failed" },
  cancelled: { icon: "⏹", label: "Cancelled" },
  interrupted: { icon: "⚠️", label: "Interrupted" },
};

const NOTE_ICONS: Readonly<Record<ProgressNote["kind"], string>> = {
  rate_limit: "⏳",
  api_retry: "↻",
  compaction: "🗜",
  warning: "⚠️",
  info: "ℹ️",
  stall: "💤",
};

const TOOL_MARKS: Readonly<Record<ProgressTool["status"], string>> = { running: "▸", done: "✓", failed: "✗" };

/** A running call shows its own elapsed time once it runs longer than this. */
const LONG_RUNNING_MS = 60_000;
const TITLE_CHARS = 90;
const DETAIL_CHARS = 80;
const NOTE_CHARS = 200;
/** Claude's latest words shown while it works: the last sentences that fit. */
const NARRATION_CHARS = 280;
/** A line of the summary for a failed step. */
const FAILED_LINE_CHARS = 160;
/** The plan's lines in the progress message, at most (a longer plan folds what is done). */
const CHECKLIST_LINES = 8;

/** The progress message's HTML for `state` at `options.nowMs`; never over Telegram's limit. */
export function renderProgressHtml(state: ProgressState, options: ProgressRenderOptions): string {
  const room = { tools: options.maxToolLines ?? 6, notes: options.maxNotes ?? 3, plan: CHECKLIST_LINES };
  for (;;) {
    const html = compose(state, options, room);
    // Header and footer are bounded, so dropping lines always gets under the limit.
    if (html.length <= TELEGRAM_TEXT_LIMIT || (room.tools === 0 && room.notes === 0 && room.plan === 0)) return html;
    if (room.tools > 0) room.tools--;
    else if (room.notes > 0) room.notes--;
    else room.plan--;
  }
}

/**
 * The progress message once the run is over: "✅ Done · 2 min 5 s · 14 steps · $0.0421", then
 * the steps that failed or were denied (✗) and the warnings, which a person should not miss.
 */
export function renderProgressSummaryHtml(state: ProgressState, nowMs: number): string {
  const phase = PHASES[state.phase];
  const parts = [elapsed(state, nowMs)];
  if (state.steps > 0) parts.push(steps(state.steps));
  if (state.costUsd > 0) parts.push(formatUsd(state.costUsd));
  // A run that failed before Claude Code started took no time worth a "· 0 ms".
  const error = state.outcome?.error;
  const header = [
    state.phase === "failed" && error !== undefined && failedBeforeStart(error)
      ? `<b>${phase.icon} Not started</b>`
      : `<b>${phase.icon} ${phase.label}</b> · ${parts.join(" · ")}`,
  ];
  if (state.checklist.length > 0)
    header.push(`☑ Tasks · ${escapeTelegramHtml(checklistSummary(state.checklist, TITLE_CHARS))}`);
  // An outline the person asked for is no failure to be reminded of.
  const failed = state.failedTools
    .filter((tool) => !isSteered(tool))
    .map((tool) => {
      const line = `✗ ${toolLabel(tool.name, tool.kind, oneLine(tool.title), state.cwd, TITLE_CHARS)}`;
      const why =
        tool.detail === undefined || tool.detail.trim() === ""
          ? ""
          : ` — ${oneLine(whyItFailed(tool.detail, state.cwd))}`;
      return escapeTelegramHtml(excerpt(line + why, FAILED_LINE_CHARS));
    });
  const notes = state.notes.filter((note) => isKeptNote(note, state)).slice(-SUMMARY_NOTES);
  return [header, failed, notes.map(noteText)]
    .filter((block) => block.length > 0)
    .map((block) => block.join("\n"))
    .join("\n\n");
}

/** The notes a finished run's summary keeps, at most. */
const SUMMARY_NOTES = 3;

/**
 * Whether a finished run's summary keeps a note: warnings and usage limits, which a person
 * should not miss, unless what ended the run says the same (Claude Code stopped mid-turn, a
 * usage limit reached until a time).
 */
function isKeptNote(note: ProgressNote, state: ProgressState): boolean {
  if (note.kind !== "warning" && note.kind !== "rate_limit") return false;
  const outcome = state.outcome;
  if (outcome === undefined || outcome.ok) return true;
  return note.key !== TURN_CUT_OFF_NOTE && (note.untilMs === undefined || outcome.error?.reason !== "rate_limited");
}

/** How many lines of each part the message may show. */
type Room = { tools: number; notes: number; plan: number };

function compose(state: ProgressState, options: ProgressRenderOptions, room: Room): string {
  const { tools: maxTools, notes: maxNotes } = room;
  const now = options.nowMs;
  const phase = PHASES[state.phase];
  // Nothing worth reading yet is left out: a first "⏳ Starting…" has no "0 ms · 0 steps".
  const header = [`<b>${phase.icon} ${phase.label}</b>`];
  if (runDurationMs(state, now) >= 1000) header.push(elapsed(state, now));
  if (state.steps > 0) header.push(steps(state.steps));
  if (state.backgroundTaskIds.length > 0) header.push(`${state.backgroundTaskIds.length} in background`);
  const lines = [header.join(" · ")];

  // The plan says what its tools did: their calls leave the room to the work.
  const plan = state.checklist;
  if (plan.length > 0)
    lines.push(
      "",
      `☑ <b>Tasks</b> · ${checklistCount(plan)}`,
      ...(room.plan > 0 ? checklistLines(plan, room.plan, TITLE_CHARS).map(escapeTelegramHtml) : []),
    );
  const tools = plan.length === 0 ? state.tools : state.tools.filter((t) => !isPlanKeeping(t));
  const shown = pickTools(tools, maxTools);
  if (shown.length > 0) lines.push("", ...shown.map((tool) => toolLine(tool, now, state.cwd)));
  if (state.narration !== undefined && maxTools > 0) lines.push("", `💬 ${narrationHtml(state.narration)}`);

  const notes = maxNotes > 0 ? state.notes.slice(-maxNotes) : [];
  if (state.pendingDecisions.length > 0) lines.push("", "⏸ Waiting for your answer below");
  if (notes.length > 0) lines.push("", ...notes.map((note) => noteLine(note, options)));

  // Labelled where a bare word would puzzle: "high effort · plan mode", not "high · plan".
  const footer = [
    state.model,
    labelled(state.effort, "effort"),
    labelled(state.mode, "mode"),
    state.contextPercent === undefined ? undefined : `context ${Math.round(state.contextPercent)}%`,
  ]
    .filter((part): part is string => part !== undefined && part !== "")
    .map((part) => escapeTelegramHtml(excerpt(part, 40)));
  if (footer.length > 0) lines.push("", `<i>${footer.join(" · ")}</i>`);
  return lines.join("\n");
}

/** "plan mode" for "plan"; nothing for nothing. */
function labelled(value: string | undefined, label: string): string | undefined {
  return value === undefined || value === "" ? undefined : `${value} ${label}`;
}

/** At most `max` calls, in order: every running one (the newest, past `max`), then the latest finished ones. */
function pickTools(tools: readonly ProgressTool[], max: number): ProgressTool[] {
  if (max <= 0) return [];
  if (tools.length <= max) return [...tools];
  const running = tools.filter((t) => t.status === "running").slice(-max);
  const room = max - running.length;
  const finished = room === 0 ? [] : tools.filter((t) => t.status !== "running").slice(-room);
  const keep = new Set([...running, ...finished]);
  return tools.filter((t) => keep.has(t));
}

function toolLine(tool: ProgressTool, nowMs: number, cwd: string | undefined): string {
  const indent = tool.parentToolUseId === null ? "" : "  ";
  const label = toolLabel(tool.name, tool.kind, oneLine(tool.title), cwd, TITLE_CHARS);
  let line = `${indent}${toolMark(tool)} ${escapeTelegramHtml(label)}`;
  if (tool.status === "running" && nowMs - tool.startedAtMs >= LONG_RUNNING_MS)
    line += ` (${formatDurationMs(nowMs - tool.startedAtMs)})`;
  if (tool.status === "failed" && tool.detail !== undefined && tool.detail.trim() !== "") {
    line += ` — <i>${escapeTelegramHtml(excerpt(oneLine(whyItFailed(tool.detail, cwd)), DETAIL_CHARS))}</i>`;
  }
  return line;
}

/** A call that only kept the plan, and did so: a failed one still shows why. */
function isPlanKeeping(tool: ProgressTool): boolean {
  return tool.status !== "failed" && tool.parentToolUseId === null && keepsChecklist(tool.name);
}

/** ▸ ✓ ✗, and ↩ for a call the person answered by asking for something else (an outline). */
function toolMark(tool: ProgressTool): string {
  return isSteered(tool) ? "↩" : TOOL_MARKS[tool.status];
}

function isSteered(tool: ProgressTool): boolean {
  return tool.status === "failed" && tool.detail !== undefined && isSteeringAnswer(tool.detail);
}

/** The last sentences of Claude's latest text that fit, on one line, its Markdown rendered. */
function narrationHtml(text: string): string {
  const paragraphs = text.split(/\n\s*\n/).filter((p) => p.trim() !== "");
  const last = oneLine(paragraphs.at(-1) ?? text).replace(/ ⏎ /g, " ");
  let shown = "";
  for (const sentence of last.split(/(?<=[.!?…:])\s+/).reverse()) {
    const longer = shown === "" ? sentence : `${sentence} ${shown}`;
    if (longer.length > NARRATION_CHARS) break;
    shown = longer;
  }
  if (shown === "") shown = excerpt(last, NARRATION_CHARS);
  else if (shown.length < last.length) shown = `… ${shown}`;
  return markdownToTelegramHtml(shown);
}

function noteText(note: ProgressNote): string {
  return `${NOTE_ICONS[note.kind]} ${escapeTelegramHtml(excerpt(oneLine(note.text), NOTE_CHARS))}`;
}

function noteLine(note: ProgressNote, options: ProgressRenderOptions): string {
  let line = noteText(note);
  if (note.untilMs !== undefined && note.untilMs > options.nowMs) {
    // A note that names the time already ("Rate limited until 17:46 today") is not told it twice.
    const time = options.clock?.time(note.untilMs);
    const at = time === undefined || note.text.includes(time) ? "" : ` at ${time},`;
    line += ` (resumes${at} in ${formatDurationMs(note.untilMs - options.nowMs)})`;
  }
  return line;
}

function elapsed(state: ProgressState, nowMs: number): string {
  return formatDurationMs(runDurationMs(state, nowMs));
}

function steps(count: number): string {
  return count === 1 ? "1 step" : `${count} steps`;
}

function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ⏎ ").trim();
}
