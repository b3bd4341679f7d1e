// Every trigger as /status and `telecode doctor` list it: each live schedule and each webhook,
// when it fires next (in the schedule's own zone, as people read it) and how its last fire went.
import type { Config } from "../../config/index.js";
import { scheduleName, whenInWords, type Schedule } from "../../schedule/index.js";
import type { LastResult, TriggerResult } from "../../store/index.js";
import { webhookUrl, type ListenAddress } from "../../triggers/index.js";

export type TriggerStatus = Readonly<{
  chatId: number;
  /** "schedule morning-review", "loop 3f2a1b0c", "webhook github-push". */
  name: string;
  /** "next at 09:00 tomorrow (Europe/Berlin)", "paused", "on each delivery to http://…". */
  next: string;
  /** "last: ok at 09:00 today"; null when it never fired. */
  last: string | null;
}>;

export type TriggerStatusInput = Readonly<{
  config: Pick<Config, "webhooks" | "webhookServer" | "schedule">;
  /** Live schedules (active or paused). */
  schedules: readonly Schedule[];
  results: ReadonlyMap<string, LastResult>;
  /** Whether every trigger is held (/pause, `[schedule] paused`). */
  allPaused: boolean;
  /** Why the webhook server could not start, while it is off for that reason. */
  webhooksOff?: string | undefined;
  /** Where the webhook server listens now (the port it was given when the config says 0). */
  webhooksAt?: ListenAddress | undefined;
  /** Webhooks held until a failure is fixed, each with what its runs fail on. */
  webhooksHeld?: ReadonlyMap<string, string>;
  nowMs: number;
}>;

const RESULT_WORDS: Readonly<Record<TriggerResult, string>> = {
  ok: "ok",
  failed: "failed",
  cancelled: "cancelled",
  capped: "stopped at its cost cap",
  day_capped: "not run: its day cap was reached",
  skipped_busy: "skipped: the chat was busy",
  held: "held while paused",
  missed: "missed while Telecode was down",
};

/** The trigger ids the last results are kept under. */
export const scheduleResultId = (scheduleId: string): string => `schedule:${scheduleId}`;
export const webhookResultId = (webhookId: string): string => `webhook:${webhookId}`;

function lastWords(result: LastResult | undefined, timeZone: string, nowMs: number): string | null {
  if (result === undefined) return null;
  return `last: ${RESULT_WORDS[result.result]} at ${whenInWords(result.at, timeZone, nowMs)}`;
}

export function triggerStatuses(input: TriggerStatusInput): TriggerStatus[] {
  const { config, results, nowMs, allPaused } = input;
  const held = allPaused ? " (held: triggers are paused, /resume)" : "";
  const schedules = input.schedules.map((s): TriggerStatus => {
    const next =
      s.state === "paused"
        ? "paused"
        : s.nextFireAt === null
          ? "nothing due"
          : `next at ${whenInWords(s.nextFireAt, s.timeZone, nowMs)} (${s.timeZone})${held}`;
    const last =
      lastWords(results.get(scheduleResultId(s.id)), s.timeZone, nowMs) ??
      (s.lastFiredAt === null ? null : `last: ran at ${whenInWords(s.lastFiredAt, s.timeZone, nowMs)}`);
    return { chatId: s.chatId, name: scheduleName(s), next, last };
  });
  const zone = config.schedule.timeZone;
  const off = input.webhooksOff;
  const webhooks = config.webhooks.map((hook): TriggerStatus => {
    const failing = input.webhooksHeld?.get(hook.id);
    const until = failing === undefined ? "" : ` (⏸ held until this is fixed, then /resume: ${failing})`;
    return {
      chatId: hook.chatId,
      name: `webhook ${hook.id}`,
      next:
        off === undefined
          ? `on each delivery to ${webhookUrl(input.webhooksAt ?? config.webhookServer.listen, hook.path)}${held}${until}`
          : `⚠️ off, nothing is listening. ${off}`,
      last: lastWords(results.get(webhookResultId(hook.id)), zone, nowMs),
    };
  });
  return [...schedules, ...webhooks];
}

/** One status as a line of plain text. */
export function triggerLine(status: TriggerStatus): string {
  return [status.name, status.next, ...(status.last === null ? [] : [status.last])].join(" · ");
}
