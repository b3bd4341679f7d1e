// What the bridge's handlers share (one object per running bridge, passed in, never global),
// and the one way a run is started from Telegram: the chat's settings, the session choice,
// a RunView as the observer, and the session layer's answer shown at once.
import type { Config, ProjectConfig } from "../../config/index.js";
import { laneId, type Lane, type PermissionMode } from "../../domain/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { SessionChoice, SessionManager } from "../../sessions/index.js";
import type { DecisionAnswers } from "../../sessions/decisions/index.js";
import type { Store } from "../../store/index.js";
import type { CallbackRegistry } from "../callback-data.js";
import type { Outbox } from "../outbox.js";
import type { Access } from "./access.js";
import type { BridgeAction } from "./bridge-types.js";
import { chatSettings } from "./chat-settings.js";
import type { TelegramPeople } from "./person-port.js";
import type { RunBook } from "./run-book.js";
import { RunView, type RunViewDeps } from "./run-view.js";

export type BridgeCore = {
  readonly config: () => Config;
  readonly store: Store;
  readonly logger: Logger;
  readonly outbox: Outbox;
  readonly clock: Clock;
  readonly callbacks: CallbackRegistry<BridgeAction>;
  readonly answers: DecisionAnswers;
  readonly people: TelegramPeople;
  readonly book: RunBook<RunView>;
  readonly access: Access;
  readonly viewDeps: RunViewDeps;
  sessions(): SessionManager;
  /** The decision registry's name for a session (what typed replies are routed by). */
  readonly decisionKey: (key: Lane) => string;
  botUsername(): string;
  /** Session keys whose next run starts a fresh conversation (/new). */
  readonly freshNext: Set<string>;
  /** The CLI's own permission mode per session key, as it last reported it. */
  readonly cliModes: Map<string, string>;
  /** Runs resumed by a Continue tap (one tap resumes once). */
  readonly resumed: Set<string>;
  isStopping(): boolean;
  requestRestart(): void;
};

/** A rejection handler that logs: for work started from a handler that nobody awaits. */
export function failed(core: Pick<BridgeCore, "logger">, event: `telegram.${string}`): (error: unknown) => void {
  return (error) => core.logger.event(event, { err: error }, "error");
}

export type RunRequest = {
  chatId: number;
  project: ProjectConfig;
  prompt: string;
  choice?: SessionChoice;
  /** A one-message mode (a directive line); else the chat's. */
  mode?: PermissionMode;
  promptMessageId?: number;
};

export function startRun(core: BridgeCore, request: RunRequest): RunView {
  const settings = chatSettings(core.config(), core.store, request.chatId);
  const key: Lane = { chatId: request.chatId, project: request.project.name };
  let choice: SessionChoice = request.choice ?? { kind: "current" };
  if (core.freshNext.delete(laneId(key)) && choice.kind === "current") choice = { kind: "new" };
  const mode = request.mode ?? settings.mode;
  const start = {
    mode,
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.effort === undefined ? {} : { effort: settings.effort }),
  };
  const view = new RunView(core.viewDeps, {
    chatId: request.chatId,
    key,
    promptMessageId: request.promptMessageId,
    start,
  });
  const outcome = core.sessions().submit({
    lane: key,
    prompt: request.prompt,
    cwd: request.project.path,
    mode,
    ...(settings.model === undefined ? {} : { model: settings.model }),
    ...(settings.effort === undefined ? {} : { effort: settings.effort }),
    choice,
    observer: view,
  });
  core.logger.event("telegram.run_submitted", {
    chatId: request.chatId,
    project: key.project,
    state: outcome.state,
    choice: choice.kind,
    ...(outcome.state === "refused" ? {} : { runId: outcome.runId }),
  });
  view.begin(outcome);
  return view;
}
