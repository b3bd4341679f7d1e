// What a run's records say started it: a schedule (with whether Stop cancels it) or a webhook,
// read back for a restart that takes the run in; a run a person typed, or a record this version
// cannot read, has none (it is then taken in as a person's run, with no title).
import { describe, expect, it } from "vitest";
import type { RunInput } from "../../../src/sessions/index.js";
import { recordedTrigger } from "../../../src/telegram/index.js";

const input = (trigger?: Record<string, unknown>): RunInput => ({
  prompt: "go",
  mode: "default",
  choice: { kind: "new" },
  ...(trigger === undefined ? {} : { unattended: true, trigger }),
});

describe("recordedTrigger", () => {
  it("reads a schedule's and a webhook's run back", () => {
    const schedule = { kind: "schedule", id: "s1", cancellable: true };
    expect(
      recordedTrigger(input({ source: schedule, title: "⏰ loop s1", detail: { scheduleId: "s1", iteration: 2 } })),
    ).toEqual({ source: schedule, title: "⏰ loop s1", detail: { scheduleId: "s1", iteration: 2 } });
    expect(recordedTrigger(input({ source: { kind: "webhook", id: "w" }, title: "🪝", detail: {} }))).toEqual({
      source: { kind: "webhook", id: "w" },
      title: "🪝",
      detail: {},
    });
  });

  it("has none for a person's run or a record it cannot read", () => {
    expect(recordedTrigger(null)).toBeUndefined();
    expect(recordedTrigger(input())).toBeUndefined();
    expect(recordedTrigger(input({ source: { kind: "cron", id: "x" }, title: "t", detail: {} }))).toBeUndefined();
    expect(recordedTrigger(input({ source: { kind: "webhook", id: "w" }, title: 3, detail: {} }))).toBeUndefined();
    expect(recordedTrigger(input({ source: { kind: "webhook", id: "w" }, title: "t" }))).toBeUndefined();
  });
});
