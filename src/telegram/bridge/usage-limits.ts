// The login's usage limits as Claude Code last reported them (a subscription login; with an API
// key it reports none), from any session's events, for /usage. Kept in the store too, so a
// restart does not forget a limit reached until tomorrow; a store that fails is logged and the
// limits go on in memory.
import type { TelecodeEvent, UsageLimitReported } from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import type { Store } from "../../store/index.js";

export type UsageLimitsOptions = {
  store: Pick<Store["usage"], "limits" | "saveLimit">;
  logger: Logger;
  now: () => number;
};

export class UsageLimits {
  readonly #latest = new Map<string, UsageLimitReported>();
  readonly #options: UsageLimitsOptions;

  constructor(options: UsageLimitsOptions) {
    this.#options = options;
    try {
      for (const limit of options.store.limits()) this.#latest.set(limit.limit, limit);
    } catch (error) {
      options.logger.event("telegram.usage_limits_load_failed", { err: error }, "warn");
    }
  }

  observe(event: TelecodeEvent): void {
    if (event.type !== "usage_limit" || sameReport(this.#latest.get(event.limit), event)) return;
    this.#latest.set(event.limit, event);
    try {
      this.#options.store.saveLimit(event, this.#options.now());
    } catch (error) {
      this.#options.logger.event("telegram.usage_limits_save_failed", { err: error, limit: event.limit }, "warn");
    }
  }

  /** The limits last reported whose window has not reset by `nowMs`, in the order first seen. */
  current(nowMs: number): UsageLimitReported[] {
    return [...this.#latest.values()].filter((limit) => limit.resetsAtMs === undefined || limit.resetsAtMs > nowMs);
  }
}

/** Whether a report says nothing new (each model call repeats the last one). */
function sameReport(a: UsageLimitReported | undefined, b: UsageLimitReported): boolean {
  return (
    a !== undefined &&
    a.state === b.state &&
    a.usedPercent === b.usedPercent &&
    a.resetsAtMs === b.resetsAtMs &&
    a.extraUsage === b.extraUsage
  );
}
