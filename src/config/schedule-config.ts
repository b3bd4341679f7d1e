// The validated scheduling config: [loops], [schedule] and the [[schedules]] entries with
// their defaults applied (zone, project, chat), plus the checks across tables (an unknown
// project, a missing chat, a duplicate id), reported with the key path like every other problem.
import type { ConfigScheduleEntry, SchedulerSettings } from "../schedule/index.js";
import { canonicalTimeZone } from "../schedule/index.js";
import type { ProjectConfig, SchedulingConfig } from "./config-types.js";
import type { ScheduleEntryFile } from "./schedule-schema.js";
import type { FileConfig } from "./schema.js";

type Context = Readonly<{
  projects: readonly ProjectConfig[];
  defaultProject: ProjectConfig | null;
  allowedUserIds: readonly number[];
}>;

function systemTimeZone(): string {
  return canonicalTimeZone(Intl.DateTimeFormat().resolvedOptions().timeZone) ?? "UTC";
}

/**
 * The zone a config with no `[schedule] timezone` means, looked up when first read: the first
 * time-zone lookup loads ICU's zone data (~9 ms), which a one-off `telecode run` never needs.
 */
function lazyZone(find: () => string): () => string {
  let zone: string | undefined;
  return () => (zone ??= find());
}

function buildEntry(
  entry: ScheduleEntryFile,
  index: number,
  defaults: Readonly<{ timeZone: () => string; project: string | null; chatId: number | null }>,
  context: Context,
  problems: string[],
): ConfigScheduleEntry {
  const at = (key: string): string => `schedules[${index}].${key}`;
  const project = entry.project ?? defaults.project;
  if (project === null) problems.push(`${at("project")} must be set: there is no [projects.NAME] table to default to`);
  else if (!context.projects.some((p) => p.name === project))
    problems.push(
      `${at("project")} must name a configured project (${context.projects.map((p) => p.name).join(", ") || "none configured"}), not "${project}"`,
    );
  const chatId = entry.chat_id ?? defaults.chatId;
  if (chatId === null)
    problems.push(`${at("chat_id")} must be set: there are no telegram.allowed_user_ids to default to`);
  return Object.freeze({
    id: entry.id,
    cron: entry.cron,
    timeZone:
      entry.timezone === undefined ? defaults.timeZone() : (canonicalTimeZone(entry.timezone) ?? entry.timezone),
    prompt: entry.prompt,
    project: project ?? "",
    chatId: chatId ?? 0,
    topic: entry.topic ?? null,
    session: entry.session,
    runOnce: entry.run_once,
    overrides: Object.freeze({
      permissionMode: entry.permission_mode ?? null,
      model: entry.model === undefined || entry.model === "" ? null : entry.model,
      effort: entry.effort ?? null,
    }),
    maxRunCostUsd: entry.max_run_cost_usd ?? null,
    maxDayCostUsd: entry.max_day_cost_usd ?? null,
  });
}

/** Builds the scheduling part of the config; problems found across tables go into `problems`. */
export function buildScheduling(file: FileConfig, context: Context, problems: string[]): SchedulingConfig {
  const l = file.loops;
  const s = file.schedule;
  const timeZone = lazyZone(() =>
    s.timezone === "" ? systemTimeZone() : (canonicalTimeZone(s.timezone) ?? s.timezone),
  );
  const defaults = {
    timeZone,
    project: context.defaultProject?.name ?? null,
    chatId: context.allowedUserIds[0] ?? null,
  };
  const firstIndex = new Map<string, number>();
  file.schedules.forEach((entry, index) => {
    const first = firstIndex.get(entry.id);
    if (first === undefined) firstIndex.set(entry.id, index);
    else
      problems.push(`schedules[${index}].id "${entry.id}" is already used by schedules[${first}]; ids must be unique`);
  });
  return Object.freeze({
    loops: Object.freeze({
      enabled: l.enabled,
      attended: l.attended,
      caps: Object.freeze({
        minIntervalMs: l.min_interval_seconds * 1000,
        maxIterations: l.max_iterations,
        maxLifetimeMs: l.max_lifetime_days * 86_400_000,
        maxCostUsd: l.max_cost_usd,
        maxPerChat: l.max_per_chat,
      }),
    }),
    schedule: Object.freeze({
      get timeZone() {
        return timeZone();
      },
      paused: s.paused,
      graceMinutes: s.grace_minutes,
    }),
    schedules: Object.freeze(file.schedules.map((entry, i) => buildEntry(entry, i, defaults, context, problems))),
  });
}

/** The scheduler's settings from a loaded config (at start and after every reload). */
export function schedulerSettingsOf(config: SchedulingConfig): SchedulerSettings {
  return Object.freeze({
    loopsEnabled: config.loops.enabled,
    attended: config.loops.attended,
    caps: config.loops.caps,
    graceMs: config.schedule.graceMinutes * 60_000,
    paused: config.schedule.paused,
    defaultTimeZone: config.schedule.timeZone,
  });
}
