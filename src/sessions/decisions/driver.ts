// Connects one session's pure decision machine (src/policy) to the engine and a front end:
// the engine calls it as its SessionController; it carries out the machine's effects (answer
// the CLI, ask / inform the person, timers, set_permission_mode) and owns no decisions itself.
import { randomBytes } from "node:crypto";
import type {
  ApprovalAnswer,
  ApprovalRequest,
  FileNow,
  Lane,
  TelecodeEvent,
  TurnFinished,
} from "../../domain/index.js";
import {
  asksPerson,
  initialPolicyState,
  noLongerPendingMessage,
  stepPolicy,
  type AnswerVerdict,
  type DecisionSettings,
  type PendingDecision,
  type PolicyEffect,
  type PolicyInput,
  type PolicyState,
  type RunInfo,
} from "../../policy/index.js";
import type { Clock, TimerHandle } from "../../ports/index.js";
import type { DecisionSessionControls, OwnHookHandler, PendingDecisionView, PersonPort } from "./ports.js";
import type { DecisionRegistry } from "./registry.js";

/** The tools whose prompt shows what their file holds now. */
const FILE_TOOLS: ReadonlySet<string> = new Set(["Edit", "Write"]);

/** What decide() resolves to: the engine's ApprovalDecision (the answer plus who decided). */
export type DriverDecision = ApprovalAnswer & { by?: string };

export type DecisionDriverOptions = {
  /** The lane (chat or terminal, and project) the decisions belong to. */
  lane: Lane;
  settings?: Partial<DecisionSettings>;
  port: PersonPort;
  registry: DecisionRegistry;
  clock: Clock;
  /** Telecode's own hook callbacks by callback id; every other hook callback gets `{}`. */
  ownHooks?: ReadonlyMap<string, OwnHookHandler>;
  /** Decision ids must be unique across sessions; default 12 random hex characters. */
  newDecisionId?: () => string;
  /**
   * The decision a previous Telecode opened for this request, when the CLI asks it again (a
   * kept run re-attached after a restart): reusing its id keeps its message and buttons.
   */
  recordedDecisionId?: (request: { runId: string | undefined; requestId: string }) => string | undefined;
  /** A front end's port threw; the decision goes on regardless. */
  onPortError?: (error: unknown, call: "ask" | "settled" | "inform") => void;
  /** The file an Edit or Write targets, read when it is put to the person; undefined when unknown. */
  fileNow?: (request: ApprovalRequest) => FileNow | undefined;
};

export type DecisionDriver = {
  observe(event: TelecodeEvent): void;
  decide(request: ApprovalRequest, ctx: { signal: AbortSignal; run: RunInfo | undefined }): Promise<DriverDecision>;
  hookCallback(
    callbackId: string,
    input: Record<string, unknown>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
  /** The re-arm point: resolves only after a needed set_permission_mode plan was acked (or failed). */
  beforeTurnFinished(ctx: { session: DecisionSessionControls; turn: TurnFinished }): Promise<void>;
  /** Call before writing a follow-up message: re-arms plan mode if it is still needed. */
  beforeFollowUp(session: DecisionSessionControls): Promise<void>;
  /** The chat's switches changed (mode, previews, questions, re-arm, timeout). */
  updateSettings(settings: Partial<DecisionSettings>): void;
  /** The session ended: every open decision expires; later taps get "no longer pending". */
  end(): void;
  /**
   * The session went on without this process (its kept CLI was handed over): timers stop and
   * nothing more is settled, asked or answered; open decisions stay open in the record.
   */
  abandon(): void;
  /** The machine's state, read-only (mode in effect, open decisions). */
  readonly state: PolicyState;
};

export function createDecisionDriver(options: DecisionDriverOptions): DecisionDriver {
  const { lane, port, registry, clock } = options;
  const newId = options.newDecisionId ?? (() => randomBytes(6).toString("hex"));
  let state = initialPolicyState(options.settings);
  const resolvers = new Map<string, (d: DriverDecision) => void>();
  const timers = new Map<string, TimerHandle>();
  let abandoned = false;

  function viewOf(p: PendingDecision, prompt: PendingDecisionView["prompt"]): PendingDecisionView {
    return {
      decisionId: p.decisionId,
      lane,
      runId: p.runId,
      requestId: p.request.requestId,
      toolName: p.request.toolName,
      prompt,
      awaitingText: (p.flow.kind === "question" || p.flow.kind === "elicitation") && p.flow.flow.awaitingText,
    };
  }

  /** An Edit or Write put to the person, with its file as it is now (read only when shown). */
  function withFileNow(request: ApprovalRequest, run: RunInfo | undefined): ApprovalRequest {
    if (!FILE_TOOLS.has(request.toolName) || options.fileNow === undefined || !asksPerson(state, request, run))
      return request;
    try {
      const fileNow = options.fileNow(request);
      return fileNow === undefined ? request : { ...request, fileNow };
    } catch {
      return request;
    }
  }

  function callPort(call: "ask" | "settled" | "inform", fn: () => void): void {
    try {
      fn();
    } catch (error) {
      options.onPortError?.(error, call);
    }
  }

  /**
   * Carries out effects: bookkeeping first (answers, timers, registry), then the person's
   * port, so a port that answers synchronously re-enters a machine that is already consistent.
   * Returns the modes to set (they are awaited by the caller).
   */
  function apply(effects: readonly PolicyEffect[]): string[] {
    const modes: string[] = [];
    const portCalls: (() => void)[] = [];
    for (const e of effects) {
      switch (e.type) {
        case "respond": {
          const resolve = resolvers.get(e.decisionId);
          resolvers.delete(e.decisionId);
          resolve?.({ ...e.answer, by: e.by });
          break;
        }
        case "askPerson": {
          const p = state.pending.get(e.decisionId);
          if (!p) break;
          const view = viewOf(p, e.prompt);
          if (registry.pendingFor(lane).some((v) => v.decisionId === e.decisionId)) registry.update(view);
          else
            registry.open(
              view,
              (answer) =>
                run({ type: "answer", decisionId: e.decisionId, answer, nowMs: clock.now() }).verdict ??
                "no_longer_pending",
            );
          portCalls.push(() => callPort("ask", () => port.ask(view)));
          break;
        }
        case "settle": {
          registry.close(e.decisionId, e.outcome);
          portCalls.push(() => callPort("settled", () => port.settled(e.decisionId, e.outcome)));
          break;
        }
        case "inform":
          portCalls.push(() => callPort("inform", () => port.inform(lane, e.info)));
          break;
        case "setPermissionMode":
          modes.push(e.mode);
          break;
        case "startTimer": {
          timers.get(e.decisionId)?.cancel();
          const id = e.decisionId;
          timers.set(
            id,
            clock.setTimer(e.delayMs, () => {
              timers.delete(id);
              run({ type: "timeout", decisionId: id });
            }),
          );
          break;
        }
        case "cancelTimer":
          timers.get(e.decisionId)?.cancel();
          timers.delete(e.decisionId);
          break;
      }
    }
    for (const call of portCalls) call();
    return modes;
  }

  function run(input: PolicyInput): { verdict?: AnswerVerdict; modes: string[] } {
    if (abandoned) return { verdict: "no_longer_pending", modes: [] };
    const step = stepPolicy(state, input);
    state = step.state;
    const modes = apply(step.effects);
    return step.verdict !== undefined ? { verdict: step.verdict, modes } : { modes };
  }

  async function setModes(session: DecisionSessionControls, modes: readonly string[]): Promise<void> {
    for (const mode of modes) {
      try {
        await session.setPermissionMode(mode);
        run({ type: "mode_set", mode });
      } catch (error) {
        run({ type: "mode_set_failed", mode, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  return {
    observe(event) {
      run({ type: "observed", event });
    },
    decide(request, ctx) {
      // Withdrawn before we saw it: nobody reads an answer, and the person need not be asked.
      if (ctx.signal.aborted)
        return Promise.resolve({ behavior: "deny", message: noLongerPendingMessage, by: "withdrawn" });
      const recorded = options.recordedDecisionId?.({ runId: ctx.run?.id, requestId: request.requestId });
      let decisionId = recorded ?? newId();
      // Ids must not collide with an open decision (a custom generator could repeat itself).
      while (resolvers.has(decisionId) || state.pending.has(decisionId)) decisionId = `${newId()}-${resolvers.size}`;
      const answered = new Promise<DriverDecision>((resolve) => resolvers.set(decisionId, resolve));
      const onAbort = (): void => void run({ type: "withdrawn", decisionId });
      run({ type: "request", decisionId, request: withFileNow(request, ctx.run), run: ctx.run, nowMs: clock.now() });
      if (resolvers.has(decisionId)) ctx.signal.addEventListener("abort", onAbort, { once: true });
      return answered.finally(() => ctx.signal.removeEventListener("abort", onAbort));
    },
    async hookCallback(callbackId, input, signal) {
      const own = options.ownHooks?.get(callbackId);
      return own ? own(input, signal) : {};
    },
    async beforeTurnFinished(ctx) {
      await setModes(ctx.session, run({ type: "turn_closing", nowMs: clock.now() }).modes);
    },
    async beforeFollowUp(session) {
      await setModes(session, run({ type: "follow_up", nowMs: clock.now() }).modes);
    },
    updateSettings(settings) {
      run({ type: "settings_changed", settings });
    },
    end() {
      run({ type: "session_ended" });
      for (const t of timers.values()) t.cancel();
      timers.clear();
    },
    abandon() {
      abandoned = true;
      for (const t of timers.values()) t.cancel();
      timers.clear();
    },
    get state() {
      return state;
    },
  };
}
