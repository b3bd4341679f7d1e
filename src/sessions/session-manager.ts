// Orchestrates runs over live sessions: one run at a time per session key, a FIFO queue
// behind it, session choice (current / new / continue / resume), cancel, and drain on stop.
// Transport-neutral: front ends pass a RunObserver; nothing here knows Telegram or a TTY.
import { randomUUID } from "node:crypto";
import type { PermissionMode, RunCompleted, TelecodeEvent } from "../domain/index.js";
import type {
  BackgroundObserver,
  Clock,
  EnginePort,
  LiveSession,
  OpenRequest,
  RunEndState,
  RunObserver,
  SessionChoice,
  SessionKey,
  SessionRecords,
} from "./ports.js";

export type Submission = {
  key: SessionKey;
  prompt: string;
  cwd: string;
  mode: PermissionMode;
  model?: string;
  effort?: string;
  choice: SessionChoice;
  unattended?: boolean;
  observer: RunObserver;
};

export type SubmitOutcome =
  | { state: "started"; runId: string }
  | { state: "queued"; runId: string; position: number }
  | { state: "refused"; reason: string };

export type CancelOutcome = "cancelled" | "dequeued" | "not_found";

export type SessionStatus = {
  key: SessionKey;
  sessionId: string | undefined;
  pid: number | undefined;
  runningRunId: string | undefined;
  queued: number;
  mode: PermissionMode;
};

type Pending = Submission & { runId: string };

type Entry = {
  key: SessionKey;
  session: LiveSession;
  opened: Pick<OpenRequest, "cwd" | "mode" | "model" | "effort">;
  sessionId: string | undefined;
  active: { runId: string; observer: RunObserver; startedAtMs: number; sawSessionId: boolean } | undefined;
  endState: RunEndState | undefined;
  pump: Promise<void>;
};

export type SessionManagerDeps = {
  engine: EnginePort;
  records: SessionRecords;
  clock: Clock;
  background?: BackgroundObserver;
  /** Called when something unexpected failed inside the manager (logged by the caller). */
  onError?: (error: unknown, context: { key: SessionKey; runId?: string }) => void;
};

const keyOf = (key: SessionKey): string => `${key.chatId}\u0000${key.project}`;

export class SessionManager {
  private readonly entries = new Map<string, Entry>();
  private readonly queues = new Map<string, Pending[]>();
  private readonly starting = new Set<string>();
  private readonly idleWaiters = new Set<() => void>();
  private accepting = true;
  private stopping = false;

  constructor(private readonly deps: SessionManagerDeps) {}

  /** Starts the submission now, or queues it behind the key's running run. */
  submit(submission: Submission): SubmitOutcome {
    if (!this.accepting) return { state: "refused", reason: "Telecode is stopping; send it again in a minute." };
    const runId = randomUUID();
    const k = keyOf(submission.key);
    const queue = this.queues.get(k) ?? [];
    this.queues.set(k, queue);
    queue.push({ ...submission, runId });
    if (this.isBusy(k)) return { state: "queued", runId, position: queue.length };
    this.startNext(k);
    return { state: "started", runId };
  }

  /** Cancels a running run (interrupt) or removes a queued one. */
  async cancel(runId: string): Promise<CancelOutcome> {
    for (const [k, queue] of this.queues) {
      const index = queue.findIndex((p) => p.runId === runId);
      if (index < 0) continue;
      const [pending] = queue.splice(index, 1);
      if (queue.length === 0) this.queues.delete(k);
      if (pending) await this.completeUnstarted(pending, "cancelled", "Cancelled before it started.");
      return "dequeued";
    }
    for (const entry of this.entries.values()) {
      if (entry.active?.runId !== runId) continue;
      await entry.session.cancelRun(runId);
      return "cancelled";
    }
    return "not_found";
  }

  /** Cancels every running and queued run of a chat; returns how many. */
  async cancelChat(chatId: number): Promise<number> {
    const ids = [
      ...[...this.queues.values()]
        .flat()
        .filter((p) => p.key.chatId === chatId)
        .map((p) => p.runId),
      ...[...this.entries.values()].flatMap((e) => (e.key.chatId === chatId && e.active ? [e.active.runId] : [])),
    ];
    const outcomes = await Promise.all(ids.map((id) => this.cancel(id)));
    return outcomes.filter((o) => o !== "not_found").length;
  }

  /** The run in flight for a key, if any. */
  runningRun(key: SessionKey): string | undefined {
    return this.entries.get(keyOf(key))?.active?.runId;
  }

  /** Closes the key's live process when it is idle (a mode or model change then applies on the next run). */
  async closeIdle(key: SessionKey): Promise<boolean> {
    const k = keyOf(key);
    const entry = this.entries.get(k);
    if (!entry || this.isBusy(k)) return false;
    this.entries.delete(k);
    await entry.session.close();
    await entry.pump;
    return true;
  }

  status(chatId?: number): SessionStatus[] {
    return [...this.entries.values()]
      .filter((e) => chatId === undefined || e.key.chatId === chatId)
      .map((e) => ({
        key: e.key,
        sessionId: e.sessionId ?? e.session.sessionId,
        pid: e.session.pid,
        runningRunId: e.active?.runId,
        queued: this.queues.get(keyOf(e.key))?.length ?? 0,
        mode: e.opened.mode,
      }));
  }

  /**
   * Stops taking new submissions, lets running runs finish for `drainMs`, then cancels the
   * rest (recorded as interrupted), tells queued submissions they did not run, and closes
   * every session through the engine's one shutdown path.
   */
  async shutdown(drainMs: number): Promise<void> {
    this.accepting = false;
    for (const [k, queue] of this.queues) {
      this.queues.delete(k);
      for (const pending of queue) {
        await this.completeUnstarted(
          pending,
          "interrupted",
          "Telecode stopped before this message ran; send it again.",
        );
      }
    }
    await this.waitIdle(drainMs);
    this.stopping = true;
    for (const entry of this.entries.values()) {
      if (entry.active) {
        entry.endState = "interrupted";
        await entry.session.cancelRun(entry.active.runId).catch((error: unknown) => this.report(error, entry.key));
      }
    }
    const entries = [...this.entries.values()];
    this.entries.clear();
    await Promise.all(
      entries.map(async (e) => {
        await e.session.close();
        await e.pump;
      }),
    );
  }

  private isBusy(k: string): boolean {
    return this.starting.has(k) || this.entries.get(k)?.active !== undefined;
  }

  /** Resolves when no run is in flight, or after `timeoutMs`, whichever comes first. */
  private async waitIdle(timeoutMs: number): Promise<void> {
    if (!this.hasActiveRun()) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.idleWaiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.idleWaiters.add(done);
    });
  }

  private hasActiveRun(): boolean {
    return [...this.entries.values()].some((e) => e.active);
  }

  private startNext(k: string): void {
    const queue = this.queues.get(k);
    const next = queue?.shift();
    if (queue?.length === 0) this.queues.delete(k);
    if (!next || this.stopping) return;
    this.starting.add(k);
    this.startRun(k, next)
      .catch(async (error: unknown) => {
        this.report(error, next.key, next.runId);
        await this.completeUnstarted(next, "failed", describeStartError(error));
        this.startNext(k);
      })
      .finally(() => this.starting.delete(k));
  }

  private async startRun(k: string, next: Pending): Promise<void> {
    const entry = await this.entryFor(k, next);
    const startedAtMs = this.deps.clock.now();
    entry.active = { runId: next.runId, observer: next.observer, startedAtMs, sawSessionId: false };
    entry.endState = undefined;
    this.deps.records.runStarted({
      runId: next.runId,
      key: next.key,
      sessionId: entry.sessionId ?? entry.session.sessionId,
      startedAtMs,
    });
    try {
      await entry.session.startRun(next.prompt, { unattended: next.unattended ?? false, runId: next.runId });
    } catch (error) {
      entry.active = undefined;
      throw error;
    }
  }

  /** The live entry a submission runs in, opening or reopening the CLI session as its choice says. */
  private async entryFor(k: string, next: Pending): Promise<Entry> {
    const existing = this.entries.get(k);
    const wanted = {
      cwd: next.cwd,
      mode: next.mode,
      ...(next.model ? { model: next.model } : {}),
      ...(next.effort ? { effort: next.effort } : {}),
    };
    const choice = next.choice;
    const sameSettings = existing !== undefined && sameOpen(existing.opened, wanted);
    if (existing && choice.kind === "current" && sameSettings) return existing;
    const currentId = existing?.sessionId ?? existing?.session.sessionId;
    if (existing && choice.kind === "resume" && sameSettings && currentId === choice.sessionId) return existing;
    if (existing) {
      this.entries.delete(k);
      await existing.session.close();
      await existing.pump;
    }
    const request: OpenRequest = { key: next.key, ...wanted };
    if (choice.kind === "continue") request.continueLatest = true;
    const resume =
      choice.kind === "resume"
        ? choice.sessionId
        : choice.kind === "current"
          ? (currentId ?? this.deps.records.lastSessionId(next.key))
          : undefined;
    if (resume) request.resume = resume;
    const session = this.deps.engine.openSession(request);
    const entry: Entry = {
      key: next.key,
      session,
      opened: wanted,
      sessionId: resume,
      active: undefined,
      endState: undefined,
      pump: Promise.resolve(),
    };
    entry.pump = this.pump(k, entry);
    this.entries.set(k, entry);
    return entry;
  }

  /** Routes a session's events to the run that owns them, in order, awaiting each (backpressure). */
  private async pump(k: string, entry: Entry): Promise<void> {
    try {
      for await (const event of entry.session.events()) await this.route(k, entry, event);
    } catch (error) {
      this.report(error, entry.key, entry.active?.runId);
    }
    const active = entry.active;
    if (active) {
      // The engine promises a run_completed per run; if its stream ended without one, say so.
      await this.route(k, entry, {
        type: "run_completed",
        runId: active.runId,
        ok: false,
        answer: "",
        interrupted: true,
        cancelled: false,
        costUsd: 0,
        durationMs: this.deps.clock.now() - active.startedAtMs,
        error: "The Claude session ended before this run finished; send the message again to continue.",
      });
    }
  }

  private async route(k: string, entry: Entry, event: TelecodeEvent): Promise<void> {
    if (event.type === "session_started" && event.sessionId !== entry.sessionId) {
      entry.sessionId = event.sessionId;
      this.deps.records.rememberSession(entry.key, event.sessionId);
    }
    const active = entry.active;
    if (!active) {
      await this.deps.background?.(entry.key, event);
      return;
    }
    if (event.type !== "run_completed") {
      await this.deliver(active.observer, event, entry.key, active.runId);
      return;
    }
    entry.active = undefined;
    if (!this.hasActiveRun()) for (const wake of [...this.idleWaiters]) wake();
    const state = entry.endState ?? endStateOf(event);
    entry.endState = undefined;
    const sessionId = event.sessionId ?? entry.sessionId;
    this.deps.records.runFinished({
      runId: active.runId,
      state,
      costUsd: event.costUsd,
      endedAtMs: this.deps.clock.now(),
      ...(event.error ? { error: event.error } : {}),
      ...(sessionId ? { sessionId } : {}),
    });
    await this.deliver(
      active.observer,
      sessionId && !event.sessionId ? { ...event, sessionId } : event,
      entry.key,
      active.runId,
    );
    if (this.entries.get(k) === entry) this.startNext(k);
  }

  private async deliver(observer: RunObserver, event: TelecodeEvent, key: SessionKey, runId: string): Promise<void> {
    try {
      await observer.onEvent(event);
    } catch (error) {
      this.report(error, key, runId);
    }
  }

  private async completeUnstarted(pending: Pending, state: RunEndState, error: string): Promise<void> {
    const event: RunCompleted = {
      type: "run_completed",
      runId: pending.runId,
      ok: false,
      answer: "",
      error,
      interrupted: state === "interrupted",
      cancelled: state === "cancelled",
      costUsd: 0,
      durationMs: 0,
    };
    await this.deliver(pending.observer, event, pending.key, pending.runId);
  }

  private report(error: unknown, key: SessionKey, runId?: string): void {
    this.deps.onError?.(error, runId ? { key, runId } : { key });
  }
}

function sameOpen(a: Entry["opened"], b: Entry["opened"]): boolean {
  return a.cwd === b.cwd && a.mode === b.mode && a.model === b.model && a.effort === b.effort;
}

function endStateOf(event: RunCompleted): RunEndState {
  if (event.cancelled) return "cancelled";
  if (event.ok) return "completed";
  return event.interrupted ? "interrupted" : "failed";
}

function describeStartError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
