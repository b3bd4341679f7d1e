// The bridge's options and the plain shapes its parts pass each other: an incoming text
// message as the handlers need it, the button actions, the clock. Types only.
import type { Config } from "../../config/index.js";
import type { PermissionMode } from "../../domain/index.js";
import type { Clock, Logger } from "../../ports/index.js";
import type { BackgroundObserver, SessionManager } from "../../sessions/index.js";
import type { Lane } from "../../domain/index.js";
import type { DecisionAnswers, PersonPort } from "../../sessions/decisions/index.js";
import type { Store } from "../../store/index.js";
import type { OutboxOptions } from "../outbox.js";

/** What the session layer needs from the bridge to be built (the bridge's people and its background listener). */
export type BridgePorts = {
  personPort: (key: Lane) => PersonPort;
  background: BackgroundObserver;
};

export type TelegramBridgeOptions = {
  /** The config in effect (hot-reloaded by the caller); read per message and per run. */
  config: () => Config;
  store: Store;
  logger: Logger;
  /** Where taps and typed replies are delivered (the process's decision registry). */
  answers: DecisionAnswers;
  /** Builds the session manager over the bridge's ports (the composition root binds engine and driver). */
  createSessions: (ports: BridgePorts) => SessionManager;
  /** The decision registry's name for a session (the composition root's sessionKeyName). */
  decisionKey: (key: Lane) => string;
  clock?: Clock;
  /** Outbox pacing; Telegram's limits by default (tests pass small intervals). */
  outbox?: Partial<
    Pick<OutboxOptions, "privateIntervalMs" | "groupIntervalMs" | "globalPerSecond" | "backoffMs" | "maxBackoffMs">
  >;
  /** Least time between two renders of a progress message (default 1000 ms). */
  progressIntervalMs?: number;
  /** While nothing happens: the elapsed time is refreshed this often (default 10 s), typing shown after 4 s. */
  heartbeatMs?: number;
  /** Long-poll timeout asked of getUpdates (default 25 s). */
  pollTimeoutSeconds?: number;
  /** An allowed user sent /restart; the owner of the process stops and starts the bridge. */
  onRestartRequested?: () => void;
  /** Polling stopped for good (the token was revoked, another process polls the same bot). */
  onPollingFailed?: (error: unknown) => void;
};

export type ChatKind = "private" | "group" | "supergroup" | "channel";

/** A person's text message, as the handlers read it. */
export type IncomingText = {
  chatId: number;
  chatKind: ChatKind;
  messageId: number;
  /** Telegram's date: seconds since the epoch. */
  dateS: number;
  from: { id: number; name: string };
  text: string;
  /** The message it replies to, when it is a reply. */
  replyTo?: { messageId: number; fromBot: boolean; text: string };
  /** The bot was @mentioned in it. */
  mentionsBot: boolean;
};

/** What a button does; kept server-side behind the callback token. */
export type BridgeAction =
  | {
      kind: "decision";
      decisionId: string;
      chatId: number;
      promptKind: "approval" | "plan" | "question";
      choices: { id: string; label: string }[];
    }
  | { kind: "cancel"; runId: string }
  | { kind: "mode"; modes: readonly PermissionMode[] }
  | { kind: "project"; names: readonly string[] };
