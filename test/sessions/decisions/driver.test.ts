// The driver between the engine, the pure machine and a front end: answers reach decide()
// once, the re-arm ack comes before the turn closes, timeouts fire while the CLI waits,
// withdrawal and session end expire prompts, typed replies steer.
import { describe, expect, it } from "vitest";
import type { SessionController } from "../../../src/claude/index.js";
import type { ApprovalRequest, TelecodeEvent, TurnFinished } from "../../../src/domain/events.js";
import {
  noLongerPendingMessage,
  timedOutMessage,
  unattendedMessage,
  type DecisionSettings,
} from "../../../src/policy/index.js";
import {
  createDecisionDriver,
  createDecisionRegistry,
  type DecisionRegistry,
} from "../../../src/sessions/decisions/index.js";
import { fixtureEvents, fixtureRequest } from "../../policy/fixture-events.js";
import { lane, manualSession, recordingPort, settleMicrotasks, type RecordingPort } from "./fakes.js";
import { storeDecisionJournal } from "../../../src/cli/compose/decision-journal.js";
import { openStore } from "../../../src/store/index.js";
import { createFakeClock } from "../../support/fake-clock.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("ledger");

const bash = fixtureRequest("c-control-bash-allow", "Bash");
const question = fixtureRequest("g2-ask-user-question-answers", "AskUserQuestion");
const run = { id: "run-1", unattended: false };
const turnFinished: TurnFinished = {
  type: "turn_finished",
  ok: true,
  answer: "",
  interrupted: false,
  costUsd: 0,
  numTurns: 1,
  durationMs: 1,
  origin: "person",
};

function setup(
  settings: Partial<DecisionSettings> = {},
  opts: { port?: RecordingPort; registry?: DecisionRegistry; laneId?: string } = {},
) {
  const port = opts.port ?? recordingPort();
  const registry = opts.registry ?? createDecisionRegistry();
  const clock = createFakeClock(1_000);
  let n = 0;
  const laneName = opts.laneId ?? "chat-1";
  const driver = createDecisionDriver({
    lane: lane(laneName),
    settings,
    port,
    registry,
    clock,
    newDecisionId: () => `${laneName}-d${++n}`,
  });
  const decide = (request: ApprovalRequest, signal = new AbortController().signal, r: typeof run | undefined = run) =>
    driver.decide(request, { signal, run: r });
  return { port, registry, clock, driver, decide };
}

describe("the driver is the engine's SessionController", () => {
  it("fits the engine's interface", () => {
    const { driver } = setup();
    const controller: SessionController = driver;
    expect(typeof controller.decide).toBe("function");
  });

  it("autonomous allows answer at once without asking anyone", async () => {
    const { driver, port, decide } = setup({ mode: "auto" });
    await expect(decide(bash)).resolves.toEqual({
      behavior: "allow",
      updatedInput: bash.input,
      decisionClassification: "config",
      by: "policy",
    });
    expect(port.asks).toEqual([]);
    expect(driver.state.pending.size).toBe(0);
  });

  it("unattended runs are denied without waiting, and without a message of their own", async () => {
    const { port, decide } = setup({ mode: "default" });
    await expect(decide(bash, undefined, { id: "cron-1", unattended: true })).resolves.toEqual({
      behavior: "deny",
      message: unattendedMessage("Bash"),
      decisionClassification: "config",
      by: "policy",
    });
    expect(port.asks).toEqual([]);
    // The tool's line in the progress says why; nobody is there to read a message per call.
    expect(port.infos).toEqual([]);
  });

  it("a denial without asking a person who is there is told to them", async () => {
    const { port, decide } = setup({ mode: "default", questionsEnabled: false });
    await expect(decide(question)).resolves.toMatchObject({ behavior: "deny", by: "policy" });
    expect(port.infos.map((i) => [i.info.kind, i.info.title])).toEqual([
      ["auto_denied", "Claude asked a question; questions are off, so it was told to use reasonable defaults."],
    ]);
  });

  it("hook callbacks that are not ours get {} at once; ours go to their handler", async () => {
    const port = recordingPort();
    const driver = createDecisionDriver({
      lane: lane("k"),
      port,
      registry: createDecisionRegistry(),
      clock: createFakeClock(),
      ownHooks: new Map([
        [
          "telecode_cron",
          () => Promise.resolve({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow" } }),
        ],
      ]),
    });
    const signal = new AbortController().signal;
    await expect(driver.hookCallback("someone_else", { tool_name: "CronCreate" }, signal)).resolves.toEqual({});
    await expect(driver.hookCallback("telecode_cron", {}, signal)).resolves.toMatchObject({
      hookSpecificOutput: { permissionDecision: "allow" },
    });
  });
});

describe("the file an Edit targets", () => {
  const edit: ApprovalRequest = {
    requestId: "e1",
    toolName: "Edit",
    input: { file_path: "/p/x.ts", old_string: "old()", new_string: "new()" },
    permissionSuggestions: [],
  };

  it("is read only for an Edit put to the person, and shows in its prompt", async () => {
    const reads: string[] = [];
    const driverIn = (mode: DecisionSettings["mode"], port: RecordingPort) =>
      createDecisionDriver({
        lane: lane("chat-e"),
        settings: { mode },
        port,
        registry: createDecisionRegistry(),
        clock: createFakeClock(1_000),
        fileNow: (request) => {
          reads.push(request.requestId);
          return { exists: true, lines: 12, editSite: { firstLine: 10, before: "a\n", after: "\nb" } };
        },
      });
    // Allowed without asking: nothing is read.
    const auto = driverIn("auto", recordingPort());
    await expect(auto.decide(edit, { signal: new AbortController().signal, run })).resolves.toMatchObject({
      behavior: "allow",
    });
    expect(reads).toEqual([]);
    // Asked: read once, and the prompt says where the change is.
    const port = recordingPort();
    void driverIn("default", port).decide(edit, { signal: new AbortController().signal, run });
    expect(reads).toEqual(["e1"]);
    expect(port.asks[0]?.prompt.sections[0]).toEqual({
      kind: "diff",
      path: "/p/x.ts",
      line: 11,
      lines: [
        { op: "context", text: "a" },
        { op: "removed", text: "old()" },
        { op: "added", text: "new()" },
        { op: "context", text: "b" },
      ],
    });
  });
});

describe("exactly once", () => {
  it("the first tap wins; a second tap is told 'already answered' and changes nothing", async () => {
    const { port, registry, decide } = setup();
    const answer = decide(bash);
    const { decisionId, prompt, lane: asked, requestId } = port.lastAsk();
    expect({ lane: asked, requestId, kind: prompt.kind }).toEqual({
      lane: lane("chat-1"),
      requestId: bash.requestId,
      kind: "approval",
    });
    expect(registry.answer(decisionId, { kind: "choice", choiceId: "allow", by: "ann" })).toBe("accepted");
    expect(registry.answer(decisionId, { kind: "choice", choiceId: "deny", by: "bob" })).toBe("already_answered");
    await expect(answer).resolves.toEqual({
      behavior: "allow",
      updatedInput: bash.input,
      decisionClassification: "user_temporary",
      by: "ann",
    });
    expect(port.outcomes).toEqual([
      { decisionId, outcome: { decision: "allow", reason: "person", by: "ann", summary: "Allowed" } },
    ]);
  });

  it("a choice the approval does not offer changes nothing and leaves it open", async () => {
    const { port, registry, decide } = setup();
    const answer = decide(bash);
    const { decisionId } = port.lastAsk();
    expect(registry.answer(decisionId, { kind: "choice", choiceId: "maybe" })).toBe("not_a_choice");
    expect(registry.verdictFor(decisionId)).toBe("accepted");
    expect(registry.answer(decisionId, { kind: "choice", choiceId: "deny" })).toBe("accepted");
    await expect(answer).resolves.toMatchObject({ behavior: "deny" });
  });

  it("the ledger keeps its word in SQLite: decisions it no longer remembers are judged by their record", async () => {
    const store = openStore(tempDir());
    try {
      store.runs.start({ runId: run.id, chatId: 1, project: "chat-1", sessionId: null });
      const registry = createDecisionRegistry({ rememberClosed: 1, journal: storeDecisionJournal(store) });
      const { port, decide } = setup({}, { registry });
      const first = decide(bash);
      const answered = port.lastAsk().decisionId;
      registry.answer(answered, { kind: "choice", choiceId: "allow", by: "ann" });
      await first;
      const ac = new AbortController();
      const second = decide({ ...bash, requestId: "req-2" }, ac.signal);
      const withdrawn = port.lastAsk().decisionId;
      ac.abort();
      await second;
      // Memory holds only the last closed decision; the first is read back from its record.
      expect(store.decisions.get(answered)?.state).toBe("approved");
      expect(registry.verdictFor(answered)).toBe("already_answered");
      expect(registry.answer(withdrawn, { kind: "choice", choiceId: "allow" })).toBe("no_longer_pending");
      expect(store.decisions.get(withdrawn)?.state).toBe("withdrawn");
    } finally {
      store.close();
    }
  });

  it("a control_cancel_request (abort) withdraws it: the prompt settles, a late tap is 'no longer pending'", async () => {
    const { port, registry, decide } = setup();
    const ac = new AbortController();
    const answer = decide(bash, ac.signal);
    const { decisionId } = port.lastAsk();
    ac.abort();
    await expect(answer).resolves.toMatchObject({ behavior: "deny", message: noLongerPendingMessage });
    expect(port.outcomes[0]?.outcome).toMatchObject({ decision: "none", reason: "withdrawn" });
    expect(registry.answer(decisionId, { kind: "choice", choiceId: "allow" })).toBe("no_longer_pending");
  });

  it("the approval_withdrawn event (fixture i3) withdraws it too, once", async () => {
    const { driver, port, decide } = setup();
    const ac = new AbortController();
    let answer: Promise<unknown> | undefined;
    for (const event of fixtureEvents("i3-interrupt-pending-permission")) {
      driver.observe(event);
      if (event.type === "approval_requested") answer = decide(event.request, ac.signal);
    }
    ac.abort();
    await expect(answer).resolves.toMatchObject({ behavior: "deny", by: "withdrawn" });
    expect(port.outcomes).toHaveLength(1);
    expect(port.outcomes[0]?.outcome.summary).toBe("Withdrawn by Claude");
  });

  it("a request already withdrawn when it arrives is never shown", async () => {
    const { port, decide } = setup();
    const ac = new AbortController();
    ac.abort();
    await expect(decide(bash, ac.signal)).resolves.toMatchObject({ behavior: "deny" });
    expect(port.asks).toEqual([]);
  });

  it("the session's end expires every open decision of that session only", async () => {
    const registry = createDecisionRegistry();
    const a = setup({}, { registry, laneId: "a" });
    const b = setup({}, { registry, laneId: "b" });
    const pa = a.decide(bash);
    const pq = a.decide(question);
    const pb = b.decide(bash);
    a.driver.end();
    await expect(pa).resolves.toMatchObject({ behavior: "deny", by: "session end" });
    await expect(pq).resolves.toMatchObject({ behavior: "deny", by: "session end" });
    expect(a.port.outcomes.map((s) => s.outcome.reason)).toEqual(["session_end", "session_end"]);
    expect(registry.answer("a-d1", { kind: "choice", choiceId: "allow" })).toBe("no_longer_pending");
    expect(registry.pendingFor(lane("a"))).toEqual([]);
    expect(registry.answer("b-d1", { kind: "choice", choiceId: "deny" })).toBe("accepted");
    await expect(pb).resolves.toMatchObject({ behavior: "deny" });
  });

  it("a front end that answers from inside ask() still gets exactly one answer through", async () => {
    const registry = createDecisionRegistry();
    const port = recordingPort((view) => registry.answer(view.decisionId, { kind: "choice", choiceId: "allow" }));
    const { decide, clock } = setup({ approvalTimeoutMs: 5_000 }, { port, registry });
    await expect(decide(bash)).resolves.toMatchObject({ behavior: "allow" });
    expect(port.outcomes).toHaveLength(1);
    expect(clock.activeTimers).toBe(0);
  });

  it("a front end that throws does not stop the decision", async () => {
    const errors: string[] = [];
    const registry = createDecisionRegistry();
    const port = {
      ask: () => {
        throw new Error("telegram down");
      },
      settled: () => undefined,
      inform: () => undefined,
    };
    const driver = createDecisionDriver({
      lane: lane("k"),
      port,
      registry,
      clock: createFakeClock(),
      onPortError: (e, call) => errors.push(`${call}: ${String(e)}`),
    });
    const answer = driver.decide(bash, { signal: new AbortController().signal, run });
    const [view] = registry.pendingFor(lane("k"));
    registry.answer(view?.decisionId ?? "", { kind: "choice", choiceId: "deny" });
    await expect(answer).resolves.toMatchObject({ behavior: "deny" });
    expect(errors).toEqual(["ask: Error: telegram down"]);
  });
});

describe("typed replies", () => {
  it("a text message while an approval is pending denies with the person's words", async () => {
    const { registry, decide } = setup();
    const answer = decide(bash);
    expect(registry.answerByText(lane("chat-1"), "no, use pnpm", "ann")).toBe("accepted");
    const result = await answer;
    expect(result.behavior === "deny" && result.message).toMatch(/The person replied: "no, use pnpm"/);
    expect(result.by).toBe("ann");
    expect(registry.answerByText(lane("chat-1"), "hello again")).toBe("no_pending");
  });

  it("goes to the question awaiting typed text rather than to an older approval", async () => {
    const { port, registry, decide } = setup();
    const approval = decide(bash);
    const asked = decide(question);
    const q = port.lastAsk();
    registry.answer(q.decisionId, { kind: "choice", choiceId: "q0:type" });
    expect(port.lastAsk()).toMatchObject({ decisionId: q.decisionId, awaitingText: true });
    registry.answerByText(lane("chat-1"), "purple");
    await expect(asked).resolves.toMatchObject({
      behavior: "allow",
      updatedInput: { answers: { "Which color should the button be?": "purple" } },
    });
    expect(registry.pendingFor(lane("chat-1")).map((v) => v.requestId)).toEqual([bash.requestId]);
    registry.answerByText(lane("chat-1"), "not now");
    await expect(approval).resolves.toMatchObject({ behavior: "deny" });
  });
});

describe("timeouts fire while the CLI waits", () => {
  it("deny with 'did not answer in time' when the clock passes the timeout, not before", async () => {
    const { port, registry, clock, decide } = setup({ approvalTimeoutMs: 60_000 });
    let done = false;
    const answer = decide(bash).then((a) => {
      done = true;
      return a;
    });
    const { decisionId } = port.lastAsk();
    clock.advance(59_999);
    await settleMicrotasks();
    expect(done).toBe(false);
    clock.advance(1);
    // No one answered: the chat's approval timeout decided.
    await expect(answer).resolves.toEqual({
      behavior: "deny",
      message: timedOutMessage("Bash"),
      decisionClassification: "config",
      by: "timeout",
    });
    expect(port.outcomes[0]?.outcome).toMatchObject({ reason: "timeout", summary: "No answer in time" });
    expect(registry.answer(decisionId, { kind: "choice", choiceId: "allow" })).toBe("no_longer_pending");
  });

  it("no timeout configured: waits as long as the session lives", async () => {
    const { port, clock, decide, driver } = setup({ approvalTimeoutMs: null });
    const answer = decide(bash);
    clock.advance(7 * 24 * 3600_000);
    expect(port.outcomes).toEqual([]);
    driver.end();
    await expect(answer).resolves.toMatchObject({ by: "session end" });
  });

  it("an answer cancels the timer; each question step restarts it", async () => {
    const { port, registry, clock, decide } = setup({ approvalTimeoutMs: 1_000 });
    const multi: ApprovalRequest = {
      ...question,
      requestId: "multi",
      input: {
        questions: [
          { question: "A?", multiSelect: false, options: [{ label: "x" }, { label: "y" }] },
          { question: "B?", multiSelect: false, options: [{ label: "z" }, { label: "w" }] },
        ],
      },
    };
    const answer = decide(multi);
    const { decisionId } = port.lastAsk();
    clock.advance(900);
    registry.answer(decisionId, { kind: "choice", choiceId: "q0:opt0" });
    clock.advance(900);
    expect(port.outcomes).toEqual([]);
    registry.answer(decisionId, { kind: "choice", choiceId: "q1:opt1" });
    await expect(answer).resolves.toMatchObject({ updatedInput: { answers: { "A?": "x", "B?": "w" } } });
    expect(clock.activeTimers).toBe(0);
  });
});

describe("re-arm ordering with the engine's session controls", () => {
  async function approvedPlanTurn(settings: Partial<DecisionSettings> = {}) {
    const s = setup({ mode: "plan", ...settings });
    const events: TelecodeEvent[] = fixtureEvents("e-plan-exit-allow");
    for (const event of events) {
      if (event.type === "turn_finished") break;
      s.driver.observe(event);
      if (event.type === "approval_requested") {
        const answer = s.decide(event.request);
        s.registry.answer(s.port.lastAsk().decisionId, { kind: "choice", choiceId: "approve" });
        await expect(answer).resolves.toMatchObject({ behavior: "allow" });
      }
    }
    return s;
  }

  it("fixture e: the set_permission_mode plan ack comes before the turn-closing event", async () => {
    const { driver } = await approvedPlanTurn();
    const log: string[] = [];
    const session = manualSession(log);
    const delivered = driver
      .beforeTurnFinished({ session, turn: turnFinished })
      .then(() => log.push("turn_finished delivered"));
    await settleMicrotasks();
    expect(log).toEqual(["set_permission_mode plan"]);
    session.ack();
    await delivered;
    expect(log).toEqual(["set_permission_mode plan", "ack plan", "turn_finished delivered"]);
    // Acked: the next close sends nothing.
    await driver.beforeTurnFinished({ session, turn: turnFinished });
    expect(log).toHaveLength(3);
  });

  it("a failed set_permission_mode still lets the turn close, and says so", async () => {
    const { driver, port } = await approvedPlanTurn();
    const session = manualSession([]);
    const closing = driver.beforeTurnFinished({ session, turn: turnFinished });
    await settleMicrotasks();
    session.fail("Claude Code is not running.");
    await closing;
    expect(port.infos.at(-1)?.info).toMatchObject({
      kind: "plan_rearm_failed",
      sections: [{ kind: "text", text: "Claude Code is not running." }],
    });
  });

  it("re-arm off: the turn closes without set_permission_mode", async () => {
    const { driver } = await approvedPlanTurn({ rearmPlanMode: false });
    const log: string[] = [];
    await driver.beforeTurnFinished({ session: manualSession(log), turn: turnFinished });
    expect(log).toEqual([]);
  });

  it("deferred at the close, re-armed before the follow-up once the agent ended", async () => {
    const { driver, port } = await approvedPlanTurn();
    driver.observe({ type: "task_changed", taskId: "t1", phase: "started", taskType: "local_agent" });
    const log: string[] = [];
    const session = manualSession(log);
    await driver.beforeTurnFinished({ session, turn: turnFinished });
    expect(log).toEqual([]);
    expect(port.infos.at(-1)?.info.kind).toBe("plan_rearm_deferred");
    driver.observe({
      type: "task_changed",
      taskId: "t1",
      phase: "finished",
      taskType: "local_agent",
      status: "completed",
    });
    const followUp = driver.beforeFollowUp(session).then(() => log.push("follow-up written"));
    await settleMicrotasks();
    session.ack();
    await followUp;
    expect(log).toEqual(["set_permission_mode plan", "ack plan", "follow-up written"]);
  });
});

describe("decision ids", () => {
  it("a generator that repeats itself still gives each open decision its own id", async () => {
    const port = recordingPort();
    const registry = createDecisionRegistry();
    const driver = createDecisionDriver({
      lane: lane("k"),
      port,
      registry,
      clock: createFakeClock(),
      newDecisionId: () => "same",
    });
    const signal = new AbortController().signal;
    const a = driver.decide(bash, { signal, run });
    const b = driver.decide({ ...bash, requestId: "other" }, { signal, run });
    const ids = port.asks.map((v) => v.decisionId);
    expect(new Set(ids).size).toBe(2);
    registry.answer(ids[1] ?? "", { kind: "choice", choiceId: "deny" });
    registry.answer(ids[0] ?? "", { kind: "choice", choiceId: "allow" });
    await expect(a).resolves.toMatchObject({ behavior: "allow" });
    await expect(b).resolves.toMatchObject({ behavior: "deny" });
  });
});
