// What a turn costs, with the real CLI: its running total carries over into every new process
// of a session (an idle close, a restart's --resume, a compaction after them), so each turn must
// cost its own share, and a cancelled turn that was never billed nothing.
import { afterEach, describe, expect, it, vi } from "vitest";
import type { TelecodeEvent, UsageReported } from "../../src/domain/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { makeHarness, type Collector, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/** The CLI's running total (usage.costUsd) at the last usage event after `from`. */
function runningTotal(events: Collector, from: number): number {
  const usage = events.events.slice(from).filter((e: TelecodeEvent): e is UsageReported => e.type === "usage");
  const last = usage.at(-1);
  if (last === undefined) throw new Error("no usage event");
  return last.costUsd;
}

describe("turn costs with the real CLI", () => {
  it("after an idle close, a restart's resume and a compaction, each turn costs its own share", async () => {
    h = await makeHarness({
      replies: [
        reply.text("One.", { inputTokens: 1000 }),
        reply.text("Two.", { inputTokens: 2000 }),
        reply.text("Three.", { inputTokens: 3000 }),
        reply.text("Summary of the conversation so far.", { inputTokens: 4000 }),
      ],
    });
    const { session, events } = h.open({ idleMs: 200 });
    const first = await h.run(session, events, "First");
    const total1 = runningTotal(events, 0);
    expect(first.costUsd).toBe(total1);

    await vi.waitFor(() => expect(session.pid).toBeUndefined(), { timeout: 10_000, interval: 50 });
    let from = events.events.length;
    const afterIdle = await h.run(session, events, "Second");
    const total2 = runningTotal(events, from);
    // The CLI carried the first process's total into the second.
    expect(total2).toBeGreaterThan(total1);
    expect(afterIdle.costUsd).toBeCloseTo(total2 - total1, 6);

    // A restart: a new handle resumes the session in a new process.
    const restarted = h.open({ resume: first.sessionId! });
    const afterRestart = await h.run(restarted.session, restarted.events, "Third");
    const total3 = runningTotal(restarted.events, 0);
    expect(total3).toBeGreaterThan(total2);
    // Its own tokens' price (1,000 input tokens more than the second turn, as the second had
    // over the first), whatever total the CLI restored: while the old process has not exited
    // yet, the total it restores from the transcript can miss that process's last turn.
    expect(afterRestart.costUsd).toBeCloseTo(2 * afterIdle.costUsd - first.costUsd, 6);
    expect(afterRestart.costUsd).toBeLessThan(total3);

    from = restarted.events.events.length;
    const compacted = await h.run(restarted.session, restarted.events, "/compact");
    expect(restarted.events.events.slice(from).some((e) => e.type === "note" && e.kind === "compaction")).toBe(true);
    const total4 = runningTotal(restarted.events, from);
    expect(compacted.costUsd).toBeGreaterThan(0);
    expect(compacted.costUsd).toBeCloseTo(total4 - total3, 6);
  });

  it("a run cancelled before the API answered costs nothing, in a resumed process too", async () => {
    h = await makeHarness({ replies: [reply.text("Paid for."), reply.hang()] });
    const first = h.open();
    const paid = await h.run(first.session, first.events, "First");
    expect(paid.costUsd).toBeGreaterThan(0);
    await first.session.close();

    const { session, events } = h.open({ resume: paid.sessionId! });
    const runId = await session.startRun("Never answered");
    await h.api.waitForRequests(2);
    await session.cancelRun(runId);
    const cancelled = await events.waitFor(
      (e): e is Extract<TelecodeEvent, { type: "run_completed" }> => e.type === "run_completed",
    );
    expect(cancelled).toMatchObject({ cancelled: true, costUsd: 0 });
  });
});
