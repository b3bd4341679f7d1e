// A token bucket per limit: `perMinute` requests at once, refilled evenly over a minute. Time
// is passed in on each call, so tests move it by hand; no timers.

export type RateDecision = Readonly<{ ok: true }> | Readonly<{ ok: false; retryAfterSeconds: number }>;

export type RateLimiter = {
  /** Takes one request's token at `nowMs`, or says how many whole seconds until one is free. */
  take(nowMs: number): RateDecision;
};

const MS_PER_MINUTE = 60_000;

/** `perMinute` must be at least 1 (the config checks it). */
export function createRateLimiter(perMinute: number): RateLimiter {
  const tokensPerMs = perMinute / MS_PER_MINUTE;
  let tokens = perMinute;
  let lastMs: number | null = null;
  return {
    take(nowMs) {
      // A clock that steps back refills nothing rather than draining the bucket.
      const elapsedMs = lastMs === null ? 0 : Math.max(0, nowMs - lastMs);
      lastMs = lastMs === null ? nowMs : Math.max(lastMs, nowMs);
      tokens = Math.min(perMinute, tokens + elapsedMs * tokensPerMs);
      if (tokens >= 1) {
        tokens -= 1;
        return { ok: true };
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - tokens) / tokensPerMs / 1000)) };
    },
  };
}
