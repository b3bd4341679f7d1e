// Binds the Claude engine and a decision driver into the session layer's engine port: each
// opened session gets its own driver (the engine's SessionController), speaking to the front
// end's PersonPort, with the spec and hooks session-spec.ts derives from config. Runs in
// kept processes are recorded for a restart, and taken in again after one (adoptSession).
import {
  isClaudeError,
  type AdoptedSession,
  type ClaudeEngine,
  type KeptProcess,
  type SessionController,
  type SessionHandle as EngineSessionHandle,
  type SessionSpec,
  type ToolGuard,
} from "../../claude/index.js";
import type { Config } from "../../config/index.js";
import { definedFields, type Lane, type TelecodeEvent } from "../../domain/index.js";
import type { Clock } from "../../ports/index.js";
import type { DecisionSettings } from "../../policy/index.js";
import { SessionsError, type EnginePort, type OpenRequest, type SessionHandle } from "../../sessions/index.js";
import {
  createDecisionDriver,
  type DecisionDriver,
  type DecisionDriverOptions,
  type DecisionRegistry,
  type PersonPort,
} from "../../sessions/decisions/index.js";
import { fileNowReader } from "./file-now.js";
import type { KeptRunsBook } from "./kept-runs-book.js";
import { decisionSettingsFromConfig, scheduleHooks, specFromConfig } from "./session-spec.js";

export type EnginePortDeps = {
  engine: ClaudeEngine;
  config: () => Config;
  registry: DecisionRegistry;
  clock: Clock;
  /** The front end that shows this session's prompts. */
  personPort: (lane: Lane) => PersonPort;
  /** The chat's switches (previews, questions) on top of the config's. */
  chatSettings?: (lane: Lane) => Partial<DecisionSettings>;
  /** Answers Claude's scheduling tools in a lane's sessions; without it nothing is ever scheduled. */
  scheduleTools?: (lane: Lane) => ToolGuard;
  /** Sees every event of a lane's sessions, with the session it came from (a CronDelete Claude called). */
  sessionEvents?: (lane: Lane, event: TelecodeEvent, sessionId: string | undefined) => void;
  /** Each event as it is passed on to the front end (a call Telecode carried out reads as done). */
  shownEvent?: (event: TelecodeEvent) => TelecodeEvent;
  /** Telecode's lines for the system prompt of sessions opened now (the project's outbox). */
  appendSystemPrompt?: (config: Config) => string | undefined;
  onPortError?: (error: unknown) => void;
  /** Where runs in kept processes are recorded (absent: processes are not kept). */
  keptRuns?: KeptRunsBook;
  /** The decision a previous Telecode opened for a request the CLI asks again (after a restart). */
  recordedDecisionId?: DecisionDriverOptions["recordedDecisionId"];
  onGuardError?: (error: unknown, toolName: string) => void;
};

function withSystemPrompt(spec: SessionSpec, deps: EnginePortDeps, config: Config): SessionSpec {
  const appendSystemPrompt = deps.appendSystemPrompt?.(config);
  return appendSystemPrompt === undefined ? spec : { ...spec, appendSystemPrompt };
}

/** The engine port, and taking in a run whose kept process outlived a restart. */
export type TelecodeEnginePort = EnginePort & {
  /** A handle over a re-attached kept process, its run in flight (see ClaudeEngine.adoptSession). */
  adoptSession(
    request: OpenRequest,
    kept: KeptProcess,
  ): { handle: SessionHandle; reconciled: AdoptedSession["reconciled"] };
};

export function createEnginePort(deps: EnginePortDeps): TelecodeEnginePort {
  const open = (request: OpenRequest, kept: KeptProcess | undefined) => {
    const config = deps.config();
    const hooks = scheduleHooks(deps.scheduleTools?.(request.lane), deps.onGuardError);
    const driver = createDecisionDriver({
      lane: request.lane,
      settings: {
        ...decisionSettingsFromConfig(config, request.mode),
        ...deps.chatSettings?.(request.lane),
        projectRoot: request.cwd,
      },
      port: deps.personPort(request.lane),
      registry: deps.registry,
      clock: deps.clock,
      ownHooks: hooks.handlers,
      fileNow: fileNowReader(config.files.denyGlobs),
      ...definedFields({ onPortError: deps.onPortError, recordedDecisionId: deps.recordedDecisionId }),
    });
    let session: EngineSessionHandle | undefined;
    const controller: SessionController = {
      observe: (event) => {
        driver.observe(event);
        deps.sessionEvents?.(request.lane, event, session?.sessionId);
      },
      decide: (req, ctx) => driver.decide(req, ctx),
      hookCallback: (id, input, signal) => driver.hookCallback(id, input, signal),
      beforeTurnFinished: (ctx) => driver.beforeTurnFinished(ctx),
      handedOver: () => driver.abandon(),
    };
    // Only a chat offers the guess at the next message; `telecode run` ends with its one turn.
    const spec = withSystemPrompt(
      { ...specFromConfig(config, request), promptSuggestions: config.claude.promptSuggestions },
      deps,
      config,
    );
    if (kept === undefined) {
      session = deps.engine.openSession(spec, controller);
      return { handle: wrap(deps, request, driver, session) };
    }
    const adopted = deps.engine.adoptSession(spec, controller, kept);
    session = adopted.handle;
    return { handle: wrap(deps, request, driver, session, kept.run.id), reconciled: adopted.reconciled };
  };
  return {
    openSession: (request) => open(request, undefined).handle,
    writtenDown: (request, sessionId, messageUuid) =>
      deps.engine.writtenDown(specFromConfig(deps.config(), { ...request, mode: "default" }), sessionId, messageUuid),
    adoptSession(request, kept) {
      const { handle, reconciled } = open(request, kept);
      return { handle, reconciled: reconciled ?? Promise.resolve(undefined) };
    },
  };
}
/** What needs the live process fails as the session layer names it when there is none. */
function live<T>(call: () => Promise<T>): Promise<T> {
  return call().catch((error: unknown) => {
    throw isClaudeError(error, "claude.no_process")
      ? new SessionsError("sessions.no_process", error.message, { cause: error })
      : error;
  });
}

/** The engine's handle as the session layer uses it, with the decision driver and the kept runs' bookkeeping. */
function wrap(
  deps: EnginePortDeps,
  request: OpenRequest,
  driver: DecisionDriver,
  session: EngineSessionHandle,
  adoptedRunId?: string,
): SessionHandle {
  const book = deps.keptRuns;
  let runId = adoptedRunId;
  const noteProcessed = (now: boolean): void => {
    if (runId !== undefined && session.keptRun !== undefined) book?.processed(runId, session.lastLineSeq, now);
  };
  async function* events(): AsyncIterable<TelecodeEvent> {
    for await (const event of session.events()) {
      yield deps.shownEvent?.(event) ?? event;
      // The consumer asked for the next event: this one is recorded (a run's end too).
      if (event.type === "run_completed") {
        runId = undefined;
        session.acknowledgeLines(Number.MAX_SAFE_INTEGER);
      } else noteProcessed(false);
    }
  }
  return {
    async startRun(prompt, options) {
      // The chat may have changed its switches (previews, questions) since the session opened.
      const chat = deps.chatSettings?.(request.lane);
      if (chat) driver.updateSettings(chat);
      // A plan chat whose re-arm was deferred goes back to plan mode before the next request
      // (inside the run, so a Cancel meanwhile ends it before its prompt is sent).
      const rearm = session.pid === undefined ? undefined : () => driver.beforeFollowUp(session);
      const id = await session.startRun(prompt, { ...options, ...definedFields({ beforePrompt: rearm }) });
      const place = session.keptRun;
      if (place !== undefined) {
        runId = id;
        book?.started(id, place, request.mode);
        session.acknowledgeLines(place.startSeq);
      }
      return id;
    },
    cancelRun: (id) => session.cancelRun(id),
    mcpSignIn: (server) => live(() => session.mcpSignIn(server)),
    mcpSignInCallback: (server, callbackUrl) => live(() => session.mcpSignInCallback(server, callbackUrl)),
    sideQuestion: (question, history) => live(() => session.sideQuestion(question, history)),
    events,
    async close() {
      // Expire open prompts first, so they read "session ended", not "no longer pending".
      driver.end();
      await session.close();
    },
    async detach() {
      noteProcessed(true);
      return session.detach();
    },
    get isRunning() {
      return session.isRunning;
    },
    get sessionId() {
      return session.sessionId;
    },
    get pid() {
      return session.pid;
    },
    get isKept() {
      return session.keptRun !== undefined;
    },
    get handedOver() {
      return session.handedOver;
    },
  };
}
