// Schedules in the chat's words: a schedule as a card (its name, its timing, next run, runs and
// cost so far), and the notices the scheduler's events become (skipped, missed, stopped, failed).
import { excerpt, formatUsd, hostFailureInWords, sentence } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import {
  describeSchedule,
  scheduleName,
  ScheduleError,
  stateReasonWords,
  whenInWords,
  type Schedule,
  type SchedulerEvent,
  type TextOptions,
} from "../../schedule/index.js";
import type { ScheduleCard } from "../../telegram/index.js";

// Before its first run a schedule without caps says nothing of runs or cost ("0 runs · $0.00").
function runsWords(s: Schedule): string {
  if (s.iterations === 0 && s.caps.maxIterations === null) return "";
  const runs = s.iterations === 1 ? "1 run" : `${s.iterations} runs`;
  return s.caps.maxIterations === null ? runs : `${s.iterations} of ${s.caps.maxIterations} runs`;
}

function costWords(s: Schedule): string {
  if (s.costUsd === 0 && s.caps.maxCostUsd === null) return "";
  return s.caps.maxCostUsd === null
    ? formatUsd(s.costUsd)
    : `${formatUsd(s.costUsd)} of ${formatUsd(s.caps.maxCostUsd)}`;
}

function nextWords(s: Schedule, options: TextOptions): string {
  if (s.state === "paused") return "paused";
  // A one-shot's timing already says when it runs ("once at 14:30 today").
  if (s.timing.kind === "once" && s.nextFireAt === s.timing.atMs) return "";
  return s.nextFireAt === null ? "nothing due" : `next at ${whenInWords(s.nextFireAt, s.timeZone, options.nowMs)}`;
}

/** The first line of a prompt, short enough for a list. */
export function promptLine(prompt: string): string {
  return excerpt(prompt.trim().split("\n", 1)[0] ?? "", 100);
}

export function scheduleCard(s: Schedule, options: TextOptions): ScheduleCard {
  return {
    id: s.id,
    name: scheduleName(s),
    summary: [describeSchedule(s, options), nextWords(s, options), runsWords(s), costWords(s)]
      .filter((part) => part !== "")
      .join(" · "),
    prompt: promptLine(s.prompt),
    paused: s.state === "paused",
    cancellable: s.kind !== "config",
  };
}

/** Said once, when a run brings the schedule's spending today to its day cap. */
export function dayCapHtml(s: Schedule, options: TextOptions): string {
  const then =
    s.nextFireAt === null
      ? ""
      : ` Its next run is at ${esc(whenInWords(s.nextFireAt, s.timeZone, options.nowMs))}, if that is another day.`;
  return `⏹ <b>${esc(scheduleName(s))}</b> reached its day cap: its runs cost ${formatUsd(s.costDayUsd)} today, the most max_day_cost_usd allows (${formatUsd(s.caps.maxDayCostUsd ?? 0)}). Its runs today are skipped.${then} Raise max_day_cost_usd in the config to let them run.`;
}

/** Said when a run failed in a way its next runs would repeat (no login, no CLI, no project folder). */
export function heldUntilFixedHtml(s: Schedule): string {
  return `⏸ <b>${esc(scheduleName(s))}</b> is paused: its next runs would fail the same way. Once that is fixed, tap its Resume, or resume it in /loops.`;
}

/** Said when a run hit a usage limit: the schedule's slots until it resets are skipped. */
export function waitsForLimitHtml(s: Schedule, options: TextOptions): string {
  const next =
    s.nextFireAt === null ? "" : ` Its next run is at ${esc(whenInWords(s.nextFireAt, s.timeZone, options.nowMs))}.`;
  return `⏭ <b>${esc(scheduleName(s))}</b> waits for the usage limit: its runs until the limit resets are skipped.${next}`;
}

/** What the chat is told about a scheduler event (HTML), or null when it is only logged. */
export function noticeHtml(event: SchedulerEvent, options: TextOptions): string | null {
  if (event.type === "scheduler_failed" || event.type === "skipped_day_cost") return null;
  const s = event.schedule;
  const name = `<b>${esc(scheduleName(s))}</b>`;
  const at = (ms: number): string => esc(whenInWords(ms, s.timeZone, options.nowMs));
  switch (event.type) {
    case "skipped_busy": {
      const then =
        event.retryAt !== null
          ? `It tries again at ${at(event.retryAt)}.`
          : s.nextFireAt === null
            ? ""
            : `It runs again at ${at(s.nextFireAt)}.`;
      return `⏭ ${name} skipped its run of ${at(event.slotAt)}: a task was running in this chat. ${then} (Said once while the chat stays busy.)`;
    }
    case "missed": {
      if (event.busy)
        return `⚠️ ${name} did not run: a task kept this chat busy from ${at(event.slotAt)} for longer than it may wait ([schedule] grace_minutes). It will not run again.`;
      const runs = event.slots === 1 ? "its run" : `${event.slots} runs`;
      const then = s.nextFireAt === null ? "It will not run again." : `It goes on at ${at(s.nextFireAt)}.`;
      return `⚠️ ${name} missed ${runs} (the last at ${at(event.slotAt)}) while Telecode was stopped or paused, or the computer slept. ${then}`;
    }
    case "capped": {
      const why =
        event.reason === "cost"
          ? `its runs cost ${formatUsd(s.costUsd)}, past its limit of ${formatUsd(s.caps.maxCostUsd ?? 0)}`
          : stateReasonWords(event.reason);
      return `⏹ ${name} stopped: ${esc(why)}. Ask Claude for a new loop if you still want it.`;
    }
    case "fire_failed": {
      // The scheduler's own errors are written for people; anything else stays in the log.
      const error = event.error;
      const why =
        error instanceof ScheduleError
          ? sentence(error.message)
          : `${hostFailureInWords(error, "schedule.fire_failed")}.`;
      const then = s.nextFireAt === null ? "It will not run again." : `It tries again at ${at(s.nextFireAt)}.`;
      return `⚠️ ${name} could not start run ${event.iteration}: ${esc(why)} Nothing ran for it. ${then} See /loops.`;
    }
  }
}
