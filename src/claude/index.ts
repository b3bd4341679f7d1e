// The Claude engine's public surface: session handles over a CLI reached through a transport
// (a supervised child process by default), args/env building, and the stream translator.
// Other folders import from here.
export { createClaudeEngine } from "./engine.js";
export { awaitSayingEndHooks } from "./end-hooks.js";
export type { ClaudeEngineOptions } from "./engine.js";
export type {
  ClaudeEngine,
  SessionHandle,
  SessionSpec,
  SessionController,
  SessionControls,
  DecideContext,
  ApprovalDecision,
  AdoptedSession,
  KeptProcess,
  KeptRunPlace,
  RecordedRequest,
  RunInfo,
  StartRunOptions,
  Effort,
  HookMatchers,
} from "./spec.js";
export { createDirectLauncher } from "./direct-launcher.js";
export type { DirectLauncherOptions } from "./direct-launcher.js";
export { createCliProbe } from "./cli-probe.js";
export { createLineDecoder } from "./line-decoder.js";
export type { CliProbe, CliProbeOptions } from "./cli-probe.js";
export type {
  CliInfo,
  CliLauncher,
  CliTransport,
  LaunchRequest,
  LostLines,
  ProcessExit,
  StdinWrite,
  TransportClosed,
  TransportHandlers,
} from "./transport.js";
export { buildArgs } from "./args.js";
export { SAFE_EXTRA_ARGS, UNSAFE_EXTRA_ARGS, unsafeArgNameProblem, validateExtraArgs } from "./extra-args.js";
export type { ArgsContext } from "./args.js";
export { AUTH_ENV_KEYS, buildChildEnv, PROVIDER_SWITCH } from "./env.js";
export type { ChildEnvOptions, ClaudeProvider } from "./env.js";
export { ClaudeError, isClaudeError } from "./errors.js";
export { startFailedError, stdinClosedError } from "./failures.js";
export { MOVE_SETTINGS_ASIDE, proxyAdvice } from "./startup-refusals.js";
export type { ClaudeErrorCode, ClaudeErrorDetails } from "./errors.js";
export { allowAllController, denyAllController, askController, NOBODY_TO_APPROVE_MESSAGE } from "./controllers.js";
export { SESSION_END_MESSAGE } from "./incoming-requests.js";
export { createTranslator } from "./translator.js";
export { toolGuardHooks } from "./tool-guard.js";
export type { GuardedToolCall, GuardHooks, GuardOptions, HookHandler, ToolGuard, ToolVerdict } from "./tool-guard.js";
export { createRecordingReader } from "./recording.js";
export type { RecordingReader } from "./recording.js";
export type { Translator, TranslatorOptions } from "./translator.js";
export { createMemorySessionBook } from "./session-book.js";
export { offeredModels } from "./offered-models.js";
export type { OfferedModel } from "./offered-models.js";
export type { SessionBook } from "./session-book.js";
