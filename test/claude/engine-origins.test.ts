// Turns the CLI starts by itself, with the real CLI: a Monitor's event starts a turn while no
// run is waiting, and a person's message written during that turn gets its own answer (the
// CLI queues it behind the fired turn; each turn keeps its own origin and answer); a resumed
// session that finds a background command its crashed process left unfinished reports it in a
// turn of its own before the person's.
import { readFile } from "node:fs/promises";
import { latestSessionId } from "../../src/claude/transcripts.js";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { RunCompleted, TelecodeEvent, TurnFinished, TurnStarted } from "../../src/domain/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { makeHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const isTurn =
  <T extends "turn_started" | "turn_finished">(type: T, origin: string) =>
  (e: TelecodeEvent): e is Extract<TelecodeEvent, { type: T }> =>
    e.type === type && e.origin === origin;

describe("turns the CLI starts by itself (real CLI)", () => {
  it("keeps a Monitor's turn and a message written during it apart: each gets its own answer", async () => {
    h = await makeHarness();
    h.api.script(
      [
        reply.tool("ToolSearch", { query: "select:Monitor" }),
        reply.tool("Monitor", {
          description: "watch the fake build",
          timeout_ms: 60_000,
          command: "sleep 1; echo EVT-ONE; sleep 60",
        }),
        reply.text("Monitor armed."),
      ],
      "SETUP-MONITOR",
    );
    // The Monitor's turn is slow, so the person's message arrives while it runs.
    h.api.script([reply.text("MONITOR-ANSWER", { delayMs: 2500 })], "EVT-ONE");
    h.api.script([reply.text("PERSON-ANSWER")], "PERSON-QUESTION");
    const { session, events } = h.open();

    const setup = await h.run(session, events, "SETUP-MONITOR watch the build");
    expect(setup.answer).toBe("Monitor armed.");
    const monitorTurn: TurnStarted = await events.waitFor(isTurn("turn_started", "monitor"));
    expect(monitorTurn.runId).toBeUndefined();
    expect(monitorTurn.promptUuid).toBeUndefined();

    const from = events.events.length;
    const runId = await session.startRun("PERSON-QUESTION what is the status?");
    const completed: RunCompleted = await events.waitFor(
      (e): e is RunCompleted => e.type === "run_completed" && e.runId === runId,
      from,
    );
    expect(completed.ok).toBe(true);
    expect(completed.answer).toBe("PERSON-ANSWER");

    const monitorDone: TurnFinished = await events.waitFor(isTurn("turn_finished", "monitor"));
    expect(monitorDone.answer).toBe("MONITOR-ANSWER");
    expect(monitorDone.runId).toBeUndefined();
    // The person's turn started after the Monitor's ended, and it names the run.
    const turns = events.events.filter((e) => e.type === "turn_started" || e.type === "turn_finished");
    const personStart = turns.findIndex((e) => e.type === "turn_started" && e.runId === runId);
    expect(personStart).toBeGreaterThan(turns.indexOf(monitorDone));
    // It names the uuid on the message Telecode wrote, which the CLI's transcript keeps.
    const { promptUuid } = turns[personStart] as TurnStarted;
    expect(promptUuid).toMatch(/^7e1ec0de-/);
    const transcript = join(h.ws.transcripts, `${completed.sessionId}.jsonl`);
    await vi.waitFor(async () => expect(await readFile(transcript, "utf8")).toContain(`"uuid":"${promptUuid}"`), {
      timeout: 10_000,
    });
    expect(turns.slice(personStart).map((e) => `${e.type}:${e.origin}`)).toEqual([
      "turn_started:person",
      "turn_finished:person",
    ]);
  }, 60_000);

  it("never answers a person's run with the turn of a cron job the CLI fires itself", async () => {
    h = await makeHarness();
    h.api.script(
      [
        reply.tool("ToolSearch", { query: "select:CronCreate" }),
        reply.tool("CronCreate", { cron: "* * * * *", prompt: "TICK-PROMPT check the build", recurring: false }),
        reply.text("Scheduled."),
      ],
      "SETUP-CRON",
    );
    h.api.script([reply.text("TICK-ANSWER", { delayMs: 2500 })], "TICK-PROMPT");
    h.api.script([reply.text("PERSON-ANSWER")], "PERSON-QUESTION");
    // Without hooks the CLI keeps the job and fires it on the next minute: a one-shot job at that
    // minute (on the hour and half hour up to 90 s sooner, never before it was made), so within
    // 60 s; a recurring one up to half its period later (the CLI's jitter), within 90 s.
    const { session, events } = h.open();
    await h.run(session, events, "SETUP-CRON every minute, check the build");
    await events.waitFor(isTurn("turn_started", "schedule"));

    const from = events.events.length;
    const runId = await session.startRun("PERSON-QUESTION is the build green?");
    const completed: RunCompleted = await events.waitFor(
      (e): e is RunCompleted => e.type === "run_completed" && e.runId === runId,
      from,
    );
    expect(completed.answer).toBe("PERSON-ANSWER");
    const fired: TurnFinished = await events.waitFor(isTurn("turn_finished", "schedule"));
    expect(fired.answer).toBe("TICK-ANSWER");
  }, 120_000);

  it("after a crash with a background command running, the resumed session answers the person's message, not its own report", async () => {
    const harness = await makeHarness({
      replies: [
        reply.tool("Bash", { command: "sleep 8.5", description: "Watch the build", run_in_background: true }),
        reply.text("The watcher is running in the background."),
        reply.text("The watcher is no longer running."),
      ],
    });
    h = harness;
    const { session, events } = harness.open();
    const first = await harness.run(session, events, "Start the watcher in the background");
    expect(first).toMatchObject({ ok: true, answer: "The watcher is running in the background." });
    const started = events.events.find((e) => e.type === "session_started");
    await expect
      .poll(() => latestSessionId(harness.ws.cwd, harness.ws.env), { timeout: 15_000, interval: 50 })
      .toBe(started?.type === "session_started" ? started.sessionId : "no session_started");
    process.kill(session.pid as number, "SIGKILL");
    await vi.waitFor(() => expect(session.pid).toBeUndefined(), { timeout: 15_000 });

    const next = await harness.run(session, events, "Is the watcher still running?");
    expect(next).toMatchObject({ ok: true, answer: "The watcher is no longer running." });
    // Before it: the command's end as the new process found it, and the empty turn that reported it.
    const after = events.events.slice(events.events.indexOf(first) + 1);
    expect(after.find((e) => e.type === "task_changed")).toMatchObject({ phase: "finished", status: "stopped" });
    expect(after.filter((e) => e.type === "turn_finished").map((e) => e.origin)).toEqual(["subagent", "person"]);
  });
});
