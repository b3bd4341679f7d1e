// The session's watchdogs on a fake clock: the stall note names what is still running (tools
// and live background tasks), the threshold grows while either runs, and the idle timer re-arms
// (and is asked at once when the computer wakes from a sleep).
import { describe, expect, it } from "vitest";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { SessionWatchdogs, type Outlived } from "../../src/claude/session-watchdogs.js";
import { watchForWakes } from "../../src/ports/index.js";
import { createFakeClock } from "../support/fake-clock.js";

const MIN = 60_000;

function setup() {
  const clock = createFakeClock(1_000_000);
  const notes: TelecodeEvent[] = [];
  const silences: number[] = [];
  const dogs = new SessionWatchdogs({
    clock,
    stallNoteMs: 10 * MIN,
    hardSilenceMs: 120 * MIN,
    isAwaitingAnswer: () => false,
    onStallNote: (n) => notes.push(n),
    onHardSilence: (ms) => silences.push(ms),
  });
  return { clock, dogs, notes, silences };
}

/** Watchdogs told of the manual clock's sleeps, and of changes of `addresses` (the network). */
function wakingDogs(options: { hasProcess?: () => boolean; addresses?: () => string } = {}) {
  const clock = createFakeClock(1_000_000);
  const wakes = watchForWakes(clock, { lookEveryMs: 1000, addresses: options.addresses ?? (() => "192.168.1.20") });
  const dogs = new SessionWatchdogs({
    clock,
    wakes,
    hasProcess: options.hasProcess ?? (() => true),
    stallNoteMs: 10 * MIN,
    hardSilenceMs: 120 * MIN,
    isAwaitingAnswer: () => false,
    onStallNote: () => undefined,
    onHardSilence: () => undefined,
  });
  const done = (): void => {
    dogs.dispose();
    wakes.stop();
  };
  return { clock, dogs, done };
}

const bash: TelecodeEvent = {
  type: "tool_started",
  toolUseId: "t1",
  name: "Bash",
  kind: "command",
  title: "npm test",
  input: { command: "npm test" },
  parentToolUseId: null,
};

describe("SessionWatchdogs", () => {
  it("notes a stall after 10 min of silence when nothing runs", () => {
    const { clock, dogs, notes } = setup();
    dogs.observe({ type: "turn_started", turn: 1, origin: "person" } as TelecodeEvent);
    clock.advance(10 * MIN);
    expect(notes).toEqual([
      { type: "note", kind: "stall", key: "stall", text: "no output for 10 min. You can cancel the run." },
    ]);
  });

  it("waits longer while a Bash call runs and names it in the note", () => {
    const { clock, dogs, notes } = setup();
    dogs.start();
    dogs.observe(bash);
    clock.advance(29 * MIN);
    expect(notes).toEqual([]);
    clock.advance(1 * MIN);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ text: expect.stringContaining("still running: Bash `npm test`") });
  });

  it("names a tool that acts on nothing to name once ('ListAgents', not 'ListAgents ListAgents')", () => {
    const { clock, dogs, notes } = setup();
    dogs.start();
    dogs.observe({ ...bash, name: "ListAgents", kind: "tool", title: "ListAgents", input: {} });
    clock.advance(30 * MIN);
    expect(notes[0]).toMatchObject({ text: expect.stringContaining("still running: ListAgents.") });
  });

  it("counts a live background task as running until it finishes, and forgets tools when the turn ends", () => {
    const { clock, dogs, notes } = setup();
    dogs.start();
    dogs.observe(bash);
    dogs.observe({ type: "task_changed", taskId: "task-1", phase: "started", description: "review the diff" });
    dogs.observe({ type: "turn_finished" } as TelecodeEvent);
    clock.advance(30 * MIN);
    expect(notes).toHaveLength(1);
    const text = notes[0]?.type === "note" ? notes[0].text : "";
    expect(text).toContain("background task review the diff");
    expect(text).not.toContain("Bash");
    dogs.observe({ type: "task_changed", taskId: "task-1", phase: "finished" });
    dogs.activity();
    // The watch checks lazily (at most one threshold late), so give it a full long threshold.
    clock.advance(30 * MIN);
    expect(notes).toHaveLength(2);
    expect(notes[1]).toMatchObject({ text: expect.not.stringContaining("still running") });
  });

  it("ends at the hard ceiling, and a re-armed idle timer fires once, after the last arming", () => {
    const { clock, dogs, silences } = setup();
    dogs.start();
    clock.advance(120 * MIN);
    expect(silences).toEqual([120 * MIN]);
    let idle = 0;
    dogs.scheduleIdle(30 * MIN, () => void (idle += 1));
    clock.advance(20 * MIN);
    dogs.scheduleIdle(30 * MIN, () => void (idle += 1));
    clock.advance(20 * MIN);
    expect(idle).toBe(0);
    clock.advance(10 * MIN);
    expect(idle).toBe(1);
    dogs.scheduleIdle(30 * MIN, () => void (idle += 1));
    dogs.cancelIdle();
    clock.advance(60 * MIN);
    expect(idle).toBe(1);
  });

  it("does not wait to idle out a process that lived through a sleep, whether it slept idle or running", () => {
    const { clock, dogs, done } = wakingDogs();
    const asked: (number | undefined)[] = [];
    const onIdle = (outlived?: Outlived): void => void asked.push(outlived?.sleptMs);
    // Waiting for the next message when the lid closes: asked as the computer wakes, and only then.
    dogs.scheduleIdle(30 * MIN, onIdle);
    clock.advance(5 * MIN);
    clock.sleep(8 * 60 * MIN);
    clock.advance(1000);
    expect(asked).toEqual([8 * 60 * MIN]);
    clock.advance(60 * MIN);
    expect(asked).toHaveLength(1);
    // A new process, running when the lid closes: asked as soon as its run is over.
    dogs.processGone();
    dogs.cancelIdle();
    clock.sleep(60 * MIN);
    clock.advance(1000);
    expect(asked).toHaveLength(1);
    dogs.scheduleIdle(30 * MIN, onIdle);
    clock.advance(0);
    expect(asked).toEqual([8 * 60 * MIN, 60 * MIN]);
    // The process after it did not sleep: it waits the whole idle time.
    dogs.processGone();
    dogs.scheduleIdle(30 * MIN, onIdle);
    clock.advance(29 * MIN);
    expect(asked).toHaveLength(2);
    clock.advance(1 * MIN);
    expect(asked).toEqual([8 * 60 * MIN, 60 * MIN, undefined]);
    done();
  });

  it("does not count a sleep that no process lived through: the one started after it waits the whole idle time", () => {
    let hasProcess = false;
    const { clock, dogs, done } = wakingDogs({ hasProcess: () => hasProcess });
    const asked: (number | undefined)[] = [];
    clock.sleep(8 * 60 * MIN);
    clock.advance(1000);
    hasProcess = true;
    dogs.scheduleIdle(30 * MIN, (outlived) => void asked.push(outlived?.sleptMs));
    clock.advance(29 * MIN);
    expect(asked).toEqual([]);
    clock.advance(1 * MIN);
    expect(asked).toEqual([undefined]);
    done();
  });

  it("does not wait to idle out a process whose network changed under it", () => {
    let addresses = "192.168.1.20";
    const { clock, dogs, done } = wakingDogs({ addresses: () => addresses });
    const asked: (Outlived | undefined)[] = [];
    dogs.scheduleIdle(30 * MIN, (outlived) => void asked.push(outlived));
    clock.advance(3 * MIN);
    addresses = "172.20.10.3";
    clock.advance(1000);
    expect(asked).toEqual([{ sleptMs: 0, networkChanged: true }]);
    done();
  });
});
