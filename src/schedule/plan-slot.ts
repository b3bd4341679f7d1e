// What to do with a schedule whose slot has come: fire it (and what to write before firing,
// and what to undo if the session is busy), report it missed, cap it, or skip it. Pure.
import type { CapReason, Schedule } from "./schedule-types.js";
import type { SchedulePatch } from "./schedule-store.js";
import { countSlots, latestSlot, nextSlot } from "./timing.js";
import { isoDay, localDateTime } from "./zone-clock.js";

/**
 * How long a one-shot whose session is busy waits before trying again: the first retry always
 * happens, later ones within the grace.
 */
export const BUSY_RETRY_MS = 60_000;

/**
 * How late a timer may wake for the fire it was armed for and still be on time: far more than a
 * timer's usual lateness (milliseconds; seconds on a loaded machine), far less than the shortest
 * gap between two slots (a minute).
 */
export const TIMER_SLACK_MS = 10_000;

export type SlotPlan =
  | Readonly<{
      kind: "fire";
      slotAt: number;
      iteration: number;
      /** Written before the run starts, so a crash never fires this slot again. */
      claim: SchedulePatch;
      /** The cap this fire reaches (it is the last one), announced once the run started. */
      capAfter: CapReason | null;
      /** Written when the session was busy: the iteration did not happen. */
      onBusy: SchedulePatch;
    }>
  /** `busy`: a one-shot the chat's work kept waiting past the grace (else Telecode could not fire it). */
  | Readonly<{ kind: "missed"; slotAt: number; slots: number; busy: boolean; patch: SchedulePatch }>
  | Readonly<{ kind: "capped"; reason: CapReason; patch: SchedulePatch }>
  | Readonly<{ kind: "skipped_day_cost"; slotAt: number; patch: SchedulePatch }>;

/**
 * Plans the slot of `s`, which is due (its `nextFireAt` is at or before `nowMs`). The latest
 * slot not after `nowMs` is the one that counts: slots missed before it are not made up for, and
 * one older than `graceMs` is reported missed instead of fired. The grace is for slots reached
 * late (Telecode was down or paused, the machine slept): a fire reached within TIMER_SLACK_MS of
 * its `nextFireAt` is on time and runs whatever the grace, as does a one-shot's first busy retry.
 */
export function planDueSlot(s: Schedule, nowMs: number, graceMs: number): SlotPlan {
  const { caps } = s;
  if (caps.expiresAt !== null && nowMs >= caps.expiresAt)
    return {
      kind: "capped",
      reason: "lifetime",
      patch: { state: "capped", stateReason: "lifetime", nextFireAt: null },
    };
  const slotAt = latestSlot(s.timing, s.timeZone, nowMs) ?? s.nextFireAt ?? nowMs;
  const next = s.recurring ? nextSlot(s.timing, s.timeZone, nowMs) : null;
  const moveOn: SchedulePatch =
    next === null ? { lastSlotAt: slotAt, nextFireAt: null } : { lastSlotAt: slotAt, nextFireAt: next };

  // The timer armed for this fire woke. A one-shot's later retries are held to the grace, or a
  // chat busy for hours would keep it waiting all that time.
  const isOnTime = nowMs - (s.nextFireAt ?? slotAt) <= TIMER_SLACK_MS && (s.recurring || s.busyStreak <= 1);
  if (!isOnTime && nowMs - slotAt > graceMs) {
    const from = (s.nextFireAt ?? slotAt) - 1;
    const slots = Math.max(1, countSlots(s.timing, s.timeZone, from, nowMs));
    const ended: SchedulePatch = next === null ? { state: "done", stateReason: "missed" } : {};
    const busy = !s.recurring && s.busyStreak > 0;
    return { kind: "missed", slotAt, slots, busy, patch: { ...moveOn, ...ended } };
  }

  const today = isoDay(localDateTime(nowMs, s.timeZone));
  if (caps.maxDayCostUsd !== null && s.costDay === today && s.costDayUsd >= caps.maxDayCostUsd)
    return { kind: "skipped_day_cost", slotAt, patch: moveOn };

  const iteration = s.iterations + 1;
  let capAfter: CapReason | null = null;
  if (next !== null && caps.maxIterations !== null && iteration >= caps.maxIterations) capAfter = "iterations";
  else if (next !== null && caps.expiresAt !== null && next > caps.expiresAt) capAfter = "lifetime";
  const ending: SchedulePatch =
    next === null
      ? { state: "done", stateReason: "fired", nextFireAt: null }
      : capAfter !== null
        ? { state: "capped", stateReason: capAfter, nextFireAt: null }
        : {};
  return {
    kind: "fire",
    slotAt,
    iteration,
    capAfter,
    claim: { ...moveOn, lastFiredAt: nowMs, iterations: iteration, busyStreak: 0, ...ending },
    onBusy: {
      iterations: s.iterations,
      lastFiredAt: s.lastFiredAt,
      busyStreak: s.busyStreak + 1,
      state: "active",
      stateReason: null,
      nextFireAt: next ?? nowMs + BUSY_RETRY_MS,
    },
  };
}
