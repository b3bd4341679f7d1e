// Replaces the config's [[schedules]] set in the store (at start and on every hot reload)
// without firing anything twice or skipping a due slot: unchanged entries keep their next slot,
// changed timings restart from the last slot handled, removed entries are cancelled.
import { isDeepStrictEqual } from "node:util";
import type { ScheduleRepository } from "./schedule-store.js";
import { NO_CAPS, type Schedule, type ScheduleOverrides, type ScheduleState } from "./schedule-types.js";
import { minuteStart, nextSlot } from "./timing.js";

/** One `[[schedules]]` entry, validated and with its defaults applied (config builds these). */
export type ConfigScheduleEntry = Readonly<{
  id: string;
  cron: string;
  /** IANA, canonical. */
  timeZone: string;
  prompt: string;
  project: string;
  chatId: number;
  /** A forum topic of `chatId` (its thread id), or null; the app makes `chatId` the topic's own before syncing. */
  topic: number | null;
  session: "new" | "continue";
  runOnce: boolean;
  overrides: ScheduleOverrides;
  /** USD; null: no cap of its own. */
  maxRunCostUsd: number | null;
  maxDayCostUsd: number | null;
}>;

export type ConfigSyncReport = Readonly<{ added: string[]; changed: string[]; removed: string[] }>;

/** The store id of a config entry (its own ids cannot clash with the 8-hex ids of the others). */
export function configScheduleId(configId: string): string {
  return `config:${configId}`;
}

/**
 * The instant after which a (re)defined timing looks for its next slot: after the last slot
 * already handled, and no earlier than the start of this minute, so a reload at the fire minute
 * neither repeats nor drops that minute's slot.
 */
function reloadAfter(nowMs: number, lastSlotAt: number | null): number {
  return Math.max(lastSlotAt ?? Number.NEGATIVE_INFINITY, minuteStart(nowMs) - 1);
}

function definition(entry: ConfigScheduleEntry) {
  return {
    chatId: entry.chatId,
    project: entry.project,
    session: { mode: entry.session },
    timing: { kind: "cron", cron: entry.cron },
    timeZone: entry.timeZone,
    prompt: entry.prompt,
    recurring: !entry.runOnce,
    overrides: entry.overrides,
    caps: { ...NO_CAPS, maxRunCostUsd: entry.maxRunCostUsd, maxDayCostUsd: entry.maxDayCostUsd },
    attended: false,
  } as const;
}

/** A stored entry comes back to life when it was removed and re-added, or finished but now recurs. */
function revives(s: Schedule, recurring: boolean): boolean {
  if (s.state === "cancelled") return s.stateReason === "removed_from_config";
  return s.state === "done" && recurring;
}

function syncEntry(repo: ScheduleRepository, entry: ConfigScheduleEntry, nowMs: number): "added" | "changed" | null {
  const id = configScheduleId(entry.id);
  const def = definition(entry);
  const stored = repo.get(id);
  if (stored === null) {
    repo.insert({
      ...def,
      id,
      kind: "config",
      note: null,
      createdBy: { kind: "config", configId: entry.id },
      nextFireAt: nextSlot(def.timing, def.timeZone, reloadAfter(nowMs, null)),
      state: "active",
      stateReason: null,
    });
    return "added";
  }
  const retimed = !isDeepStrictEqual(stored.timing, def.timing) || stored.timeZone !== def.timeZone;
  const revived = revives(stored, def.recurring);
  const state: ScheduleState = revived ? "active" : stored.state;
  const rearm = state === "active" && (retimed || revived || stored.nextFireAt === null);
  const nextFireAt = rearm
    ? nextSlot(def.timing, def.timeZone, reloadAfter(nowMs, stored.lastSlotAt))
    : stored.nextFireAt;
  const updated = { ...stored, ...def, state, stateReason: revived ? null : stored.stateReason, nextFireAt };
  if (isDeepStrictEqual(updated, stored)) return null;
  repo.update(id, { ...def, state, stateReason: updated.stateReason, nextFireAt });
  return "changed";
}

/** Makes the stored config schedules match `entries`, in one transaction. */
export function syncConfigSchedules(
  repo: ScheduleRepository,
  entries: readonly ConfigScheduleEntry[],
  nowMs: number,
): ConfigSyncReport {
  return repo.transaction(() => {
    const report: ConfigSyncReport = { added: [], changed: [], removed: [] };
    for (const entry of entries) {
      const outcome = syncEntry(repo, entry, nowMs);
      if (outcome !== null) report[outcome].push(entry.id);
    }
    const wanted = new Set(entries.map((e) => configScheduleId(e.id)));
    for (const s of repo.list({ kinds: ["config"], states: ["active", "paused"] })) {
      if (wanted.has(s.id)) continue;
      repo.update(s.id, { state: "cancelled", stateReason: "removed_from_config", nextFireAt: null });
      report.removed.push(s.createdBy.kind === "config" ? s.createdBy.configId : s.id);
    }
    return report;
  });
}
