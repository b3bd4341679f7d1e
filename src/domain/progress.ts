// The progress of one run as a pure reducer over TelecodeEvents and time: phase, steps, the
// recent tool calls, keyed notes, model/effort/mode/context, cost and the outcome. Every
// front end renders this same state (Telegram, terminal); it knows no transport.

import type { ChecklistItem, NoteKind, TelecodeEvent, ToolKind } from "./events.js";
import type { RunFailure } from "./run-failure.js";
import { cleanToolDetail, doneByTelecode } from "./text-format.js";

export type ProgressPhase = "starting" | "working" | "waiting" | "done" | "failed" | "cancelled" | "interrupted";

export type ProgressTool = {
  toolUseId: string;
  name: string;
  kind: ToolKind;
  title: string;
  status: "running" | "done" | "failed";
  startedAtMs: number;
  finishedAtMs?: number;
  /** Set for calls made inside a subagent (shown nested). */
  parentToolUseId: string | null;
  /** The latest progress detail, or the result excerpt once finished. */
  detail?: string;
};

export type ProgressNote = {
  /** Notes with the same key replace each other. */
  key: string;
  kind: NoteKind;
  text: string;
  atMs: number;
  /** For waits (rate limits): when the wait is expected to end. */
  untilMs?: number;
};

export type ProgressOutcome = {
  ok: boolean;
  error?: RunFailure;
  interrupted: boolean;
  cancelled: boolean;
  durationMs: number;
};

export type ProgressState = {
  phase: ProgressPhase;
  startedAtMs: number;
  lastEventAtMs: number;
  finishedAtMs?: number;
  /** Tool calls started in this run (subagents' included). */
  steps: number;
  /** Turns started in this run. */
  turns: number;
  /** Running calls and the most recent finished ones, in start order. */
  tools: readonly ProgressTool[];
  /** Calls that failed or were denied, most recent last: the summary keeps them. */
  failedTools: readonly ProgressTool[];
  /** Claude's latest text between tool calls (main thread), so a person can follow along. */
  narration?: string;
  /** The project directory (paths under it are shown relative to it). */
  cwd?: string;
  notes: readonly ProgressNote[];
  /** Approvals and questions waiting for a person (their request ids). */
  pendingDecisions: readonly string[];
  /** Tasks (agents, shells) still running in the background; foreground ones are not counted. */
  backgroundTaskIds: readonly string[];
  /** The agent's own plan (its task list), as it last stood; empty until it makes one. */
  checklist: readonly ChecklistItem[];
  model?: string;
  effort?: string;
  mode?: string;
  contextPercent?: number;
  costUsd: number;
  sessionId?: string;
  outcome?: ProgressOutcome;
};

export type ProgressStart = {
  startedAtMs: number;
  model?: string;
  effort?: string;
  mode?: string;
  sessionId?: string;
  /** The project directory, for runs whose session started before them (no session_started). */
  cwd?: string;
};

/** How much history the state keeps; renderers show a subset. */
export type ProgressLimits = { finishedTools: number; runningTools: number; notes: number };

export const DEFAULT_PROGRESS_LIMITS: ProgressLimits = { finishedTools: 8, runningTools: 12, notes: 4 };

/** Failed calls kept for the summary. */
const MAX_FAILED_TOOLS = 6;

const FINAL_PHASES: ReadonlySet<ProgressPhase> = new Set(["done", "failed", "cancelled", "interrupted"]);

/**
 * How long the run took: once it ended, the engine's own measure (what the answer's footer and
 * the terminal say too, so no two messages disagree); until then, the time since it went live.
 */
export function runDurationMs(state: ProgressState, nowMs: number): number {
  return state.outcome?.durationMs ?? Math.max(0, (state.finishedAtMs ?? nowMs) - state.startedAtMs);
}

export function startProgress(start: ProgressStart): ProgressState {
  return {
    phase: "starting",
    startedAtMs: start.startedAtMs,
    lastEventAtMs: start.startedAtMs,
    steps: 0,
    turns: 0,
    tools: [],
    failedTools: [],
    notes: [],
    pendingDecisions: [],
    backgroundTaskIds: [],
    checklist: [],
    costUsd: 0,
    ...(start.model === undefined || start.model === "" ? {} : { model: start.model }),
    ...(start.effort === undefined || start.effort === "" ? {} : { effort: start.effort }),
    ...(start.mode === undefined || start.mode === "" ? {} : { mode: start.mode }),
    ...(start.sessionId === undefined ? {} : { sessionId: start.sessionId }),
    ...(start.cwd === undefined || start.cwd === "" ? {} : { cwd: start.cwd }),
  };
}

export function isProgressFinal(state: ProgressState): boolean {
  return FINAL_PHASES.has(state.phase);
}

/** The state after `event`, observed at `nowMs`. Events after the run completed change nothing. */
export function reduceProgress(
  state: ProgressState,
  event: TelecodeEvent,
  nowMs: number,
  limits: ProgressLimits = DEFAULT_PROGRESS_LIMITS,
): ProgressState {
  if (isProgressFinal(state)) return state;
  const s: ProgressState = { ...state, lastEventAtMs: nowMs };
  switch (event.type) {
    case "session_started":
      return {
        ...s,
        sessionId: event.sessionId,
        ...(event.model === "" ? {} : { model: event.model }),
        ...(event.cwd === "" ? {} : { cwd: event.cwd }),
        // The run's own mode name is richer ("plan-auto" runs the CLI in "plan").
        ...(s.mode === undefined && event.permissionMode !== "" ? { mode: event.permissionMode } : {}),
      };
    case "turn_started":
      return { ...active(s), turns: s.turns + 1, sessionId: event.sessionId };
    case "tool_started": {
      const tool: ProgressTool = {
        toolUseId: event.toolUseId,
        name: event.name,
        kind: event.kind,
        title: event.title,
        status: "running",
        startedAtMs: nowMs,
        parentToolUseId: event.parentToolUseId,
      };
      const tools = s.tools.filter((t) => t.toolUseId !== event.toolUseId);
      return { ...active(clearTransientNotes(s)), steps: s.steps + 1, tools: trimTools([...tools, tool], limits) };
    }
    case "tool_updated":
      return {
        ...s,
        tools: s.tools.map((t) => (t.toolUseId === event.toolUseId ? { ...t, detail: event.detail } : t)),
      };
    case "tool_finished": {
      const cleaned = cleanToolDetail(event.detail);
      const handled = event.ok ? undefined : doneByTelecode(cleaned);
      const status = event.ok || handled !== undefined ? "done" : "failed";
      const detail = handled ?? cleaned;
      const known = s.tools.some((t) => t.toolUseId === event.toolUseId);
      const finished = (t: ProgressTool): ProgressTool => ({
        ...t,
        title: event.title || t.title,
        status,
        finishedAtMs: nowMs,
        detail,
      });
      const tools = known
        ? s.tools.map((t) => (t.toolUseId === event.toolUseId ? finished(t) : t))
        : [
            ...s.tools,
            finished({
              toolUseId: event.toolUseId,
              name: event.name,
              kind: event.kind,
              title: event.title,
              status,
              startedAtMs: nowMs,
              parentToolUseId: event.parentToolUseId,
            }),
          ];
      const failed = tools.find((t) => t.toolUseId === event.toolUseId && t.status === "failed");
      return {
        ...active(clearTransientNotes(s)),
        steps: known ? s.steps : s.steps + 1,
        tools: trimTools(tools, limits),
        ...(failed === undefined
          ? {}
          : {
              failedTools: [...s.failedTools.filter((t) => t.toolUseId !== failed.toolUseId), failed].slice(
                -MAX_FAILED_TOOLS,
              ),
            }),
      };
    }
    case "text": {
      const text = event.text.trim();
      const narration = event.parentToolUseId === null && text !== "" ? { narration: text } : {};
      return { ...active(clearTransientNotes(s)), ...narration };
    }
    case "thinking":
      return active(clearTransientNotes(s));
    case "note":
      return { ...s, notes: upsertNote(s.notes, event, nowMs, limits) };
    case "mode_changed":
      return { ...s, mode: event.mode };
    case "task_changed": {
      // A foreground Bash or subagent reports tasks too; only what runs in the background counts.
      const others = s.backgroundTaskIds.filter((id) => id !== event.taskId);
      const running = event.phase !== "finished" && event.backgrounded === true;
      return { ...s, backgroundTaskIds: running ? [...others, event.taskId] : others };
    }
    case "checklist":
      return { ...s, checklist: event.items };
    case "approval_requested":
      return { ...s, phase: "waiting", pendingDecisions: [...s.pendingDecisions, event.request.requestId] };
    case "question_asked":
      return { ...s, phase: "waiting", pendingDecisions: [...s.pendingDecisions, event.requestId] };
    case "approval_resolved":
    case "approval_withdrawn": {
      const pending = s.pendingDecisions.filter((id) => id !== event.requestId);
      return { ...s, pendingDecisions: pending, phase: pending.length > 0 ? "waiting" : "working" };
    }
    // A step's tokens are for cost caps; the footer shows the turn's usage. A usage limit's
    // warning or reset comes as a note.
    case "step_usage":
    case "usage_limit":
      return s;
    // usage.costUsd is the session's running total, not this run's: the cost comes from the turn.
    case "usage":
      return event.contextPercent === undefined ? s : { ...s, contextPercent: event.contextPercent };
    case "turn_finished":
      return { ...s, costUsd: event.costUsd };
    case "run_completed": {
      const phase: ProgressPhase = event.cancelled
        ? "cancelled"
        : event.interrupted
          ? "interrupted"
          : event.ok
            ? "done"
            : "failed";
      const outcome: ProgressOutcome = {
        ok: event.ok,
        interrupted: event.interrupted,
        cancelled: event.cancelled,
        durationMs: event.durationMs,
        ...(event.error === undefined ? {} : { error: event.error }),
      };
      return {
        ...clearTransientNotes(s),
        phase,
        finishedAtMs: nowMs,
        costUsd: event.costUsd,
        pendingDecisions: [],
        ...(event.sessionId === undefined ? {} : { sessionId: event.sessionId }),
        // A call still "running" when the run ended will not finish any more.
        tools: s.tools.map((t) =>
          t.status === "running" ? { ...t, status: event.ok ? "done" : "failed", finishedAtMs: nowMs } : t,
        ),
        outcome,
      };
    }
    default:
      return s;
  }
}

/** The state at `nowMs` without a new event: rate-limit waits that have ended are dropped. */
export function tickProgress(state: ProgressState, nowMs: number): ProgressState {
  const notes = state.notes.filter((n) => n.untilMs === undefined || n.untilMs > nowMs);
  return notes.length === state.notes.length ? state : { ...state, notes };
}

function active(state: ProgressState): ProgressState {
  return state.phase === "starting" ? { ...state, phase: "working" } : state;
}

/** Work arrived or the run ended: a retry or stall note is over. */
function clearTransientNotes(state: ProgressState): ProgressState {
  const notes = state.notes.filter((n) => n.kind !== "api_retry" && n.kind !== "stall");
  return notes.length === state.notes.length ? state : { ...state, notes };
}

function upsertNote(
  notes: readonly ProgressNote[],
  event: Extract<TelecodeEvent, { type: "note" }>,
  nowMs: number,
  limits: ProgressLimits,
): ProgressNote[] {
  const key =
    event.key ?? (event.kind === "warning" || event.kind === "info" ? `${event.kind}:${event.text}` : event.kind);
  const note: ProgressNote = {
    key,
    kind: event.kind,
    text: event.text,
    atMs: nowMs,
    ...(event.untilMs === undefined ? {} : { untilMs: event.untilMs }),
  };
  return [...notes.filter((n) => n.key !== key), note].slice(-limits.notes);
}

/** Keeps every running call (up to a cap) and the most recent finished ones, in start order. */
function trimTools(tools: readonly ProgressTool[], limits: ProgressLimits): ProgressTool[] {
  const running = tools.filter((t) => t.status === "running").slice(-limits.runningTools);
  const finished = tools.filter((t) => t.status !== "running").slice(-limits.finishedTools);
  const keep = new Set([...running, ...finished]);
  return tools.filter((t) => keep.has(t));
}
