// A recurring schedule whose run failed as its next runs would waits rather than fail at every
// slot: paused until the host is fixed (no login, no CLI, a start Claude Code refuses, no project
// folder), or its slots skipped until a usage limit resets. The chat is told once.
import { failsUntilFixed, type RunFailure } from "../../domain/index.js";
import type { Schedule, Scheduler, TextOptions } from "../../schedule/index.js";
import { heldUntilFixedHtml, waitsForLimitHtml } from "./schedule-words.js";

export type HoldDeps = {
  scheduler: Pick<Scheduler, "pause" | "deferUntil">;
  notify(chatId: number, html: string): void;
  textOptions(): TextOptions;
};

/** Holds `s` after its run failed with `failure` when its next runs would fail the same way; true when held. */
export function holdAfterFailure(deps: HoldDeps, s: Schedule, failure: RunFailure | undefined): boolean {
  if (failure === undefined || !s.recurring) return false;
  if (failsUntilFixed(failure)) {
    if (deps.scheduler.pause(s.id) !== null) deps.notify(s.chatId, heldUntilFixedHtml(s));
    return true;
  }
  if (failure.reason !== "rate_limited" || failure.resetsAtMs === undefined) return false;
  const deferred = deps.scheduler.deferUntil(s.id, failure.resetsAtMs);
  if (deferred !== null) deps.notify(s.chatId, waitsForLimitHtml(deferred, deps.textOptions()));
  return true;
}
