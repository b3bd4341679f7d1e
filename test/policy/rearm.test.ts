// The plan re-arm as a pure machine: when a turn close sends set_permission_mode plan, when it
// is deferred for background agents of the approving turn, the ceiling, the switch.
import { describe, expect, it } from "vitest";
import type { TelecodeEvent } from "../../src/domain/events.js";
import { fixtureEvents, fixtureRequest } from "./fixture-events.js";
import { effectTypes, informed, machine } from "./machine-harness.js";

const exitPlan = fixtureRequest("e-plan-exit-allow", "ExitPlanMode");
const run = { id: "run-1", unattended: false };
const turn = (n: number): TelecodeEvent => ({
  type: "turn_started",
  sessionId: "s",
  turn: n,
  origin: "person",
});
const task = (taskId: string, phase: "started" | "finished", taskType = "local_agent"): TelecodeEvent => ({
  type: "task_changed",
  taskId,
  phase,
  taskType,
});

function approvedPlanChat(settings: Parameters<typeof machine>[0] = {}) {
  const m = machine({ mode: "plan", ...settings });
  m.observe(
    { type: "session_started", sessionId: "s", model: "m", cwd: "/p", permissionMode: "plan", tools: [] },
    turn(1),
  );
  m.request(exitPlan, { run, nowMs: 0 });
  m.tap(exitPlan.requestId, "approve");
  m.observe({ type: "mode_changed", mode: "default" });
  return m;
}

describe("re-arm at turn close", () => {
  it("after an approval in a plan chat: set_permission_mode plan, once; acked → nothing more", () => {
    const m = approvedPlanChat();
    expect(m.step({ type: "turn_closing", nowMs: 10 }).effects).toEqual([{ type: "setPermissionMode", mode: "plan" }]);
    m.step({ type: "mode_set", mode: "plan" });
    expect(m.step({ type: "turn_closing", nowMs: 20 }).effects).toEqual([]);
  });

  it("plan-auto chats re-arm too", () => {
    const m = machine({ mode: "plan-auto" });
    m.observe({ type: "mode_changed", mode: "plan" });
    m.request(exitPlan, { run });
    m.observe({ type: "mode_changed", mode: "default" });
    expect(effectTypes(m.step({ type: "turn_closing", nowMs: 1 }))).toEqual(["setPermissionMode"]);
  });

  it("a default-mode chat, or re-arm switched off, never re-arms", () => {
    const d = machine({ mode: "default" });
    d.observe({ type: "mode_changed", mode: "default" });
    expect(d.step({ type: "turn_closing", nowMs: 1 }).effects).toEqual([]);
    const off = approvedPlanChat({ rearmPlanMode: false });
    expect(off.step({ type: "turn_closing", nowMs: 1 }).effects).toEqual([]);
  });

  it("a CLI already in plan mode is left alone", () => {
    const m = machine({ mode: "plan" });
    m.observe({ type: "mode_changed", mode: "plan" });
    expect(m.step({ type: "turn_closing", nowMs: 1 }).effects).toEqual([]);
  });

  it("a failed set_permission_mode tells the person", () => {
    const m = approvedPlanChat();
    const step = m.step({ type: "mode_set_failed", mode: "plan", error: "no process" });
    expect(informed(step)[0]?.kind).toBe("plan_rearm_failed");
  });
});

describe("deferral while background agents of the approving turn run", () => {
  it("agents started after the approval defer it, turns in between say so, their end releases it", () => {
    const m = approvedPlanChat();
    m.observe(task("agent-1", "started"), task("shell-1", "started", "local_bash"));
    const first = m.step({ type: "turn_closing", nowMs: 100 });
    expect(effectTypes(first)).toEqual(["inform"]);
    expect(informed(first)[0]).toMatchObject({
      kind: "plan_rearm_deferred",
      title: expect.stringMatching(/not restored yet: a background agent/) as unknown,
    });
    // An agent started in a later turn does not defer.
    m.observe(turn(2), task("agent-2", "started"));
    expect(effectTypes(m.step({ type: "follow_up", nowMs: 200 }))).toEqual(["inform"]);
    m.observe(task("agent-1", "finished"));
    expect(m.step({ type: "turn_closing", nowMs: 300 }).effects).toEqual([{ type: "setPermissionMode", mode: "plan" }]);
  });

  it("the ceiling ends the deferral even while agents still run", () => {
    const m = approvedPlanChat({ rearmDeferCeilingMs: 1000 });
    m.observe(task("agent-1", "started"));
    expect(effectTypes(m.step({ type: "turn_closing", nowMs: 999 }))).toEqual(["inform"]);
    expect(effectTypes(m.step({ type: "follow_up", nowMs: 1000 }))).toEqual(["setPermissionMode"]);
  });

  it("fixture p2 (a background agent outlives the turn) after a plan approval: deferred at the first close, re-armed at the self-started turn's close", () => {
    const m = machine({ mode: "plan" });
    const closes: string[][] = [];
    let approved = false;
    for (const event of fixtureEvents("p2-subagent-background")) {
      if (event.type === "turn_started" && !approved) {
        m.observe(event);
        // The plan was approved at the start of this turn, before the agent was launched.
        m.request(exitPlan, { run, nowMs: 0 });
        m.tap(exitPlan.requestId, "approve");
        approved = true;
        continue;
      }
      if (event.type === "turn_finished") closes.push(effectTypes(m.step({ type: "turn_closing", nowMs: 1 })));
      if (event.type !== "approval_requested") m.observe(event);
    }
    expect(closes).toEqual([["inform"], ["setPermissionMode"]]);
  });

  it("the plan caption says so while an earlier deferral holds", () => {
    const m = approvedPlanChat();
    m.observe(task("agent-1", "started"));
    m.step({ type: "turn_closing", nowMs: 1 });
    const prompt = m.request({ ...exitPlan, requestId: "r2" }, { run }).effects.find((e) => e.type === "askPerson");
    expect(prompt?.type === "askPerson" && prompt.prompt.caption).toMatch(/still running from the earlier plan/);
  });
});

describe("previews after an approved plan", () => {
  it("are skipped for the rest of the run and come back when the run completes", () => {
    const m = approvedPlanChat({ previewChanges: true });
    const edit = {
      requestId: "e1",
      toolName: "Edit",
      input: { file_path: "a", old_string: "x", new_string: "y" },
      permissionSuggestions: [],
    };
    expect(effectTypes(m.request(edit, { run }))).toEqual(["respond"]);
    expect(effectTypes(m.request({ ...edit, requestId: "e2" }, { run: { id: "run-2", unattended: false } }))).toEqual([
      "askPerson",
    ]);
    m.observe({
      type: "run_completed",
      runId: "run-1",
      ok: true,
      answer: "",
      interrupted: false,
      cancelled: false,
      costUsd: 0,
      durationMs: 1,
    });
    expect(effectTypes(m.request({ ...edit, requestId: "e3" }, { run }))).toEqual(["askPerson"]);
  });
});
