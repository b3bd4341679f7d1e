// Making schedules: a loop (CronCreate) or a chat /at or /every, and arming a wake-up chain
// (ScheduleWakeup), each checked against the caps first; a refusal says why and what to do.
import { capsForKind, EMPTY_PROMPT_REFUSAL, refusal, timingRefusal, tooManyRefusal, type Refusal } from "./caps.js";
import { canonicalTimeZone } from "./cron.js";
import { loopsOffReason } from "./hook-text.js";
import type { ScheduleRepository } from "./schedule-store.js";
import {
  NO_OVERRIDES,
  type CapReason,
  type Schedule,
  type ScheduleCreator,
  type ScheduleOverrides,
  type ScheduleSession,
  type ScheduleTiming,
} from "./schedule-types.js";
import type { SchedulerSettings } from "./scheduler-types.js";
import { MINUTE_MS, nextSlot } from "./timing.js";

export type NewSchedule = Readonly<{
  kind: "loop" | "chat";
  chatId: number;
  project: string;
  session: ScheduleSession;
  timing: ScheduleTiming;
  /** Default: `[schedule] timezone` (the scheduler's default zone). */
  timeZone?: string;
  prompt: string;
  /** Read for cron timings only: `every` always recurs, `once` never does. */
  recurring: boolean;
  createdBy: ScheduleCreator;
  note?: string | null;
  overrides?: ScheduleOverrides;
  /** Default: `[loops] attended`. */
  attended?: boolean;
}>;

export type WakeupRequest = Readonly<{
  chatId: number;
  project: string;
  sessionId: string;
  /** What ScheduleWakeup asked for; clamped like the CLI does (60–3600 s, then up to a whole minute). */
  delaySeconds: number;
  prompt: string;
  /** ScheduleWakeup's `reason`, shown with the loop. */
  note?: string | null;
  createdBy: ScheduleCreator;
  /** The wake-up schedule whose fired turn asks again: the chain it continues. */
  chainId?: string | null;
  overrides?: ScheduleOverrides;
  attended?: boolean;
}>;

export type CreateResult = Readonly<{ ok: true; schedule: Schedule }> | Readonly<{ ok: false; refusal: Refusal }>;

/** A wake-up refused because its chain just reached a cap carries the chain, so the chat can be told. */
export type WakeupResult =
  CreateResult | Readonly<{ ok: false; refusal: Refusal; capped: Readonly<{ schedule: Schedule; reason: CapReason }> }>;

const LIVE = ["active", "paused"] as const;
const COUNTED = ["loop", "wakeup", "chat"] as const;
const MAX_WAKEUP_MS = 3_600_000;

/** When a wake-up asked for `delaySeconds` from `nowMs` fires: clamped, then rounded up to a whole minute. */
export function wakeupFireAt(nowMs: number, delaySeconds: number, minIntervalMs: number): number {
  const shortest = Math.max(MINUTE_MS, minIntervalMs);
  const asked = Number.isFinite(delaySeconds) ? delaySeconds * 1000 : shortest;
  const delayMs = Math.min(Math.max(asked, shortest), Math.max(MAX_WAKEUP_MS, shortest));
  return Math.ceil((nowMs + delayMs) / MINUTE_MS) * MINUTE_MS;
}

function liveCount(repo: ScheduleRepository, chatId: number): number {
  return repo.count({ chatId, kinds: COUNTED, states: LIVE });
}

/** Checks and stores a loop or chat schedule; nothing is stored when it is refused. */
export function createSchedule(
  repo: ScheduleRepository,
  settings: SchedulerSettings,
  input: NewSchedule,
  nowMs: number,
): CreateResult {
  if (input.kind === "loop" && !settings.loopsEnabled)
    return { ok: false, refusal: refusal("loops_off", loopsOffReason("everywhere")) };
  if (input.prompt.trim() === "") return { ok: false, refusal: EMPTY_PROMPT_REFUSAL };
  const zoneAsked = input.timeZone ?? settings.defaultTimeZone;
  const recurring = input.timing.kind === "cron" ? input.recurring : input.timing.kind === "every";
  const minIntervalMs = recurring ? settings.caps.minIntervalMs : 0;
  const problem = timingRefusal(input.timing, zoneAsked, minIntervalMs, nowMs);
  if (problem !== null) return { ok: false, refusal: problem };
  const timeZone = canonicalTimeZone(zoneAsked) ?? zoneAsked;
  return repo.transaction((): CreateResult => {
    const count = liveCount(repo, input.chatId);
    if (count >= settings.caps.maxPerChat) return { ok: false, refusal: tooManyRefusal(count) };
    const schedule = repo.insert({
      kind: input.kind,
      chatId: input.chatId,
      project: input.project,
      session: input.session,
      timing: input.timing,
      timeZone,
      prompt: input.prompt,
      note: input.note ?? null,
      recurring,
      createdBy: input.createdBy,
      nextFireAt: nextSlot(input.timing, timeZone, nowMs),
      state: "active",
      stateReason: null,
      caps: capsForKind(input.kind, settings.caps, nowMs),
      overrides: input.overrides ?? NO_OVERRIDES,
      attended: input.attended ?? settings.attended,
    });
    return { ok: true, schedule };
  });
}

/** The chain a wake-up continues: the one named, else the session's live chain, else none. */
function findChain(repo: ScheduleRepository, input: WakeupRequest): Schedule | null {
  const named = input.chainId == null ? null : repo.get(input.chainId);
  if (named !== null && named.kind === "wakeup") return named;
  const live = repo.list({ chatId: input.chatId, kinds: ["wakeup"], states: LIVE });
  return live.find((s) => s.session.mode === "id" && s.session.sessionId === input.sessionId) ?? null;
}

function chainStopped(chain: Schedule, why: string): Refusal {
  return refusal(
    "chain_stopped",
    `Loop ${chain.id} was stopped (${why}), so no further wake-up was scheduled. Finish this turn; the person can start a new loop.`,
  );
}

/** The cap a chain has reached by now, if any: a wake-up chain counts iterations across its links. */
function chainCap(chain: Schedule, nowMs: number): CapReason | null {
  if (chain.caps.maxIterations !== null && chain.iterations >= chain.caps.maxIterations) return "iterations";
  if (chain.caps.expiresAt !== null && nowMs >= chain.caps.expiresAt) return "lifetime";
  return null;
}

/**
 * Arms a wake-up: continues the chain it belongs to (same id, iterations and caps) or starts
 * one. The schedule fires once at the returned `nextFireAt`; the fired turn re-arms it.
 */
export function armWakeup(
  repo: ScheduleRepository,
  settings: SchedulerSettings,
  input: WakeupRequest,
  nowMs: number,
): WakeupResult {
  if (!settings.loopsEnabled) return { ok: false, refusal: refusal("loops_off", loopsOffReason("everywhere")) };
  if (input.prompt.trim() === "") return { ok: false, refusal: EMPTY_PROMPT_REFUSAL };
  const atMs = wakeupFireAt(nowMs, input.delaySeconds, settings.caps.minIntervalMs);
  const timing: ScheduleTiming = { kind: "once", atMs };
  return repo.transaction((): WakeupResult => {
    const chain = findChain(repo, input);
    if (chain !== null && (chain.state === "cancelled" || chain.state === "capped"))
      return { ok: false, refusal: chainStopped(chain, chain.stateReason ?? chain.state) };
    const cap = chain === null ? null : chainCap(chain, nowMs);
    if (chain !== null && cap !== null) {
      const capped = repo.update(chain.id, { state: "capped", stateReason: cap, nextFireAt: null }) ?? chain;
      return {
        ok: false,
        refusal: chainStopped(chain, `it reached its ${cap} limit`),
        capped: { schedule: capped, reason: cap },
      };
    }
    // A chain that fired is done and no longer counted: arming it again adds a live loop.
    const isLive = chain !== null && (chain.state === "active" || chain.state === "paused");
    const count = liveCount(repo, input.chatId);
    if (!isLive && count >= settings.caps.maxPerChat) return { ok: false, refusal: tooManyRefusal(count) };
    if (chain !== null) {
      const armed = repo.update(chain.id, {
        timing,
        prompt: input.prompt,
        note: input.note ?? chain.note,
        nextFireAt: atMs,
        state: chain.state === "paused" ? "paused" : "active",
        stateReason: null,
      });
      if (armed !== null) return { ok: true, schedule: armed };
    }
    const schedule = repo.insert({
      kind: "wakeup",
      chatId: input.chatId,
      project: input.project,
      session: { mode: "id", sessionId: input.sessionId },
      timing,
      timeZone: settings.defaultTimeZone,
      prompt: input.prompt,
      note: input.note ?? null,
      recurring: false,
      createdBy: input.createdBy,
      nextFireAt: atMs,
      state: "active",
      stateReason: null,
      caps: capsForKind("wakeup", settings.caps, nowMs),
      overrides: input.overrides ?? NO_OVERRIDES,
      attended: input.attended ?? settings.attended,
    });
    return { ok: true, schedule };
  });
}
