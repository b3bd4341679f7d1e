// What the model and the chat read about schedules: the hook denial reasons for CronCreate,
// ScheduleWakeup, CronDelete and CronList, and the line a fired iteration starts with. Pure.
import {
  LISTED_BY_TELECODE,
  LOOPS_OFF_IN_CHAT,
  LOOPS_OFF_IN_CONFIG,
  SCHEDULED_BY_TELECODE,
  SCHEDULING_FAILED,
  sentence,
  STOPPED_BY_TELECODE,
} from "../domain/index.js";
import type { Refusal } from "./caps.js";
import { describeSchedule, whenInWords, type DescribeOptions } from "./describe.js";
import type { Schedule, StateReason } from "./schedule-types.js";
import type { CancelResult } from "./scheduler-types.js";

export type TextOptions = DescribeOptions;

const money = (usd: number): string => `$${usd.toFixed(2)}`;

/**
 * Claude Code checks a CronDelete id against its own jobs before any hook runs, and it holds
 * none of Telecode's: the call fails there, and Telecode, which sees the call, cancels the loop.
 */
const CRON_DELETE_NOTE =
  "Claude Code will answer that it has no such job, because Telecode keeps the loop, not Claude Code; Telecode cancels the loop all the same";

const REASON_WORDS: Readonly<Record<StateReason, string>> = {
  iterations: "it reached its most runs",
  lifetime: "it reached the end of its lifetime",
  cost: "it reached its cost limit",
  fired: "it has fired",
  missed: "its time passed while Telecode could not run it",
  stopped_by_claude: "Claude ended it",
  never_again: "its schedule has no further dates",
  person: "the person cancelled it",
  claude: "Claude cancelled it",
  removed_from_config: "it was removed from the config",
  new_session: "the chat started a new session",
};

/** Why a schedule is no longer live, in words ("the person cancelled it"). */
export function stateReasonWords(reason: StateReason | null): string {
  return reason === null ? "it was stopped" : REASON_WORDS[reason];
}

/** "loop 3f2a1b0c", "wake-up loop 3f2a1b0c", "schedule 3f2a1b0c", "schedule morning-review". */
export function scheduleName(s: Schedule): string {
  switch (s.kind) {
    case "loop":
      return `loop ${s.id}`;
    case "wakeup":
      return `wake-up loop ${s.id}`;
    case "chat":
      return `schedule ${s.id}`;
    case "config":
      return `schedule ${s.createdBy.kind === "config" ? s.createdBy.configId : s.id}`;
  }
}

function firstLine(text: string, max = 60): string {
  const line = text.trim().split("\n", 1)[0] ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function limits(s: Schedule, options: TextOptions): string {
  const parts: string[] = [];
  if (s.caps.maxIterations !== null) parts.push(`at most ${s.caps.maxIterations} runs`);
  if (s.caps.expiresAt !== null) parts.push(`until ${whenInWords(s.caps.expiresAt, s.timeZone, options.nowMs)}`);
  if (s.caps.maxCostUsd !== null) parts.push(`at most ${money(s.caps.maxCostUsd)} in all`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}

function nextWords(s: Schedule, options: TextOptions): string {
  if (s.state === "paused") return "paused";
  return s.nextFireAt === null ? "nothing due" : `next at ${whenInWords(s.nextFireAt, s.timeZone, options.nowMs)}`;
}

/** The reason given when loops are off in this chat (`/loops off`) or everywhere (`[loops] enabled = false`). */
export function loopsOffReason(scope: "chat" | "everywhere"): string {
  return scope === "chat"
    ? `${LOOPS_OFF_IN_CHAT}, so nothing was scheduled; the person can turn it on with /loops on. Until then, do the work now.`
    : `${LOOPS_OFF_IN_CONFIG} ([loops] enabled = false), so nothing was scheduled. Do the work now, or tell the person it cannot be scheduled.`;
}

/** The denial reason for a scheduling call Telecode failed to carry out (it threw `error`). */
export function schedulingFailedReason(toolName: string, error: unknown): string {
  const why = error instanceof Error ? error.message : String(error);
  return `${SCHEDULING_FAILED} (${toolName}): ${sentence(why)} Nothing was scheduled, listed or cancelled. Tell the person; on the computer running Telecode, \`telecode doctor\` checks what is wrong, and then they can ask again.`;
}

/** The denial reason for a CronCreate Telecode stored: the model learns the loop id and how to cancel it. */
export function loopStoredReason(s: Schedule, options: TextOptions): string {
  return [
    `${SCHEDULED_BY_TELECODE}loop ${s.id}, ${describeSchedule(s, options)}, ${nextWords(s, options)}${limits(s, options)}.`,
    "Each time it fires, Telecode sends the prompt into this session as a new message; nothing is scheduled in the CLI, so do not create it again.",
    `To stop it, call CronDelete with id "${s.id}" (${CRON_DELETE_NOTE}).`,
  ].join(" ");
}

/** The denial reason for a ScheduleWakeup Telecode armed. */
export function wakeupStoredReason(s: Schedule, options: TextOptions): string {
  const at = s.nextFireAt === null ? "later" : `at ${whenInWords(s.nextFireAt, s.timeZone, options.nowMs)}`;
  return [
    `${SCHEDULED_BY_TELECODE}this session will be woken ${at} with your prompt as a new message (loop ${s.id}${limits(s, options)}).`,
    "To end the loop, call ScheduleWakeup with stop: true.",
  ].join(" ");
}

/** What the model reads when a scheduling call could not be checked (it is denied: nothing is scheduled). */
export const GUARD_FAILED_REASON =
  "Telecode could not handle this scheduling call because of an internal error, so nothing was scheduled. Do the work now, or tell the person to try again later.";

/** The denial reason when Telecode refused to schedule: the refusal says why and what to do. */
export function refusedReason(r: Refusal): string {
  return r.code === "loops_off" ? r.message : `Telecode did not schedule this. ${r.message}`;
}

/** The answer to ScheduleWakeup {stop: true}. */
export function wakeupStoppedReason(stopped: readonly Schedule[]): string {
  return stopped.length === 0
    ? "There was no wake-up loop to end in this session; nothing changed."
    : `${STOPPED_BY_TELECODE}loop ${stopped.map((s) => s.id).join(", ")} ended; no further wake-up will come.`;
}

/** The answer to CronDelete. */
export function cronDeleteReason(result: CancelResult): string {
  switch (result.kind) {
    case "cancelled":
      return `${STOPPED_BY_TELECODE}loop ${result.schedule.id} is cancelled and will not fire again.`;
    case "not_found":
      return `There is no loop "${result.id}" in this chat, so nothing was cancelled. CronList shows the loops Telecode keeps for this chat.`;
    case "not_yours":
      return `Loop ${result.schedule.id} was not made by this session, so it was not cancelled. Ask the person to cancel it with /loops.`;
    case "already_ended":
      return `Loop ${result.schedule.id} had already ended (${stateReasonWords(result.schedule.stateReason)}); nothing changed.`;
  }
}

/** The answer to CronList: Telecode's live schedules for this chat, one line each. */
export function cronListReason(schedules: readonly Schedule[], options: TextOptions): string {
  if (schedules.length === 0)
    return `${LISTED_BY_TELECODE}this chat has no loops. CronCreate makes one; Telecode keeps it and sends its prompt at each fire time.`;
  const lines = schedules.map((s) => {
    const runs =
      s.caps.maxIterations === null ? `${s.iterations} runs` : `${s.iterations} of ${s.caps.maxIterations} runs`;
    const cost = s.caps.maxCostUsd === null ? money(s.costUsd) : `${money(s.costUsd)} of ${money(s.caps.maxCostUsd)}`;
    return `- ${s.id} (${s.kind}): ${describeSchedule(s, options)}, ${nextWords(s, options)}, ${runs}, ${cost}: "${firstLine(s.prompt)}"`;
  });
  return [
    `${LISTED_BY_TELECODE}this chat has ${schedules.length === 1 ? "1 loop" : `${schedules.length} loops`}. Telecode keeps them (the CLI's own list is empty by design):`,
    ...lines,
    `Cancel a loop of this session with CronDelete and its id (${CRON_DELETE_NOTE}).`,
  ].join("\n");
}

/**
 * A short title for a fired iteration's run in the chat: which schedule, which run (a one-shot
 * has only the one, whatever its cap says), how to stop it.
 */
export function firedTitle(s: Schedule, iteration: number, options: TextOptions): string {
  const of = s.caps.maxIterations === null ? "" : ` of ${s.caps.maxIterations}`;
  const run = s.recurring ? ` · run ${iteration}${of}` : "";
  const stop = s.kind === "config" ? "pause it with /loops" : "stop it with /loops";
  return `⏰ ${scheduleName(s)}${run} · ${describeSchedule(s, options)} (${stop}): ${firstLine(s.prompt)}`;
}

/**
 * The message a fired iteration sends into the session: a bracketed line saying it comes from
 * a schedule (which one, which iteration, how to stop it), then the prompt. A prompt that is a
 * slash command ("/loop …", which a wake-up re-enters verbatim) is sent as it is: anything
 * before it would stop the CLI from reading it as a command.
 */
export function firedPrompt(s: Schedule, iteration: number, options: TextOptions): string {
  if (s.prompt.trimStart().startsWith("/")) return s.prompt;
  const of = s.caps.maxIterations === null ? "" : ` of at most ${s.caps.maxIterations}`;
  const who =
    s.kind === "config"
      ? `Telecode schedule "${s.createdBy.kind === "config" ? s.createdBy.configId : s.id}" from the config`
      : s.kind === "chat"
        ? `Telecode schedule ${s.id}, set by the person`
        : `Telecode loop ${s.id}`;
  const stop =
    s.kind === "wakeup"
      ? " To end the loop, call ScheduleWakeup with stop: true."
      : s.kind === "loop"
        ? ` To stop the loop, call CronDelete with id "${s.id}" (${CRON_DELETE_NOTE}).`
        : "";
  const nobody = s.attended ? "" : " Nobody is watching this run: what would wait for an answer is declined.";
  return `[${who}, iteration ${iteration}${of}: ${describeSchedule(s, options)}. Sent by the schedule, not typed by the person.${nobody}${stop}]\n\n${s.prompt}`;
}
