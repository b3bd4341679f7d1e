// Binds the Claude engine and a decision driver into the session layer's engine port: each
// opened session gets its own driver (the engine's SessionController), speaking to the front
// end's PersonPort. Config decides the CLI arguments, environment and watchdog limits.
import type { ClaudeEngine, SessionSpec } from "../../claude/index.js";
import type { Config } from "../../config/index.js";
import { definedFields, type Lane } from "../../domain/index.js";
import type { Clock } from "../../ports/index.js";
import { cliModeFor, type DecisionSettings } from "../../policy/index.js";
import type { EnginePort, OpenRequest, SessionHandle } from "../../sessions/index.js";
import { createDecisionDriver, type DecisionRegistry, type PersonPort } from "../../sessions/decisions/index.js";

export type EnginePortDeps = {
  engine: ClaudeEngine;
  config: () => Config;
  registry: DecisionRegistry;
  clock: Clock;
  /** The front end that shows this session's prompts. */
  personPort: (lane: Lane) => PersonPort;
  /** The chat's switches (previews, questions) on top of the config's. */
  chatSettings?: (lane: Lane) => Partial<DecisionSettings>;
  /** Telecode's lines for the system prompt of sessions opened now (the project's outbox). */
  appendSystemPrompt?: (config: Config) => string | undefined;
  onPortError?: (error: unknown) => void;
};

/** Engine options derived from config: the same for every session. */
export function specFromConfig(
  config: Config,
  request: Pick<OpenRequest, "cwd" | "mode" | "model" | "effort" | "resume" | "continueLatest">,
): SessionSpec {
  const { claude, limits } = config;
  const model = request.model ?? claude.model ?? undefined;
  const effort = request.effort ?? claude.effort ?? undefined;
  const spec: SessionSpec = {
    cwd: request.cwd,
    permissionMode: cliModeFor(request.mode),
    allowedTools: claude.allowedTools,
    extraArgs: claude.extraArgs,
    allowUnsafeArgs: claude.dangerouslyAllowUnsafeArgs,
    envAllow: claude.envAllow,
    provider: claude.provider,
    useApiBilling: claude.useApiBilling,
    dangerouslySkipPermissions: claude.dangerouslySkipPermissions,
    idleMs: limits.idleSessionMinutes * 60_000,
    stallNoteMs: limits.stallNoteMinutes * 60_000,
    hardSilenceMs: limits.hardSilenceMinutes * 60_000,
  };
  if (model) spec.model = model;
  if (effort) spec.effort = effort as NonNullable<SessionSpec["effort"]>;
  if (request.resume) spec.resume = request.resume;
  if (request.continueLatest) spec.continue = true;
  return spec;
}

export function decisionSettingsFromConfig(config: Config, mode: OpenRequest["mode"]): Partial<DecisionSettings> {
  const { limits } = config;
  return {
    mode,
    rearmPlanMode: limits.planRearm,
    rearmDeferCeilingMs: limits.rearmCeilingMinutes * 60_000,
    approvalTimeoutMs: limits.approvalTimeoutMinutes > 0 ? limits.approvalTimeoutMinutes * 60_000 : null,
  };
}

function withSystemPrompt(spec: SessionSpec, deps: EnginePortDeps, config: Config): SessionSpec {
  const appendSystemPrompt = deps.appendSystemPrompt?.(config);
  return appendSystemPrompt === undefined ? spec : { ...spec, appendSystemPrompt };
}

export function createEnginePort(deps: EnginePortDeps): EnginePort {
  return {
    openSession(request: OpenRequest): SessionHandle {
      const config = deps.config();
      const driver = createDecisionDriver({
        lane: request.lane,
        settings: { ...decisionSettingsFromConfig(config, request.mode), ...deps.chatSettings?.(request.lane) },
        port: deps.personPort(request.lane),
        registry: deps.registry,
        clock: deps.clock,
        ...definedFields({ onPortError: deps.onPortError }),
      });
      const session = deps.engine.openSession(withSystemPrompt(specFromConfig(config, request), deps, config), {
        observe: (event) => driver.observe(event),
        decide: (req, ctx) => driver.decide(req, ctx),
        hookCallback: (id, input, signal) => driver.hookCallback(id, input, signal),
        beforeTurnFinished: (ctx) => driver.beforeTurnFinished(ctx),
      });
      return {
        async startRun(prompt, options) {
          // The chat may have changed its switches (previews, questions) since the session opened.
          const chat = deps.chatSettings?.(request.lane);
          if (chat) driver.updateSettings(chat);
          // A plan chat whose re-arm was deferred goes back to plan mode before the next request.
          if (session.pid !== undefined) await driver.beforeFollowUp(session);
          return session.startRun(prompt, options);
        },
        cancelRun: (runId) => session.cancelRun(runId),
        events: () => session.events(),
        async close() {
          // Expire open prompts first, so they read "session ended", not "no longer pending".
          driver.end();
          await session.close();
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
      };
    },
  };
}
