// What /restart tells the chat about the runs working now: kept ones go on, the others get the
// drain time (or are interrupted at once), and nothing running says so.
import { describe, expect, it } from "vitest";
import type { SessionStatus } from "../../../src/sessions/index.js";
import { whatHappensToRuns } from "../../../src/telegram/bridge/commands/restart.js";

const lane = (running: boolean, kept = false): SessionStatus => ({
  lane: { chatId: 1, project: "app" },
  sessionId: undefined,
  pid: 1,
  runningRunId: running ? "r" : undefined,
  queued: 0,
  mode: "default",
  kept,
});

describe("whatHappensToRuns", () => {
  it("says what happens to running tasks", () => {
    expect(whatHappensToRuns([], 60)).toBe("Nothing is running; back in a moment.");
    expect(whatHappensToRuns([lane(false)], 60)).toBe("Nothing is running; back in a moment.");
    expect(whatHappensToRuns([lane(true), lane(true)], 60)).toBe(
      "The running tasks get 60 s to finish; what still runs then is interrupted and can be continued afterwards.",
    );
    expect(whatHappensToRuns([lane(true)], 0)).toBe(
      "The running task is interrupted now and can be continued afterwards.",
    );
    expect(whatHappensToRuns([lane(true, true), lane(true)], 0)).toBe(
      "The kept task goes on meanwhile; its progress carries on afterwards. The other running task is interrupted now and can be continued afterwards.",
    );
    expect(whatHappensToRuns([lane(true, true)], 0)).toBe(
      "The running task goes on meanwhile; its progress carries on afterwards.",
    );
    expect(whatHappensToRuns([lane(true, true), lane(true)], 30)).toBe(
      "The kept task goes on meanwhile; its progress carries on afterwards. The other running task gets 30 s to finish; what still runs then is interrupted and can be continued afterwards.",
    );
  });
});
