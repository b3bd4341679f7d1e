// The engine over kept CLIs (the real CLI under a real keeper, against the fake Messages API):
// a run goes on in a second engine that re-attaches with a higher fence (as a restarted
// Telecode does), the first one lets go without answering or completing anything, and a lower
// fence is refused; a turn the first one saw finish does not run its end-of-turn hook again;
// a keeper started ahead of need runs the next run's CLI. Needs `npm run
// build` (the keeper runs bin/telecode.js).
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createClaudeEngine,
  createCliProbe,
  createDirectLauncher,
  type ApprovalDecision,
  type SessionController,
  type SessionHandle,
} from "../../src/claude/index.js";
import { createKeptLauncher, type KeptLauncher } from "../../src/cli/compose/kept-launcher.js";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { findKeepers, isKeeperError, type KeeperRecord } from "../../src/keeper/index.js";
import { silentLogger, type Logger } from "../../src/ports/index.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../support/claude-workspace.js";
import { reply, startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic/index.js";
import { eventLog } from "../support/event-log.js";
import { useTempDirs } from "../support/temp-dirs.js";
import { fillDisk, mountTmpfs, tmpfsMountable } from "../support/tmpfs.js";
import { endKeepers } from "../telegram/bridge/rig.js";
import { clock, launcherFor } from "../keeper/keeper-harness.js";

const tempDir = useTempDirs("kept");
let api: FakeAnthropic | undefined;
let ws: ClaudeWorkspace | undefined;
let dataDir = "";
afterEach(async () => {
  await endKeepers(dataDir);
  await api?.close();
  await ws?.cleanup();
});

const launchers: KeptLauncher[] = [];
afterEach(() => {
  for (const launcher of launchers.splice(0)) launcher.stop();
});

function keptLauncher(fence: number, options: { warmDelayMs?: number; logger?: Logger } = {}): KeptLauncher {
  const probe = createCliProbe();
  const launcher = createKeptLauncher({
    keeper: launcherFor(join(dataDir, "keepers")),
    fence,
    clientId: `test-${fence}`,
    direct: createDirectLauncher({ clock, probe }),
    probe: (command, env) => probe.ask(command, env),
    logger: options.logger ?? silentLogger,
    warmDelayMs: options.warmDelayMs ?? null,
  });
  launchers.push(launcher);
  return launcher;
}

/** A controller that leaves every approval to the test, and the events it saw. */
function waitingController(): SessionController & {
  asked: Promise<{ requestId: string; answer(decision: ApprovalDecision): void; signal: AbortSignal }>;
} {
  let ask: (value: { requestId: string; answer(decision: ApprovalDecision): void; signal: AbortSignal }) => void;
  const asked = new Promise<{ requestId: string; answer(decision: ApprovalDecision): void; signal: AbortSignal }>(
    (resolve) => (ask = resolve),
  );
  return {
    asked,
    decide: (request, ctx) =>
      new Promise((answer) => ask({ requestId: request.requestId, answer, signal: ctx.signal })),
  };
}

/** A handle's events as they come, with waits on what arrives. */
function watch(handle: SessionHandle): {
  events: TelecodeEvent[];
  ended: Promise<void>;
  next(type: string): Promise<TelecodeEvent>;
} {
  const events: TelecodeEvent[] = [];
  const waiters: { type: string; resolve(event: TelecodeEvent): void }[] = [];
  const ended = (async () => {
    for await (const event of handle.events()) {
      events.push(event);
      for (const w of waiters.filter((w) => w.type === event.type)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  })();
  return {
    events,
    ended,
    next: (type) => new Promise((resolve) => waiters.push({ type, resolve })),
  };
}

/** One run through `launcher` whose keeper cannot start: it answers as a direct child; its first note. */
async function runUnkept(
  launcher: KeptLauncher,
  workspace: ClaudeWorkspace,
  answer: string,
): Promise<{ handle: SessionHandle; note: TelecodeEvent }> {
  const handle = createClaudeEngine({ claudePath: realClaudePath, env: workspace.env, launcher }).openSession(
    { cwd: workspace.cwd, permissionMode: "default", useApiBilling: true },
    waitingController(),
  );
  const events = watch(handle);
  const note = events.next("note");
  const completed = events.next("run_completed");
  await handle.startRun([{ type: "text", text: "Answer" }]);
  expect(await completed).toMatchObject({ ok: true, answer });
  expect(handle.keptRun).toBeUndefined();
  return { handle, note: await note };
}

describe("kept CLIs and fences", () => {
  it("a newer Telecode's fence takes the run over; the older one lets go without a word, and a lower fence is refused", async () => {
    dataDir = tempDir();
    api = await startFakeAnthropic({
      replies: [reply.bash("touch fenced.txt", "Create a file"), reply.text("Fenced.")],
    });
    ws = await makeClaudeWorkspace(api.url);
    const spec = { cwd: ws.cwd, permissionMode: "default", useApiBilling: true };

    const first = createClaudeEngine({ claudePath: realClaudePath, env: ws.env, launcher: keptLauncher(1) });
    const firstController = waitingController();
    const a = first.openSession(spec, firstController);
    const aEvents = watch(a);
    const runId = await a.startRun([{ type: "text", text: "Create the file" }], { runId: "fenced-run" });
    const askedA = await firstController.asked;
    const place = a.keptRun!;
    const [found] = await findKeepers(join(dataDir, "keepers"));
    expect(found?.kind).toBe("running");
    const record = (found as { record: KeeperRecord }).record;
    expect(record.keeperId).toBe(place.keptId);

    // The restarted Telecode: a higher fence, replaying the run from its start.
    const second = keptLauncher(2);
    const { transport, welcome } = await second.reattach(record, place.startSeq);
    const secondController = waitingController();
    const adopted = createClaudeEngine({ claudePath: realClaudePath, env: ws.env, launcher: second }).adoptSession(
      spec,
      secondController,
      {
        transport,
        run: { id: runId, startedAtMs: Date.now(), startSeq: place.startSeq },
        backlogThroughSeq: welcome.lastSeq,
        seenThroughSeq: a.lastLineSeq,
      },
    );
    const bEvents = watch(adopted.handle);
    expect(await adopted.reconciled).toEqual([askedA.requestId]);
    const askedB = await secondController.asked;
    expect(askedB.requestId).toBe(askedA.requestId);

    // The older one was evicted: it ends without completing the run or answering the request.
    await aEvents.ended;
    expect(a.handedOver).toBe(true);
    expect(aEvents.events.some((e) => e.type === "run_completed" || e.type === "approval_resolved")).toBe(false);
    expect(askedA.signal.aborted).toBe(true);

    // A Telecode with a lower fence may not take it back.
    await expect(keptLauncher(1).reattach(record, 0)).rejects.toSatisfy((error) =>
      isKeeperError(error, "keeper.stale_fence"),
    );

    const completed = bEvents.next("run_completed");
    askedB.answer({ behavior: "allow", updatedInput: { command: "touch fenced.txt", description: "Create a file" } });
    expect(await completed).toMatchObject({ type: "run_completed", runId, ok: true, answer: "Fenced." });
    expect(existsSync(join(ws.cwd, "fenced.txt"))).toBe(true);
    await adopted.handle.close();
  });

  it("a turn the older Telecode saw finish is replayed without running its end-of-turn hook again", async () => {
    dataDir = tempDir();
    api = await startFakeAnthropic({ replies: [reply.text("Finished once.")] });
    ws = await makeClaudeWorkspace(api.url);
    const spec = { cwd: ws.cwd, permissionMode: "default", useApiBilling: true };
    // The hook re-arms plan mode after an approved plan: run twice, it would do so mid-way through later work.
    const closings: string[] = [];
    const closingCounted = (who: string): SessionController => ({
      ...waitingController(),
      beforeTurnFinished: () => Promise.resolve(void closings.push(who)),
    });

    const a = createClaudeEngine({ claudePath: realClaudePath, env: ws.env, launcher: keptLauncher(1) }).openSession(
      spec,
      closingCounted("first"),
    );
    const watchA = watch(a);
    const finishedA = watchA.next("turn_finished");
    const completedA = watchA.next("run_completed");
    const runId = await a.startRun([{ type: "text", text: "Say it" }], { runId: "seen-run" });
    const place = a.keptRun!;
    // What a Telecode records as processed once it has shown the turn's end.
    await finishedA;
    const seenThroughSeq = a.lastLineSeq;
    await completedA;
    expect(closings).toEqual(["first"]);

    // A restarted Telecode that finds the run still recorded as running replays it from its start.
    const [found] = await findKeepers(join(dataDir, "keepers"));
    const { transport, welcome } = await keptLauncher(2).reattach(
      (found as { record: KeeperRecord }).record,
      place.startSeq,
    );
    const adopted = createClaudeEngine({ claudePath: realClaudePath, env: ws.env }).adoptSession(
      spec,
      closingCounted("second"),
      {
        transport,
        run: { id: runId, startedAtMs: Date.now(), startSeq: place.startSeq },
        backlogThroughSeq: welcome.lastSeq,
        seenThroughSeq,
      },
    );
    const completedB = watch(adopted.handle).next("run_completed");
    expect(await completedB).toMatchObject({ runId, ok: true, answer: "Finished once." });
    expect(closings).toEqual(["first"]);
    await adopted.handle.close();
  });

  it.runIf(tmpfsMountable)(
    "a keeper that cannot keep its files (a full disk) costs a run only its surviving a restart",
    async () => {
      dataDir = tempDir();
      api = await startFakeAnthropic({ replies: [reply.text("Answered all the same.")] });
      ws = await makeClaudeWorkspace(api.url);
      const keepersDir = join(dataDir, "keepers");
      mkdirSync(keepersDir, { mode: 0o700 });
      const unmount = mountTmpfs(keepersDir, "64k");
      try {
        fillDisk(keepersDir);
        const log = eventLog();
        const { handle, note } = await runUnkept(keptLauncher(1, { logger: log }), ws, "Answered all the same.");
        // The person is told what it costs, and why.
        expect(note).toMatchObject({
          kind: "warning",
          text: expect.stringMatching(
            /^This task ends if Telecode restarts, as its keeper failed\. The keeper could not .*\(ENOSPC: no space left on the device\)\.?$/,
          ),
        });
        // Its CLI was a direct child: nothing of a keeper is left on the full disk.
        expect(readdirSync(keepersDir).filter((name) => !name.startsWith("filler-"))).toEqual([]);
        expect(log.fields("keeper.start_failed").map((f) => f["why"])).toEqual([
          expect.stringContaining("(ENOSPC: no space left on the device)"),
        ]);
        await handle.close();
      } finally {
        unmount();
      }
    },
  );

  it("a keeper whose directory cannot be made says so in the run, which goes on as a direct child", async () => {
    dataDir = tempDir();
    api = await startFakeAnthropic({ replies: [reply.text("Answered directly.")] });
    ws = await makeClaudeWorkspace(api.url);
    writeFileSync(join(dataDir, "keepers"), "a file where the keepers' directory belongs");
    const { handle, note } = await runUnkept(keptLauncher(1), ws, "Answered directly.");
    expect(note).toMatchObject({
      kind: "warning",
      text: expect.stringMatching(
        /^This task ends if Telecode restarts, as its keeper failed\. The keeper could not make its folder .*keepers\/[0-9a-f-]+ \(ENOTDIR: a part of the path is a file, not a folder\)\.$/,
      ),
    });
    await handle.close();
  });

  it("a keeper started ahead of need runs the next run's CLI", async () => {
    dataDir = tempDir();
    api = await startFakeAnthropic({ replies: [reply.text("First."), reply.text("Second.")] });
    ws = await makeClaudeWorkspace(api.url);
    const spec = { cwd: ws.cwd, permissionMode: "default", useApiBilling: true };
    const log = eventLog();
    const launcher = keptLauncher(1, { warmDelayMs: 0, logger: log });
    const engine = createClaudeEngine({ claudePath: realClaudePath, env: ws.env, launcher });
    const runOnce = async (text: string, answer: string): Promise<void> => {
      const handle = engine.openSession(spec, waitingController());
      const events = watch(handle);
      const completed = events.next("run_completed");
      await handle.startRun([{ type: "text", text }]);
      expect(await completed).toMatchObject({ ok: true, answer });
      await handle.close();
    };
    await runOnce("First", "First.");
    await runOnce("Second", "Second.");
    const started = log.fields("keeper.started");
    expect(started).toHaveLength(2);
    // Each CLI started in a keeper that was already waiting: one is started when the launcher is
    // made, and another after each start.
    expect(started.map((f) => f["ahead"])).toEqual([true, true]);
    expect(new Set(started.map((f) => f["keeperId"])).size).toBe(2);
  });
});
