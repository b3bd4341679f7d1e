// Control-channel and run edge cases the real CLI cannot be made to produce on demand, played
// by the stand-in CLI (test/support/fake-claude): unknown requests, withdrawals, a dead stdin,
// self-started turns, the beforeTurnFinished hook, args on respawn, and backpressure.
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  allowAllController,
  askController,
  createClaudeEngine,
  isClaudeError,
  SESSION_END_MESSAGE,
} from "../../src/claude/index.js";
import type { ApprovalDecision, SessionHandle, SessionController, SessionSpec } from "../../src/claude/index.js";
import { SESSION_GONE_NOTE, type TelecodeEvent } from "../../src/domain/index.js";
import { silentLogger, type LogFields, type Logger } from "../../src/ports/index.js";
import { fakeClaudePath, line, writeFakeClaudeScript, type FakeClaudeScript } from "../support/fake-claude/index.js";
import { collect, processGroupAlive, type Collector } from "./harness.js";

const FAKE_VARS = ["FAKE_CLAUDE_SCRIPT", "FAKE_CLAUDE_STDIN_LOG", "FAKE_CLAUDE_ARGS_LOG"];

type StandIn = {
  session: SessionHandle;
  events: Collector;
  stdin(): Promise<Record<string, unknown>[]>;
  args(): Promise<string[][]>;
};

let dirs: string[] = [];
let sessions: SessionHandle[] = [];
let pids: number[] = [];
afterEach(async () => {
  for (const s of sessions) if (s.pid !== undefined) pids.push(s.pid);
  await Promise.all(sessions.map((s) => s.close()));
  // A probe of the stand-in (run beside its spawn) may still be writing its args log.
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true, maxRetries: 5 })));
  for (const pid of pids) expect(processGroupAlive(pid)).toBe(false);
  dirs = [];
  sessions = [];
  pids = [];
});

async function standIn(
  script: FakeClaudeScript,
  controller: SessionController = allowAllController(),
  spec: Partial<SessionSpec> = {},
  options: { collect?: boolean; logger?: Logger } = {},
): Promise<StandIn> {
  const dir = await mkdtemp(join(tmpdir(), "telecode-standin-"));
  dirs.push(dir);
  const { env, stdinLog, argsLog } = await writeFakeClaudeScript(dir, script);
  const engine = createClaudeEngine({
    claudePath: fakeClaudePath,
    env: { PATH: process.env["PATH"], HOME: dir, ...env },
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  const session = engine.openSession({ cwd: dir, permissionMode: "default", envAllow: FAKE_VARS, ...spec }, controller);
  sessions.push(session);
  const track = (): void => {
    if (session.pid !== undefined && !pids.includes(session.pid)) pids.push(session.pid);
  };
  const events =
    options.collect === false
      ? ({ events: [], ended: Promise.resolve() } as unknown as Collector)
      : collect(session, track);
  const readLines = async (file: string): Promise<string[]> =>
    (await readFile(file, "utf8").catch(() => "")).split("\n").filter((l) => l !== "");
  return {
    session,
    events,
    stdin: async () => (await readLines(stdinLog)).map((l) => JSON.parse(l) as Record<string, unknown>),
    args: async () => (await readLines(argsLog)).map((l) => JSON.parse(l) as string[]),
  };
}

const answersTo = (lines: Record<string, unknown>[], requestId: string): Record<string, unknown>[] =>
  lines.filter(
    (l) => l["type"] === "control_response" && (l["response"] as { request_id?: string }).request_id === requestId,
  );

const runDone =
  (runId: string) =>
  (e: TelecodeEvent): boolean =>
    e.type === "run_completed" && e.runId === runId;

describe("engine protocol edge cases (stand-in CLI)", () => {
  it("answers an unknown request subtype with unsupported_request, once, and a duplicate id not again", async () => {
    const t = await standIn({
      steps: [
        { awaitIn: { type: "user" } },
        { out: line.init() },
        { out: { type: "control_request", request_id: "r-odd", request: { subtype: "no_such_subtype" } } },
        { out: { type: "control_request", request_id: "r-odd", request: { subtype: "no_such_subtype" } } },
        { awaitIn: { type: "control_response", request_id: "r-odd" } },
        { out: line.result("done") },
      ],
    });
    const runId = await t.session.startRun("hello");
    await t.events.waitFor(runDone(runId));
    const answers = answersTo(await t.stdin(), "r-odd");
    expect(answers).toHaveLength(1);
    expect(answers[0]?.["response"]).toEqual({
      subtype: "error",
      request_id: "r-odd",
      error: "Unsupported control request subtype: no_such_subtype",
      error_code: "unsupported_request",
    });
  });

  it("leaves a line of a type it does not know (a newer CLI's) out of the run, and logs the type once a process", async () => {
    const logged: { name: string; fields: LogFields; level: string | undefined }[] = [];
    const logger: Logger = {
      ...silentLogger,
      event: (name, fields = {}, level) => logged.push({ name, fields, level }),
    };
    const newer = { type: "turn_metrics", session_id: "sess-fake-1", ttft_ms: 12 };
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init() },
          { out: newer },
          { out: line.text("still here") },
          { out: newer },
          { out: { type: "brand_new", session_id: "sess-fake-1" } },
          { out: line.result("still here") },
        ],
      },
      allowAllController(),
      {},
      { logger },
    );
    const runId = await t.session.startRun("hello");
    const done = await t.events.waitFor(runDone(runId));
    expect(done).toMatchObject({ ok: true, answer: "still here" });
    expect(t.events.events.filter((e) => e.type === "note")).toEqual([]);
    expect(t.events.events).toContainEqual(expect.objectContaining({ type: "text", text: "still here" }));
    const unknown = logged.filter((entry) => entry.name === "claude.unknown_message_type");
    expect(unknown.map((entry) => [entry.fields["type"], entry.level])).toEqual([
      ["turn_metrics", "warn"],
      ["brand_new", "warn"],
    ]);
    expect(unknown[0]?.fields).toMatchObject({ pid: t.session.pid, content: JSON.stringify(newer) });
  });

  it("never writes the answer to a withdrawn request", async () => {
    let release: ((d: ApprovalDecision) => void) | undefined;
    let aborted = false;
    const controller = askController((_request, signal) => {
      signal.addEventListener("abort", () => {
        aborted = true;
      });
      return new Promise((resolve) => {
        release = resolve;
      });
    });
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init() },
          { out: line.canUseTool("r-perm") },
          { sleepMs: 50 },
          { out: { type: "control_cancel_request", request_id: "r-perm" } },
          { out: line.result("moved on") },
          { awaitIn: { type: "user" } },
          { out: line.init() },
          { out: line.result("second") },
        ],
      },
      controller,
    );
    const runId = await t.session.startRun("first");
    await t.events.waitFor((e) => e.type === "approval_withdrawn");
    await t.events.waitFor(runDone(runId));
    expect(aborted).toBe(true);
    release?.({ behavior: "allow", updatedInput: {} });
    // A later run proves the stand-in read everything we wrote after the late decision.
    const second = await t.session.startRun("second");
    await t.events.waitFor(runDone(second));
    expect(answersTo(await t.stdin(), "r-perm")).toEqual([]);
    expect(t.events.events.some((e) => e.type === "approval_resolved")).toBe(false);
  });

  it("turns a write to a dead process into a session error, not a crash", async () => {
    let release: ((d: ApprovalDecision) => void) | undefined;
    const t = await standIn(
      { steps: [{ awaitIn: { type: "user" } }, { out: line.init() }, { out: line.canUseTool("r-late") }, { exit: 0 }] },
      askController(() => new Promise((resolve) => (release = resolve))),
    );
    const runId = await t.session.startRun("hello");
    const done = await t.events.waitFor(runDone(runId));
    expect(done).toMatchObject({ ok: false, cancelled: false });
    expect(done.type === "run_completed" && done.error).toMatchObject({
      reason: "exited",
      what: expect.stringMatching(/^Claude Code exited unexpectedly \(code 0\)/),
    });
    release?.({ behavior: "allow", updatedInput: {} });
    const resolved = await t.events.waitFor((e) => e.type === "approval_resolved");
    expect(resolved).toMatchObject({ requestId: "r-late", decision: "deny", by: "session end" });
  });

  it("answers an approval nobody decided with a deny before stdin closes when the session ends", async () => {
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init() },
          { out: line.canUseTool("r-open") },
          { awaitIn: { type: "never" } },
        ],
      },
      askController(() => new Promise<ApprovalDecision>(() => undefined)),
    );
    const runId = await t.session.startRun("hello");
    await t.events.waitFor((e) => e.type === "approval_requested");
    await t.session.close();
    await t.events.ended;
    const answers = answersTo(await t.stdin(), "r-open");
    expect(answers).toHaveLength(1);
    expect(answers[0]?.["response"]).toMatchObject({
      subtype: "success",
      request_id: "r-open",
      response: { behavior: "deny", message: SESSION_END_MESSAGE },
    });
    expect(t.events.events.find((e) => e.type === "approval_resolved")).toMatchObject({
      requestId: "r-open",
      decision: "deny",
      by: "session end",
    });
    expect(t.events.events.filter(runDone(runId))).toEqual([expect.objectContaining({ ok: false, cancelled: true })]);
  });

  it("does not complete a run with a turn the CLI started by itself", async () => {
    const t = await standIn({
      steps: [
        { awaitIn: { type: "user" } },
        { out: line.init() },
        { out: line.text("background agent finished") },
        { out: line.result("background agent finished", { origin: { kind: "task-notification" } }) },
        { out: line.init() },
        { out: line.text("the real answer") },
        { out: line.result("the real answer") },
      ],
    });
    const runId = await t.session.startRun("hello");
    const done = await t.events.waitFor(runDone(runId));
    expect(done).toMatchObject({ ok: true, answer: "the real answer" });
    expect(t.events.events.filter((e) => e.type === "turn_finished")).toHaveLength(2);
    expect(t.events.events.filter((e) => e.type === "run_completed")).toHaveLength(1);
  });

  it("awaits beforeTurnFinished (e.g. re-arming plan mode) before delivering turn_finished and run_completed", async () => {
    const order: string[] = [];
    const controller: SessionController = {
      ...allowAllController(),
      observe: (e) => order.push(e.type),
      beforeTurnFinished: async ({ session: s }) => {
        order.push("hook");
        await s.setPermissionMode("plan");
        order.push("hook-done");
      },
    };
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init() },
          { out: line.result("ok") },
          { out: line.text("after the result") },
        ],
      },
      controller,
    );
    const runId = await t.session.startRun("hello");
    await t.events.waitFor(runDone(runId));
    await t.events.waitFor((e) => e.type === "text" && e.text === "after the result");
    expect(order.slice(order.indexOf("hook"))).toEqual([
      "hook",
      "hook-done",
      "turn_finished",
      "run_completed",
      "step_usage",
      "text",
    ]);
    const modeRequest = (await t.stdin()).find(
      (l) => (l["request"] as { subtype?: string } | undefined)?.subtype === "set_permission_mode",
    );
    expect(modeRequest?.["request"]).toEqual({ subtype: "set_permission_mode", mode: "plan" });
  });

  it("sends hook matchers at initialize and answers our hook callbacks with the controller's output", async () => {
    const seen: { id: string; input: Record<string, unknown> }[] = [];
    const controller: SessionController = {
      ...allowAllController(),
      hookCallback: (id, input) => {
        seen.push({ id, input });
        return Promise.resolve({
          hookSpecificOutput: {
            hookEventName: "PreToolUse",
            permissionDecision: "deny",
            permissionDecisionReason: "not now",
          },
        });
      },
    };
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init() },
          {
            out: {
              type: "control_request",
              request_id: "h1",
              request: { subtype: "hook_callback", callback_id: "hook_pre_cron", input: { tool_name: "CronCreate" } },
            },
          },
          { awaitIn: { type: "control_response", request_id: "h1" } },
          { out: line.result("ok") },
        ],
      },
      controller,
      { hooks: { PreToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["hook_pre_cron"] }] } },
    );
    const runId = await t.session.startRun("hello");
    await t.events.waitFor(runDone(runId));
    const stdin = await t.stdin();
    expect(stdin[0]).toMatchObject({
      type: "control_request",
      request: {
        subtype: "initialize",
        hooks: { PreToolUse: [{ matcher: "CronCreate", hookCallbackIds: ["hook_pre_cron"] }] },
      },
    });
    expect(seen).toEqual([{ id: "hook_pre_cron", input: { tool_name: "CronCreate" } }]);
    expect(answersTo(stdin, "h1")[0]?.["response"]).toMatchObject({
      subtype: "success",
      response: { hookSpecificOutput: { permissionDecision: "deny" } },
    });
    expect(t.session.initializeReply).toMatchObject({ commands: [] });
  });

  it("asks for a guess at the next message when the spec says, and hands it on after the run's end", async () => {
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init() },
          { out: line.result("ok") },
          { out: { type: "prompt_suggestion", suggestion: " run the tests ", uuid: "u1", session_id: "sess-1" } },
        ],
      },
      allowAllController(),
      { promptSuggestions: true },
    );
    const runId = await t.session.startRun("hello");
    const done = await t.events.waitFor(runDone(runId));
    const guess = await t.events.waitFor((e) => e.type === "prompt_suggested");
    expect(guess).toEqual({ type: "prompt_suggested", text: "run the tests", sessionId: "sess-1" });
    expect(t.events.events.indexOf(guess)).toBeGreaterThan(t.events.events.indexOf(done));
    const stdin = await t.stdin();
    expect(stdin[0]).toMatchObject({
      type: "control_request",
      request: { subtype: "initialize", promptSuggestions: true },
    });
  });

  it("does not ask for guesses by default", async () => {
    const t = await standIn(
      { steps: [{ awaitIn: { type: "user" } }, { out: line.init() }, { out: line.result("ok") }] },
      allowAllController(),
    );
    await t.events.waitFor(runDone(await t.session.startRun("hello")));
    const stdin = await t.stdin();
    expect(stdin[0]?.["request"]).not.toHaveProperty("promptSuggestions");
  });

  it("refuses a second run while one is in flight", async () => {
    const t = await standIn(
      { steps: [{ awaitIn: { type: "user" } }, { out: line.init() }, { awaitIn: { type: "never" } }] },
      allowAllController(),
      { cancelGraceMs: 200 },
    );
    const runId = await t.session.startRun("first");
    expect(t.session.isRunning).toBe(true);
    const second = await t.session.startRun("second").catch((error: unknown) => error);
    expect(isClaudeError(second, "claude.run_in_flight")).toBe(true);
    await t.session.cancelRun(runId);
    expect(await t.events.waitFor(runDone(runId))).toMatchObject({ cancelled: true, ok: false });
  });

  it("continues the last conversation first, then resumes by session id after the process ended", async () => {
    const t = await standIn(
      {
        steps: [
          { awaitIn: { type: "user" } },
          { out: line.init("sess-42") },
          { out: line.result("one", {}, "sess-42") },
          { exit: 0 },
        ],
      },
      allowAllController(),
      {
        continue: true,
        model: "claude-fake",
        effort: "high",
        allowedTools: ["Read", "Grep"],
        extraArgs: ["--add-dir", "/tmp"],
      },
    );
    const first = await t.session.startRun("one");
    await t.events.waitFor(runDone(first));
    await expectPoll(() => t.session.pid === undefined);
    const second = await t.session.startRun("two");
    await t.events.waitFor(runDone(second));
    const [a, b] = (await t.args()).filter((args) => !args.includes("--help") && !args.includes("--version"));
    expect(a).toEqual([
      "--output-format",
      "stream-json",
      "--input-format",
      "stream-json",
      "--verbose",
      "--permission-mode",
      "default",
      "--permission-prompt-tool",
      "stdio",
      "--include-hook-events",
      "--continue",
      "--model",
      "claude-fake",
      "--effort",
      "high",
      "--allowedTools",
      "Read,Grep",
      "--add-dir",
      "/tmp",
    ]);
    expect(b).toContain("--resume");
    expect(b?.[b.indexOf("--resume") + 1]).toBe("sess-42");
    expect(b).not.toContain("--continue");
    // The project had no session to continue: said once, for the first process.
    expect(t.events.events.filter((e) => e.type === "note" && e.key === SESSION_GONE_NOTE)).toEqual([
      {
        type: "note",
        kind: "warning",
        key: SESSION_GONE_NOTE,
        text: "There is no earlier Claude Code session in this project to continue, so this message starts a fresh one.",
      },
    ]);
  });

  it("probes --help once per binary, and warns at every start when approvals are bypassed", async () => {
    const t = await standIn(
      { steps: [{ awaitIn: { type: "user" } }, { out: line.init() }, { out: line.result("one") }, { exit: 0 }] },
      allowAllController(),
      { dangerouslySkipPermissions: true },
    );
    const first = await t.session.startRun("one");
    await t.events.waitFor(runDone(first));
    await expectPoll(() => t.session.pid === undefined);
    const second = await t.session.startRun("two");
    await t.events.waitFor(runDone(second));
    // The probe runs beside the first start (niced): wait for it, then it is the only one.
    await expectPoll(async () => (await t.args()).some((a) => a.includes("--help")));
    const all = await t.args();
    expect(all.filter((a) => a.includes("--help"))).toHaveLength(1);
    const spawns = all.filter((a) => a.includes("--output-format"));
    expect(spawns).toHaveLength(2);
    for (const a of spawns) expect(a).toContain("--dangerously-skip-permissions");
    const warnings = t.events.events.filter(
      (e) => e.type === "note" && e.kind === "warning" && e.text.startsWith("Approvals are bypassed"),
    );
    expect(warnings).toHaveLength(2);
  });

  it("stops reading stdout while the consumer lags, and loses nothing", async () => {
    const dir = await mkdtemp(join(tmpdir(), "telecode-standin-"));
    dirs.push(dir);
    const lines = [JSON.stringify(line.init())];
    for (let i = 0; i < 200; i++) lines.push(JSON.stringify(line.text(`line ${i} ${"x".repeat(200)}`)));
    await writeFile(join(dir, "stream.jsonl"), `${lines.join("\n")}\n`);
    let observed = 0;
    const controller: SessionController = { ...allowAllController(), observe: () => void (observed += 1) };
    const script: FakeClaudeScript = {
      steps: [
        { awaitIn: { type: "user" } },
        { replay: join(dir, "stream.jsonl"), times: 50 },
        { out: line.result("end") },
      ],
    };
    const t = await standIn(script, controller, {}, { collect: false });
    await t.session.startRun("go");
    if (t.session.pid !== undefined) pids.push(t.session.pid);
    let consumed = 0;
    let maxAhead = 0;
    let texts = 0;
    let last = -1;
    let inOrder = true;
    for await (const e of t.session.events()) {
      consumed += 1;
      maxAhead = Math.max(maxAhead, observed - consumed);
      if (e.type === "text") {
        const n = Number(/^line (\d+)/.exec(e.text)?.[1]);
        if (n !== (last + 1) % 200) inOrder = false;
        last = n;
        texts += 1;
      }
      if (e.type === "run_completed") break;
      // A slow consumer: one event per turn of the event loop, while stdout could deliver thousands.
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(texts).toBe(200 * 50);
    expect(inOrder).toBe(true);
    expect(maxAhead).toBeLessThan(1500);
  });
});

async function expectPoll(condition: () => boolean | Promise<boolean>): Promise<void> {
  await expect.poll(condition, { timeout: 10_000, interval: 20 }).toBe(true);
}
