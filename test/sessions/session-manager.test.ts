// The session layer over the real engine, CLI, decision driver and SQLite store: one run at a
// time per chat and project, the queue behind it, cancel (also while plan mode is restored),
// new/resume choices, drain on stop.
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createClaudeEngine } from "../../src/claude/index.js";
import { createSystemClock } from "../../src/ports/index.js";
import { createEnginePort } from "../../src/cli/compose/engine-port.js";
import { storeSessionRecords } from "../../src/cli/compose/session-records.js";
import { loadConfig } from "../../src/config/index.js";
import type { RunCompleted, RunFailure, TelecodeEvent } from "../../src/domain/index.js";
import { SessionManager, type SessionHandle, type SessionRecords, type Submission } from "../../src/sessions/index.js";
import type { Lane } from "../../src/domain/index.js";
import {
  createDecisionRegistry,
  type PendingDecisionView,
  type PersonPort,
} from "../../src/sessions/decisions/index.js";
import type { DecisionSettings } from "../../src/policy/index.js";
import { openStore, type Store } from "../../src/store/index.js";
import {
  COLOR_QUESTION,
  reply,
  startFakeAnthropic,
  type FakeAnthropic,
  type FakeReply,
} from "../support/fake-anthropic/index.js";
import { seedProbeCache } from "../support/claude-probe.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../support/claude-workspace.js";

type Rig = {
  api: FakeAnthropic;
  ws: ClaudeWorkspace;
  store: Store;
  manager: SessionManager;
  asked: PendingDecisionView[];
  registry: ReturnType<typeof createDecisionRegistry>;
  /** What the manager reported as failed (onError). */
  errors: unknown[];
  submit(
    prompt: string,
    extra?: Partial<Submission>,
  ): { outcome: ReturnType<SessionManager["submit"]>; done: Promise<RunCompleted>; events: TelecodeEvent[] };
  dispose(): Promise<void>;
};

const lane: Lane = { chatId: 42, project: "app" };
/** Claude starting a subagent (in the background, as the CLI runs Agent calls) with `prompt`. */
const startAgent = (prompt: string): FakeReply =>
  reply.tool("Agent", { description: "Make a file", prompt, subagent_type: "general-purpose" });
let rig: Rig | undefined;

afterEach(async () => {
  await rig?.dispose();
  rig = undefined;
});

async function makeRig(
  replies: FakeReply[],
  chat: Partial<DecisionSettings> = { questionsEnabled: true },
  records: (real: SessionRecords) => SessionRecords = (real) => real,
): Promise<Rig> {
  const api = await startFakeAnthropic({ replies });
  const ws = await makeClaudeWorkspace(api.url);
  const dataDir = await mkdtemp(join(tmpdir(), "telecode-state-"));
  const store = openStore(dataDir);
  const { config } = loadConfig({ env: { HOME: ws.home, TELECODE_DATA_DIR: dataDir } });
  const liveConfig = { ...config, claude: { ...config.claude, useApiBilling: true } };
  const engine = createClaudeEngine({
    claudePath: realClaudePath,
    env: ws.env,
    probeCacheFile: await seedProbeCache(join(ws.root, "claude-cli.json")),
  });
  const registry = createDecisionRegistry();
  const asked: PendingDecisionView[] = [];
  const port: PersonPort = { ask: (d) => asked.push(d), settled: () => undefined, inform: () => undefined };
  const enginePort = createEnginePort({
    engine,
    config: () => liveConfig,
    registry,
    clock: createSystemClock(),
    personPort: () => port,
    chatSettings: () => ({ ...chat }),
  });
  const errors: unknown[] = [];
  const manager = new SessionManager({
    engine: enginePort,
    records: records(storeSessionRecords(store)),
    clock: createSystemClock(),
    onError: (error) => errors.push(error),
  });
  return {
    api,
    ws,
    store,
    manager,
    asked,
    registry,
    errors,
    submit(prompt, extra = {}) {
      const events: TelecodeEvent[] = [];
      let finish!: (e: RunCompleted) => void;
      const done = new Promise<RunCompleted>((resolve) => (finish = resolve));
      const outcome = manager.submit({
        lane,
        prompt,
        cwd: ws.cwd,
        mode: "default",
        choice: { kind: "current" },
        observer: {
          onEvent: (e) => {
            events.push(e);
            if (e.type === "run_completed") finish(e);
          },
        },
        ...extra,
      });
      return { outcome, done, events };
    },
    async dispose() {
      await manager.shutdown(0);
      store.close();
      await api.close();
      await ws.cleanup();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
}

describe("session manager with the real CLI", () => {
  it("queues a message sent during a run and runs it next in the same process", async () => {
    rig = await makeRig([reply.text("First.", { delayMs: 1500 }), reply.text("Second.")]);
    const first = rig.submit("first task");
    const second = rig.submit("second task");
    expect(first.outcome.state).toBe("started");
    expect(second.outcome).toMatchObject({ state: "queued", position: 1 });
    const a = await first.done;
    const pid = rig.manager.status(42)[0]?.pid;
    const b = await second.done;
    expect([a.answer, b.answer]).toEqual(["First.", "Second."]);
    expect(rig.manager.status(42)[0]?.pid).toBe(pid);
    expect(b.sessionId).toBe(a.sessionId);
    // Each run's events went to its own observer only.
    expect(first.events.filter((e) => e.type === "run_completed")).toHaveLength(1);
    expect(second.events.filter((e) => e.type === "turn_started")).toHaveLength(1);
    const recorded = rig.store.runs.recent(42);
    expect(recorded.map((r) => r.state)).toEqual(["completed", "completed"]);
    expect(rig.store.sessions.current(42, "app")?.sessionId).toBe(a.sessionId);
  });

  it("a queued message edited before it runs runs with the edit, and the records keep the edit", async () => {
    rig = await makeRig([reply.text("First.", { delayMs: 1500 }), reply.text("Second.")]);
    const first = rig.submit("first task");
    const second = rig.submit("second task", { promptMessageId: 9 });
    if (second.outcome.state !== "queued") throw new Error("unexpected outcome");
    expect(rig.manager.amendQueued(42, 9, () => undefined)).toBe("unchanged");
    expect(rig.manager.amendQueued(42, 8, () => "nothing came from message 8")).toBe("not_queued");
    expect(
      rig.manager.amendQueued(42, 9, (prompt) => (typeof prompt === "string" ? `${prompt}, edited` : undefined)),
    ).toBe("amended");
    expect(rig.store.queuedRuns.get(second.outcome.runId)?.input?.prompt).toBe("second task, edited");
    await first.done;
    await expect(second.done).resolves.toMatchObject({ ok: true, answer: "Second." });
    expect(rig.api.requests()[1]?.lastPrompt).toBe("second task, edited");
    expect(rig.manager.amendQueued(42, 9, () => "too late")).toBe("not_queued");
  });

  it("a message edited while its session opens (the old process closing for another mode) runs with the edit", async () => {
    rig = await makeRig([reply.text("First."), reply.text("Second.")]);
    await rig.submit("first task").done;
    const pid = rig.manager.status(42)[0]?.pid;
    const second = rig.submit("second task", { promptMessageId: 10, mode: "acceptEdits" });
    expect(second.outcome.state).toBe("started");
    expect(rig.manager.amendQueued(42, 10, () => "second task, edited")).toBe("amended");
    await expect(second.done).resolves.toMatchObject({ ok: true, answer: "Second." });
    expect(rig.manager.status(42)[0]?.pid).not.toBe(pid);
    expect(rig.api.requests()[1]?.lastPrompt).toBe("second task, edited");
    expect(rig.manager.amendQueued(42, 10, () => "too late")).toBe("not_queued");
  });

  it("cancels a queued message before it runs and a running one by interrupt", async () => {
    rig = await makeRig([reply.bash("sleep 20 && echo finished", "Wait a while"), reply.text("never used")]);
    const running = rig.submit("long task");
    const queued = rig.submit("queued task");
    if (queued.outcome.state !== "queued" || running.outcome.state !== "started") throw new Error("unexpected outcome");
    await expect(rig.manager.cancel(queued.outcome.runId)).resolves.toBe("dequeued");
    await expect(queued.done).resolves.toMatchObject({ ok: false, cancelled: true });
    await rig.api.waitForRequests(1);
    await vi.waitFor(() => expect(running.events.some((e) => e.type === "tool_started")).toBe(true), {
      timeout: 20_000,
      interval: 20,
    });
    await expect(rig.manager.cancel(running.outcome.runId)).resolves.toBe("cancelled");
    await expect(running.done).resolves.toMatchObject({ ok: false, cancelled: true });
    expect(rig.store.runs.get(running.outcome.runId)?.state).toBe("cancelled");
    expect(rig.api.requests()).toHaveLength(1);
  });

  it("starts a fresh conversation on `new` and resumes the last one after the process closed", async () => {
    rig = await makeRig([reply.text("One."), reply.text("Two."), reply.text("Three.")]);
    const one = await rig.submit("prompt-alpha").done;
    const two = await rig.submit("prompt-bravo", { choice: { kind: "new" } }).done;
    expect(two.sessionId).not.toBe(one.sessionId);
    await expect(rig.manager.closeIdle(lane)).resolves.toBe(true);
    const three = await rig.submit("prompt-charlie").done;
    expect(three.sessionId).toBe(two.sessionId);
    const history = JSON.stringify(rig.api.requests()[2]?.body["messages"]);
    expect(history).toContain("prompt-bravo");
    expect(history).not.toContain("prompt-alpha");
  });

  it("a cancel while the run's session reopens with another mode ends the run before it starts", async () => {
    rig = await makeRig([reply.text("First."), reply.text("never used")]);
    await rig.submit("first task").done;
    // Another mode needs a new process: the old one is closed first, and the run waits for that.
    const second = rig.submit("second task", { mode: "acceptEdits" });
    if (second.outcome.state !== "started") throw new Error("unexpected outcome");
    await expect(rig.manager.cancel(second.outcome.runId)).resolves.toBe("cancelled");
    await expect(second.done).resolves.toMatchObject({ ok: false, cancelled: true });
    expect(second.events.some((e) => e.type === "turn_started")).toBe(false);
    expect(rig.api.requests()).toHaveLength(1);
    // The lane is free: the next message runs.
    await expect(rig.submit("third task", { mode: "acceptEdits" }).done).resolves.toMatchObject({
      ok: true,
      answer: "never used",
    });
  });

  it("a records write that fails is reported, and runs still end and the next one starts", async () => {
    rig = await makeRig([reply.text("First."), reply.text("Second.")], undefined, (real) => ({
      ...real,
      runStarted: () => {
        throw new Error("database or disk is full");
      },
      runFinished: () => {
        throw new Error("database or disk is full");
      },
    }));
    const first = rig.submit("first task");
    const second = rig.submit("second task");
    await expect(first.done).resolves.toMatchObject({ ok: true, answer: "First." });
    await expect(second.done).resolves.toMatchObject({ ok: true, answer: "Second." });
    expect(rig.errors.length).toBeGreaterThanOrEqual(4);
    expect(rig.manager.status(42)[0]?.runningRunId).toBeUndefined();
  });

  it("a stop that comes while a run's session reopens leaves that run kept for the next start, not run", async () => {
    rig = await makeRig([reply.text("First."), reply.text("never used")]);
    await rig.submit("first task").done;
    const second = rig.submit("second task", { mode: "acceptEdits" });
    if (second.outcome.state !== "started") throw new Error("unexpected outcome");
    await rig.manager.shutdown(0);
    // Time for a start that escaped the stop to reach the API (it never may).
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(rig.api.requests()).toHaveLength(1);
    expect(second.events).toEqual([]);
    expect(rig.store.queuedRuns.get(second.outcome.runId)).not.toBeNull();
    expect(rig.store.runs.get(second.outcome.runId)).toBeNull();
  });

  it("records a run whose start failed as failed, not as running", async () => {
    const store = openStore(await mkdtemp(join(tmpdir(), "telecode-state-")));
    const failing: SessionHandle = {
      startRun: () => Promise.reject(new Error("Claude Code refused set_permission_mode")),
      cancelRun: () => Promise.resolve(),
      events: async function* () {},
      close: () => Promise.resolve(),
      mcpSignIn: () => Promise.reject(new Error("no process")),
      mcpSignInCallback: () => Promise.reject(new Error("no process")),
      sideQuestion: () => Promise.reject(new Error("no process")),
      isRunning: false,
      sessionId: undefined,
      pid: undefined,
    };
    const manager = new SessionManager({
      engine: { openSession: () => failing, writtenDown: () => Promise.resolve("conversation") },
      records: storeSessionRecords(store),
      clock: createSystemClock(),
    });
    let completed!: (e: RunCompleted) => void;
    const done = new Promise<RunCompleted>((resolve) => (completed = resolve));
    const outcome = manager.submit({
      lane,
      prompt: "a task",
      cwd: tmpdir(),
      mode: "default",
      choice: { kind: "current" },
      observer: { onEvent: (e) => void (e.type === "run_completed" && completed(e)) },
    });
    if (outcome.state !== "started") throw new Error("unexpected outcome");
    await expect(done).resolves.toMatchObject({ ok: false, error: { reason: "start_failed" } });
    expect(store.runs.get(outcome.runId)).toMatchObject({ state: "failed" });
    await manager.shutdown(0);
    store.close();
  });

  it("a start refused for a cause a person can mend keeps a person's request for Retry, never an unattended one's", async () => {
    rig = await makeRig([]);
    const refusal: RunFailure = { reason: "over_budget", what: "Not run: capped.", hint: "Raise it.", retry: true };
    const person = rig.submit("a task", { mayStart: () => refusal });
    if (person.outcome.state !== "started") throw new Error("unexpected outcome");
    // Its observer hears of the end only after submit said the run started.
    expect(person.events).toEqual([]);
    await expect(person.done).resolves.toMatchObject({ ok: false, unstarted: true, error: refusal });
    expect(rig.store.queuedRuns.get(person.outcome.runId)).toMatchObject({
      state: "dropped",
      input: { prompt: "a task" },
    });

    const unattended = rig.submit("a scheduled task", { mayStart: () => refusal, unattended: true });
    const { retry: _, ...notKept } = refusal;
    expect((await unattended.done).error).toEqual(notKept);
    expect(rig.api.requests()).toHaveLength(0);
  });

  it("an unattended run's background agent asks nobody, also once the run has ended", async () => {
    rig = await makeRig([
      startAgent("BG-AGENT-TASK: create agent-made.txt and report back."),
      reply.text("Started the agent."),
      reply.text("The agent could not create the file."),
    ]);
    // The agent asks for its Bash call after the run's own turn has ended.
    rig.api.script(
      [
        { ...reply.bash("touch agent-made.txt", "Create a file"), delayMs: 1500 },
        reply.text("Agent report: not allowed."),
      ],
      "BG-AGENT-TASK",
    );
    const run = rig.submit("use an agent", { unattended: true });
    await expect(run.done).resolves.toMatchObject({ ok: true, answer: "Started the agent." });
    await rig.api.waitForRequests(2, "BG-AGENT-TASK");
    expect(rig.asked).toEqual([]);
    expect(rig.api.requests("BG-AGENT-TASK")[1]?.toolResults[0]).toMatchObject({ isError: true });
    expect(existsSync(join(rig.ws.cwd, "agent-made.txt"))).toBe(false);
  });

  it("a person's background agent asks the person while a scheduled run is in flight", async () => {
    rig = await makeRig([
      startAgent("PERSON-AGENT-TASK: create person-agent.txt and report back."),
      reply.text("Started the agent."),
    ]);
    rig.api.script(
      [
        { ...reply.bash("touch person-agent.txt", "Create a file"), delayMs: 1500 },
        reply.text("Agent report: made it."),
      ],
      "PERSON-AGENT-TASK",
    );
    // The loop's turn is still waiting on the API when the person's agent asks.
    rig.api.script([reply.text("Loop done.", { delayMs: 4000 })], "LOOP-TICK");
    const person = rig.submit("use an agent");
    await expect(person.done).resolves.toMatchObject({ ok: true, answer: "Started the agent." });
    const loop = rig.submit("LOOP-TICK check the build", { unattended: true });
    await vi.waitFor(() => expect(rig?.asked).toHaveLength(1), { timeout: 20_000, interval: 20 });
    expect(rig.asked[0]?.runId).toBe(person.outcome.state === "started" ? person.outcome.runId : "?");
    rig.registry.answer(rig.asked[0]!.decisionId, { kind: "choice", choiceId: "allow", by: "ann" });
    await expect(loop.done).resolves.toMatchObject({ ok: true, answer: "Loop done." });
    await vi.waitFor(() => expect(existsSync(join(rig!.ws.cwd, "person-agent.txt"))).toBe(true), { timeout: 20_000 });
  });

  it("a chat's changed switches reach its live session at the next message", async () => {
    const ask = reply.tool("AskUserQuestion", COLOR_QUESTION);

    const chat = { questionsEnabled: true };
    rig = await makeRig([ask, reply.text("Asked."), ask, reply.text("Chose myself.")], chat);
    const first = rig.submit("pick a colour");
    await vi.waitFor(() => expect(rig?.asked).toHaveLength(1), { timeout: 20_000, interval: 20 });
    rig.registry.answer(rig.asked[0]!.decisionId, { kind: "choice", choiceId: "q0:opt1", by: "ann" });
    await first.done;
    const pid = rig.manager.status(42)[0]?.pid;
    chat.questionsEnabled = false;
    await rig.submit("pick another colour").done;
    expect(rig.manager.status(42)[0]?.pid).toBe(pid);
    expect(rig.asked).toHaveLength(1);
    expect(rig.api.requests()[3]?.toolResults[0]?.text).toContain("reasonable defaults");
  });

  it("a Cancel that comes while plan mode is being restored before the next message ends that run", async () => {
    const chat: Partial<DecisionSettings> = { rearmPlanMode: false };
    rig = await makeRig(
      [
        reply.tool("ExitPlanMode", {}, "Here is my plan."),
        reply.text("Plan approved; done."),
        reply.text("This answer should never be shown."),
      ],
      chat,
    );
    const plan = rig.submit("plan a change", { mode: "plan" });
    await vi.waitFor(() => expect(rig?.asked).toHaveLength(1), { timeout: 20_000, interval: 20 });
    rig.registry.answer(rig.asked[0]!.decisionId, { kind: "choice", choiceId: "approve", by: "ann" });
    await expect(plan.done).resolves.toMatchObject({ ok: true });
    // The approval left the CLI in default mode; with re-arm back on, the next message first
    // restores plan mode. The CLI is held still, so that takes until the test lets it go on.
    chat.rearmPlanMode = true;
    const pid = rig.manager.status(42)[0]!.pid!;
    process.kill(pid, "SIGSTOP");
    try {
      const next = rig.submit("carry on", { mode: "plan" });
      const runId = next.outcome.state === "started" ? next.outcome.runId : "";
      await vi.waitFor(() => expect(rig?.store.runs.get(runId)?.state).toBe("running"), {
        timeout: 10_000,
        interval: 5,
      });
      expect(await rig.manager.cancel(runId)).toBe("cancelled");
      process.kill(pid, "SIGCONT");
      const done = await next.done;
      expect(done).toMatchObject({ ok: false, cancelled: true, answer: "" });
      expect(rig.api.requests().map((r) => r.lastPrompt)).not.toContain("carry on");
    } finally {
      process.kill(pid, "SIGCONT");
    }
  });

  it("refuses new work while stopping, lets the running run finish within the drain time and keeps the queued one", async () => {
    rig = await makeRig([reply.text("Finished in time.", { delayMs: 800 }), reply.text("never used")]);
    const running = rig.submit("task");
    const queued = rig.submit("queued");
    await rig.api.waitForRequests(1);
    const stopping = rig.manager.shutdown(30_000);
    expect(rig.submit("late").outcome.state).toBe("refused");
    await stopping;
    await expect(running.done).resolves.toMatchObject({ ok: true, answer: "Finished in time." });
    // The queued message did not run, and is not lost: the records keep it for the next start.
    expect(queued.events).toEqual([]);
    expect(rig.store.queuedRuns.listWaiting().map((r) => r.input.prompt)).toEqual(["queued"]);
    expect(rig.manager.status()).toEqual([]);
  });
});
