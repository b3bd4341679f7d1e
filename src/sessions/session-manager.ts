// Orchestrates runs over live session handles: one run at a time per lane, a FIFO queue
// behind it (kept in the records until each run starts), session choice (current / new /
// continue / resume: lane-opening.ts), cancel, and drain on stop (runs in kept processes are let go of instead,
// and taken in again after a restart). Transport-neutral: front ends pass a RunObserver.
import { randomUUID } from "node:crypto";
import {
  laneId,
  type Lane,
  type McpSignInEnd,
  type McpSignInStart,
  type Prompt,
  type RunFailure,
  type SideAnswer,
  type SideExchange,
  type WrittenDown,
} from "../domain/index.js";
import type { Clock } from "../ports/index.js";
import { deliver, pumpEvents, type LaneEntry, type RoutingDeps } from "./lane-entry.js";
import { fitsLiveHandle, liveSessionOf, openEntry, startRunOn, type StartingRun } from "./lane-opening.js";
import { SessionsError } from "./errors.js";
import type { BackgroundObserver, EnginePort, RunEndState, SessionHandle, SessionRecords } from "./ports.js";
import { amendKept, holdKept, keepSubmission, releaseKept, type Recording } from "./kept-submissions.js";
import { NOT_STARTED, startFailure, unstartedCompletion, withoutRetry } from "./run-endings.js";
import type { AdoptedRun, CancelOutcome, SessionStatus, Submission, SubmitOutcome } from "./submission.js";

/** A submission in the queue; `kept` when the records keep it until it starts (a restart runs it). */
type Pending = StartingRun & { kept: boolean };

export type SessionManagerDeps = {
  engine: EnginePort;
  records: SessionRecords;
  clock: Clock;
  background?: BackgroundObserver;
  /** Called when something unexpected failed inside the manager (logged by the caller). */
  onError?: (error: unknown, context: { lane: Lane; runId?: string }) => void;
};

export class SessionManager {
  readonly #deps: SessionManagerDeps;
  readonly #routing: RoutingDeps;
  readonly #recording: Recording;
  /** The live entry per lane id. */
  readonly #entries = new Map<string, LaneEntry>();
  readonly #queues = new Map<string, Pending[]>();
  /** Lanes whose next run is being started (opening a handle, writing the prompt), with that run. */
  readonly #starting = new Map<string, Pending>();
  /** Runs being started whose cancel came before the handle had them. */
  readonly #cancelledWhileStarting = new Set<string>();
  /** Starts under way, settled once each run started or ended unstarted (a stop waits for them). */
  readonly #startsInFlight = new Set<Promise<void>>();
  readonly #idleWaiters = new Set<() => void>();
  #accepting = true;
  #stopping = false;

  constructor(deps: SessionManagerDeps) {
    this.#deps = deps;
    this.#recording = {
      records: deps.records,
      clock: deps.clock,
      report: (error, lane, runId) => this.#report(error, lane, runId),
    };
    this.#routing = {
      records: deps.records,
      clock: deps.clock,
      background: deps.background,
      report: (error, lane, runId) => this.#report(error, lane, runId),
      onRunCleared: () => {
        if (!this.#hasActiveRun()) for (const wake of [...this.#idleWaiters]) wake();
      },
      onRunEnded: (entry) => {
        const id = laneId(entry.lane);
        if (this.#entries.get(id) === entry) this.#startNext(id);
      },
    };
  }

  /** Starts the submission now, or queues it behind the lane's running run. */
  submit(submission: Submission): SubmitOutcome {
    if (!this.#accepting) return { state: "refused", reason: "Telecode is stopping; send it again in a minute." };
    const runId = submission.runId ?? randomUUID();
    const id = laneId(submission.lane);
    const queue = this.#queues.get(id) ?? [];
    this.#queues.set(id, queue);
    const kept = keepSubmission(this.#recording, submission, runId);
    queue.push({ ...submission, runId, kept });
    if (this.#isBusy(id)) return { state: "queued", runId, position: queue.length };
    this.#startNext(id);
    return { state: "started", runId };
  }

  /** Takes in a kept run after a restart; false (nothing done) when the lane already has a handle or Telecode is stopping. */
  adopt(adopted: AdoptedRun): boolean {
    const id = laneId(adopted.lane);
    if (!this.#accepting || this.#entries.has(id) || this.#starting.has(id)) return false;
    const entry: LaneEntry = {
      lane: adopted.lane,
      handle: adopted.handle,
      opened: adopted.settings,
      sessionId: adopted.sessionId,
      // The previous Telecode recorded it when the run began.
      sessionRecorded: adopted.sessionId !== undefined,
      sessionLost: false,
      active: adopted.run,
      endState: undefined,
      foreignTurn: false,
      pump: Promise.resolve(),
    };
    entry.pump = pumpEvents(this.#routing, entry);
    this.#entries.set(id, entry);
    return true;
  }

  /** Cancels a running run (interrupt) or removes a queued one. */
  async cancel(runId: string): Promise<CancelOutcome> {
    for (const [id, queue] of this.#queues) {
      const index = queue.findIndex((p) => p.runId === runId);
      if (index < 0) continue;
      const [pending] = queue.splice(index, 1);
      if (queue.length === 0) this.#queues.delete(id);
      if (pending) {
        if (pending.kept) releaseKept(this.#recording, pending.lane, pending.runId);
        await this.#completeUnstarted(pending, "cancelled", undefined);
      }
      return "dequeued";
    }
    for (const entry of this.#entries.values()) {
      if (entry.active?.runId !== runId) continue;
      await entry.handle.cancelRun(runId);
      return "cancelled";
    }
    // Its session is still opening (another mode or model closes the old process first).
    if ([...this.#starting.values()].some((p) => p.runId === runId)) {
      this.#cancelledWhileStarting.add(runId);
      return "cancelled";
    }
    return "not_found";
  }

  /**
   * A queued run the chat's message `promptMessageId` asked for takes the prompt `amend` makes of
   * its own (the person edited the message before it started): "amended"; "unchanged" when
   * `amend` gives none; "not_queued" when no run waits with that message's prompt. A run whose
   * session is still opening (the lane's old process closing first) has not sent its prompt
   * either, so it is amended too.
   */
  amendQueued(
    chatId: number,
    promptMessageId: number,
    amend: (prompt: Prompt) => Prompt | undefined,
  ): "amended" | "unchanged" | "not_queued" {
    const opening = [...this.#starting].flatMap(([id, p]) =>
      this.#entries.get(id)?.active?.runId === p.runId ? [] : [p],
    );
    const pending = [...this.#queues.values(), opening]
      .flat()
      .find((p) => p.lane.chatId === chatId && p.promptMessageId === promptMessageId);
    if (pending === undefined) return "not_queued";
    const prompt = amend(pending.prompt);
    if (prompt === undefined) return "unchanged";
    pending.prompt = prompt;
    if (pending.kept) amendKept(this.#recording, pending, pending.runId);
    return "amended";
  }

  /** Cancels every running and queued run of a chat; returns how many. */
  async cancelChat(chatId: number): Promise<number> {
    const ids = [
      ...[...this.#queues.values()]
        .flat()
        .filter((p) => p.lane.chatId === chatId)
        .map((p) => p.runId),
      ...[...this.#entries.values()].flatMap((e) => (e.lane.chatId === chatId && e.active ? [e.active.runId] : [])),
      ...[...this.#starting.values()].filter((p) => p.lane.chatId === chatId).map((p) => p.runId),
    ];
    const outcomes = await Promise.all(ids.map((id) => this.cancel(id)));
    return outcomes.filter((o) => o !== "not_found").length;
  }

  /**
   * What the CLI wrote down of `sessionId` in `cwd`, and whether the message written with
   * `messageUuid` is in it (a CLI killed moments after taking a message may not have written
   * it yet). Never throws: when the engine cannot tell, the answer is "conversation", and a
   * resume that fails says so itself.
   */
  writtenDown(lane: Lane, cwd: string, sessionId: string, messageUuid?: string): Promise<WrittenDown> {
    return this.#deps.engine
      .writtenDown({ lane, cwd }, sessionId, messageUuid)
      .catch((): WrittenDown => "conversation");
  }

  /** Whether the lane has a run starting, running or queued (a schedule's fire then skips its turn). */
  isBusy(lane: Lane): boolean {
    const id = laneId(lane);
    return this.#isBusy(id) || (this.#queues.get(id)?.length ?? 0) > 0;
  }

  /** The run in flight in a lane, if any. */
  runningRun(lane: Lane): string | undefined {
    return this.#entries.get(laneId(lane))?.active?.runId;
  }

  /**
   * Begins a sign-in to MCP server `server` in the lane's Claude Code process; throws a
   * SessionsError `sessions.no_process` when the lane has none running now.
   */
  async mcpSignIn(lane: Lane, server: string): Promise<McpSignInStart> {
    return this.#liveHandle(lane).mcpSignIn(server);
  }

  /** Finishes a sign-in the lane's process began, with the address its page sent the browser to. */
  async mcpSignInCallback(lane: Lane, server: string, callbackUrl: string): Promise<McpSignInEnd> {
    return this.#liveHandle(lane).mcpSignInCallback(server, callbackUrl);
  }

  /** Asks the lane's Claude Code process a side question; throws as mcpSignIn does without one. */
  async sideQuestion(lane: Lane, question: string, history?: readonly SideExchange[]): Promise<SideAnswer> {
    return this.#liveHandle(lane).sideQuestion(question, history);
  }

  /** Closes the lane's live handle when it is idle (a mode or model change then applies on the next run). */
  async closeIdle(lane: Lane): Promise<boolean> {
    const id = laneId(lane);
    const entry = this.#entries.get(id);
    if (!entry || this.#isBusy(id)) return false;
    this.#entries.delete(id);
    await entry.handle.close();
    await entry.pump;
    return true;
  }

  status(chatId?: number): SessionStatus[] {
    return [...this.#entries.values()]
      .filter((e) => chatId === undefined || e.lane.chatId === chatId)
      .map((e) => ({
        lane: e.lane,
        sessionId: e.sessionId ?? e.handle.sessionId,
        pid: e.handle.pid,
        runningRunId: e.active?.runId,
        queued: this.#queues.get(laneId(e.lane))?.length ?? 0,
        mode: e.opened.mode,
        kept: e.active !== undefined && e.handle.isKept === true,
      }));
  }

  /**
   * Stops taking new submissions, lets go of runs whose process is kept (they go on, for the
   * next Telecode to take in), lets the other running runs finish for `drainMs`, then cancels
   * the rest (recorded as interrupted), and closes every handle through the engine's one
   * shutdown path. Queued submissions the records keep stay kept (the next start runs them;
   * their observers hear nothing more from this process); the others are told they did not run.
   */
  async shutdown(drainMs: number): Promise<void> {
    this.#accepting = false;
    for (const [id, queue] of this.#queues) {
      this.#queues.delete(id);
      for (const pending of queue) {
        if (!pending.kept) await this.#completeUnstarted(pending, "interrupted", NOT_STARTED);
      }
    }
    // A run whose session is still opening either starts (and drains with the others) or stays queued.
    await Promise.all(this.#startsInFlight);
    await this.#detachKept();
    await this.#waitIdle(drainMs);
    this.#stopping = true;
    for (const entry of this.#entries.values()) {
      if (entry.active) {
        entry.endState = "interrupted";
        await entry.handle.cancelRun(entry.active.runId).catch((error: unknown) => this.#report(error, entry.lane));
      }
    }
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.all(
      entries.map(async (e) => {
        await e.handle.close();
        await e.pump;
      }),
    );
  }

  /** Lets go of every running run whose process is kept; their entries leave once handed over. */
  async #detachKept(): Promise<void> {
    const kept = [...this.#entries].filter(([, e]) => e.active !== undefined && e.handle.isKept === true);
    await Promise.all(
      kept.map(async ([id, entry]) => {
        if (!(await entry.handle.detach?.().catch((error: unknown) => this.#report(error, entry.lane)))) return;
        if (this.#entries.get(id) === entry) this.#entries.delete(id);
        await entry.pump;
      }),
    );
  }

  #isBusy(id: string): boolean {
    return this.#starting.has(id) || this.#entries.get(id)?.active !== undefined;
  }

  /**
   * The lane's handle, for what goes through its Claude Code process (a sign-in, a side question):
   * the handle says when it has none running; a lane without one has none either.
   */
  #liveHandle(lane: Lane): SessionHandle {
    const handle = this.#entries.get(laneId(lane))?.handle;
    if (handle === undefined)
      throw new SessionsError("sessions.no_process", "No Claude Code process is running in this lane now.", {
        details: { lane: laneId(lane) },
      });
    return handle;
  }

  /** Resolves when no run is in flight, or after `timeoutMs`, whichever comes first. */
  async #waitIdle(timeoutMs: number): Promise<void> {
    if (!this.#hasActiveRun()) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        timer.cancel();
        this.#idleWaiters.delete(done);
        resolve();
      };
      const timer = this.#deps.clock.setTimer(timeoutMs, done);
      this.#idleWaiters.add(done);
    });
  }

  #hasActiveRun(): boolean {
    return [...this.#entries.values()].some((e) => e.active);
  }

  #startNext(id: string): void {
    const queue = this.#queues.get(id);
    const next = queue?.shift();
    if (queue?.length === 0) this.#queues.delete(id);
    if (!next || this.#stopping) return;
    this.#starting.set(id, next);
    const start = this.#start(id, next)
      .catch((error: unknown) => {
        this.#report(error, next.lane, next.runId);
        return false;
      })
      .then((started) => {
        // A run that ended meanwhile may have started the next one already: that one is starting now.
        if (this.#starting.get(id) === next) this.#starting.delete(id);
        if (!started) this.#startNext(id);
      });
    this.#startsInFlight.add(start);
    void start.finally(() => this.#startsInFlight.delete(start));
  }

  /** Starts `next`; false when it ended without starting (it may no longer, was cancelled, or failed to). */
  async #start(id: string, next: Pending): Promise<boolean> {
    const refusal = next.mayStart?.();
    if (refusal !== undefined) {
      // Its observer hears of the end after submit has said the run started, never before.
      await Promise.resolve();
      return this.#endUnstarted(next, "failed", refusal);
    }
    try {
      await next.prepare?.();
      const entry = await this.#entryFor(id, next);
      if (this.#cancelledWhileStarting.delete(next.runId)) return this.#endUnstarted(next, "cancelled", undefined);
      // Telecode began to stop while the session opened: the run is left as if still queued.
      if (!this.#accepting) {
        if (!next.kept) await this.#completeUnstarted(next, "interrupted", NOT_STARTED);
        return false;
      }
      await startRunOn(this.#routing, entry, next);
      return true;
    } catch (error) {
      this.#cancelledWhileStarting.delete(next.runId);
      this.#report(error, next.lane, next.runId);
      return this.#endUnstarted(next, "failed", startFailure(error));
    }
  }

  /**
   * Ends a run that never reached the engine: its kept submission is let go of (or kept for
   * Retry, when its failure offers that), its observer told.
   */
  async #endUnstarted(next: Pending, state: RunEndState, error: RunFailure | undefined): Promise<false> {
    const held = error?.retry === true && next.kept && holdKept(this.#recording, next.lane, next.runId);
    if (next.kept && !held) releaseKept(this.#recording, next.lane, next.runId);
    await this.#completeUnstarted(next, state, error?.retry === true && !held ? withoutRetry(error) : error);
    return false;
  }

  /** The live entry a submission runs in, opening or reopening the lane's handle as its choice says. */
  async #entryFor(id: string, next: Pending): Promise<LaneEntry> {
    const existing = this.#entries.get(id);
    if (existing !== undefined && fitsLiveHandle(existing, next)) return existing;
    const current = liveSessionOf(existing);
    if (existing) {
      this.#entries.delete(id);
      await existing.handle.close();
      await existing.pump;
    }
    const records = this.#deps.records;
    const opening = {
      engine: this.#deps.engine,
      routing: this.#routing,
      lastSessionId: (lane: Lane) => records.lastSessionId(lane),
    };
    const entry = openEntry(opening, next, current);
    this.#entries.set(id, entry);
    return entry;
  }

  async #completeUnstarted(pending: Pending, state: RunEndState, error: RunFailure | undefined): Promise<void> {
    const event = unstartedCompletion(pending.runId, state, error);
    await deliver(this.#routing, pending.observer, event, pending.lane, pending.runId);
  }

  #report(error: unknown, lane: Lane, runId?: string): void {
    this.#deps.onError?.(error, runId ? { lane, runId } : { lane });
  }
}
