// The Claude engine's public surface: sessions over a supervised CLI process, the control
// channel, args/env building, and the stream translator. Other folders import from here.
export { createClaudeEngine } from "./engine.js";
export type { ClaudeEngineOptions } from "./engine.js";
export type {
  ClaudeEngine,
  ClaudeSession,
  SessionSpec,
  SessionController,
  SessionControls,
  DecideContext,
  ApprovalDecision,
  RunInfo,
  StartRunOptions,
  Effort,
  HookMatchers,
} from "./spec.js";
export { buildArgs } from "./args.js";
export { SAFE_EXTRA_ARGS, UNSAFE_EXTRA_ARGS, unsafeArgNameProblem, validateExtraArgs } from "./extra-args.js";
export type { ArgsContext } from "./args.js";
export { AUTH_ENV_KEYS, buildChildEnv, PROVIDER_SWITCH } from "./env.js";
export type { ChildEnvOptions, ClaudeProvider } from "./env.js";
export { ClaudeError, isClaudeError } from "./errors.js";
export type { ClaudeErrorCode, ClaudeErrorDetails } from "./errors.js";
export { createSystemClock } from "./clock.js";
export type { Clock, TimerHandle } from "./clock.js";
export { createSilentLogger } from "./logger.js";
export type { Logger, LogFn } from "./logger.js";
export { allowAllController, denyAllController, askController, NOBODY_TO_APPROVE_MESSAGE } from "./controllers.js";
export { SESSION_END_MESSAGE } from "./incoming-requests.js";
export { createTranslator } from "./translator.js";
export type { Translator, TranslatorOptions } from "./translator.js";
