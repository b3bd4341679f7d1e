// The usage limits /usage shows: the latest report of each limit, until its window resets.
import { describe, expect, it } from "vitest";
import type { UsageLimitReported } from "../../../src/domain/index.js";
import { UsageLimits } from "../../../src/telegram/bridge/usage-limits.js";

const limit = (fields: Partial<UsageLimitReported>): UsageLimitReported => ({
  type: "usage_limit",
  limit: "5h",
  state: "ok",
  extraUsage: false,
  ...fields,
});

describe("usage limits", () => {
  it("keeps each limit's latest report and drops one whose window has reset", () => {
    const limits = new UsageLimits();
    limits.observe(limit({ state: "warning", usedPercent: 91, resetsAtMs: 5000 }));
    limits.observe(limit({ limit: "7-day", resetsAtMs: 9000 }));
    limits.observe({ type: "mode_changed", mode: "plan" });
    limits.observe(limit({ state: "reached", resetsAtMs: 5000 }));
    expect(limits.current(1000)).toEqual([
      limit({ state: "reached", resetsAtMs: 5000 }),
      limit({ limit: "7-day", resetsAtMs: 9000 }),
    ]);
    expect(limits.current(5000)).toEqual([limit({ limit: "7-day", resetsAtMs: 9000 })]);
    // A report without a reset time stays until another replaces it.
    limits.observe(limit({ limit: "7-day" }));
    expect(limits.current(10_000)).toEqual([limit({ limit: "7-day" })]);
  });
});
