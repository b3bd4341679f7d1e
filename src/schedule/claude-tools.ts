// Claude's scheduling tools taken over: CronCreate and ScheduleWakeup become Telecode loops (the
// CLI never holds a job), CronDelete cancels one, CronList lists the chat's. Every call is
// answered with a denial whose reason the model reads: what Telecode did, and how to undo it.
import {
  cronDeleteReason,
  cronListReason,
  loopsOffReason,
  loopStoredReason,
  refusedReason,
  wakeupStoppedReason,
  wakeupStoredReason,
  type TextOptions,
} from "./hook-text.js";
import type { Schedule } from "./schedule-types.js";
import type { Scheduler } from "./scheduler.js";
import type { CancelResult } from "./scheduler-types.js";

/** The tools Telecode answers itself, by PreToolUse hook. */
export const SCHEDULE_TOOLS: readonly string[] = Object.freeze([
  "CronCreate",
  "CronDelete",
  "CronList",
  "ScheduleWakeup",
]);

export type ScheduleToolCall = Readonly<{
  toolName: string;
  input: Readonly<Record<string, unknown>>;
  toolUseId: string | undefined;
  sessionId: string | undefined;
}>;

/**
 * A denial (the CLI must never hold a job of its own), or "ask" for a CronDelete of a job the
 * CLI holds itself (from before Telecode kept the schedule): that one the CLI may delete.
 */
export type ScheduleToolAnswer = Readonly<{ decision: "deny"; reason: string }> | Readonly<{ decision: "ask" }>;

/** One chat's view of the scheduler, as the hooks of its sessions use it. */
export type ChatScheduling = Readonly<{
  scheduler: Pick<Scheduler, "create" | "cancel" | "armWakeup" | "stopWakeups" | "settings">;
  chatId: number;
  project: string;
  /** The chat's live loops and schedules, oldest first. */
  list: () => readonly Schedule[];
  nowMs: () => number;
  /** `/loops on|off` in this chat. */
  loopsOn: () => boolean;
  /** The wake-up chain whose fired run is working in this chat's lane now, if any. */
  runningChain: () => string | undefined;
}>;

const denied = (reason: string): ScheduleToolAnswer => ({ decision: "deny", reason });

const NO_SESSION = denied(
  "Telecode could not tell which session asked, so nothing was scheduled. Do the work now, or ask the person to use /every or /at.",
);

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function textOptions(ctx: ChatScheduling): TextOptions {
  return { nowMs: ctx.nowMs(), defaultTimeZone: ctx.scheduler.settings().defaultTimeZone };
}

function cronCreate(ctx: ChatScheduling, call: ScheduleToolCall, sessionId: string): ScheduleToolAnswer {
  const result = ctx.scheduler.create({
    kind: "loop",
    chatId: ctx.chatId,
    project: ctx.project,
    session: { mode: "id", sessionId },
    timing: { kind: "cron", cron: str(call.input["cron"]) ?? "" },
    prompt: str(call.input["prompt"]) ?? "",
    recurring: call.input["recurring"] !== false,
    createdBy: { kind: "claude", turn: call.toolUseId ?? "" },
  });
  return denied(result.ok ? loopStoredReason(result.schedule, textOptions(ctx)) : refusedReason(result.refusal));
}

function scheduleWakeup(ctx: ChatScheduling, call: ScheduleToolCall, sessionId: string): ScheduleToolAnswer {
  if (call.input["stop"] === true) return denied(wakeupStoppedReason(ctx.scheduler.stopWakeups(ctx.chatId, sessionId)));
  if (!ctx.loopsOn()) return denied(loopsOffReason("chat"));
  const delay = call.input["delaySeconds"];
  const result = ctx.scheduler.armWakeup({
    chatId: ctx.chatId,
    project: ctx.project,
    sessionId,
    delaySeconds: typeof delay === "number" ? delay : Number.NaN,
    prompt: str(call.input["prompt"]) ?? "",
    note: str(call.input["reason"]) ?? null,
    createdBy: { kind: "claude", turn: call.toolUseId ?? "" },
    chainId: ctx.runningChain() ?? null,
  });
  return denied(result.ok ? wakeupStoredReason(result.schedule, textOptions(ctx)) : refusedReason(result.refusal));
}

/** Answers one call of a scheduling tool made in this chat's session. */
export function answerScheduleTool(ctx: ChatScheduling, call: ScheduleToolCall): ScheduleToolAnswer {
  const sessionId = call.sessionId;
  switch (call.toolName) {
    case "CronList":
      return denied(cronListReason(ctx.list(), textOptions(ctx)));
    case "CronDelete": {
      if (sessionId === undefined) return NO_SESSION;
      const result = cancelByClaude(ctx, str(call.input["id"]) ?? "", sessionId);
      return result.kind === "not_found" ? { decision: "ask" } : denied(cronDeleteReason(result));
    }
    case "CronCreate":
      if (sessionId === undefined) return NO_SESSION;
      return ctx.loopsOn() ? cronCreate(ctx, call, sessionId) : denied(loopsOffReason("chat"));
    case "ScheduleWakeup":
      return sessionId === undefined ? NO_SESSION : scheduleWakeup(ctx, call, sessionId);
    default:
      return denied(`Telecode does not schedule with ${call.toolName}; nothing was scheduled.`);
  }
}

/**
 * CronDelete as Claude Code runs it: the CLI checks the id against its own jobs before any hook,
 * so a call naming a Telecode loop fails there. Telecode sees the call in the session's output
 * and cancels the loop (only one its session owns) — this is that step.
 */
export function cancelByClaude(
  ctx: Pick<ChatScheduling, "scheduler" | "chatId">,
  id: string,
  sessionId: string,
): CancelResult {
  return ctx.scheduler.cancel(id.trim(), "claude", { chatId: ctx.chatId, sessionId });
}

/** The answer where no scheduler runs (`telecode run` in a terminal): nothing is ever scheduled. */
export function answerWithoutScheduler(call: ScheduleToolCall): ScheduleToolAnswer {
  if (call.toolName === "CronList")
    return denied("There are no loops: this run has no scheduler (it runs in a terminal with `telecode run`).");
  if (call.toolName === "CronDelete") return { decision: "ask" };
  if (call.toolName === "ScheduleWakeup" && call.input["stop"] === true)
    return denied("There is nothing to cancel: this run has no scheduler, so no loop exists.");
  return denied(
    "This run cannot schedule work: it runs in a terminal (`telecode run`), where Telecode keeps no schedules, so nothing was scheduled. Do the work now, or tell the person to schedule it from Telegram.",
  );
}
