// The login's usage limits as Claude Code last reported them (a subscription login; with an API
// key it reports none), from any session's events, for /usage. Kept in memory: each new CLI
// process reports them again after its first model call.
import type { TelecodeEvent, UsageLimitReported } from "../../domain/index.js";

export class UsageLimits {
  readonly #latest = new Map<string, UsageLimitReported>();

  observe(event: TelecodeEvent): void {
    if (event.type === "usage_limit") this.#latest.set(event.limit, event);
  }

  /** The limits last reported whose window has not reset by `nowMs`, in the order first seen. */
  current(nowMs: number): UsageLimitReported[] {
    return [...this.#latest.values()].filter((limit) => limit.resetsAtMs === undefined || limit.resetsAtMs > nowMs);
  }
}
