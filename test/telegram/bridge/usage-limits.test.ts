// The usage limits /usage shows: the latest report of each limit, until its window resets, kept
// in the store across a restart (real SQLite in a temp dir).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { UsageLimitReported } from "../../../src/domain/index.js";
import { createLogger } from "../../../src/log/index.js";
import { openStore, type Store } from "../../../src/store/index.js";
import { UsageLimits } from "../../../src/telegram/bridge/usage-limits.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("usage-limits");

const limit = (fields: Partial<UsageLimitReported>): UsageLimitReported => ({
  type: "usage_limit",
  limit: "5h",
  state: "ok",
  extraUsage: false,
  ...fields,
});

function opened(dir: string, store: Store = openStore(dir)) {
  const logger = createLogger({ dataDir: dir, stderr: null });
  return { store, logger, limits: new UsageLimits({ store: store.usage, logger, now: () => 1_000 }) };
}

describe("usage limits", () => {
  it("keeps each limit's latest report and drops one whose window has reset", () => {
    const { store, limits, logger } = opened(tempDir());
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
    store.close();
    logger.close();
  });

  it("shows after a restart what was last reported before it", () => {
    const dir = tempDir();
    const before = opened(dir);
    before.limits.observe(limit({ state: "reached", usedPercent: 100, resetsAtMs: 5000, extraUsage: true }));
    before.limits.observe(limit({ limit: "7-day", state: "warning", usedPercent: 80.5 }));
    before.store.close();
    before.logger.close();
    const after = opened(dir);
    expect(after.limits.current(1000)).toEqual([
      limit({ state: "reached", usedPercent: 100, resetsAtMs: 5000, extraUsage: true }),
      limit({ limit: "7-day", state: "warning", usedPercent: 80.5 }),
    ]);
    after.store.close();
    after.logger.close();
  });

  it("goes on in memory when the store cannot keep the limits, and says so in the log", () => {
    const dir = tempDir();
    const store = openStore(dir);
    const { limits, logger } = opened(dir, store);
    store.close();
    limits.observe(limit({ state: "warning", usedPercent: 91, resetsAtMs: 5000 }));
    expect(limits.current(1000)).toEqual([limit({ state: "warning", usedPercent: 91, resetsAtMs: 5000 })]);
    expect(readFileSync(join(dir, "logs", "telecode.log"), "utf8")).toContain("telegram.usage_limits_save_failed");
    logger.close();
  });
});
