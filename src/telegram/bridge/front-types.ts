// The Telegram front's shape as the composition root sees it: what it is built from, and the
// bridge it makes over a session manager. Types only.
import type { Agent as HttpAgent } from "node:http";
import type { Config } from "../../config/index.js";
import type { ClaudeVersionCheck, Lane, OfferedModel } from "../../domain/index.js";
import type { Clock, Logger, WakeWatch } from "../../ports/index.js";
import type { DecisionAnswers, PersonPort } from "../../sessions/decisions/index.js";
import type { BackgroundObserver, RunObserver, SessionManager } from "../../sessions/index.js";
import type { RunRecord, Store } from "../../store/index.js";
import type { BotApiDeadlines } from "../api-deadlines.js";
import type { Outbox } from "../outbox.js";
import type { OutboxOptions } from "../outbox-types.js";
import type { BotApiUnreachable } from "./bot-init.js";
import type { FileDownloads, MediaPort } from "./media-port.js";
import type { Restarted } from "./recovery.js";
import type { RecordedTrigger } from "./scheduled-run.js";
import type {
  ChatSchedules,
  ScheduledRun,
  ScheduledRunOutcome,
  TriggerControls,
  TriggerRunHooks,
} from "./schedule-port.js";
/** The way out to Telegram: an agent for grammY's requests, a fetch for file downloads. */
export type TelegramHttp = {
  agentFor(url: URL): HttpAgent;
  fetch: typeof fetch;
};

export type TelegramFrontOptions = {
  /** The config in effect (hot-reloaded by the caller); read per message and per run. */
  config: () => Config;
  store: Store;
  logger: Logger;
  /** Timers keep the process alive here, so a stop can flush what the outbox holds. */
  clock: Clock;
  /** Where taps and typed replies are delivered (the process's decision ledger). */
  answers: DecisionAnswers;
  /** The chat's side of the scheduler: /loops, /at, /every, their buttons, /new. */
  schedules: ChatSchedules;
  /** Every trigger at once: /pause, /resume, the triggers /status lists. */
  triggers: TriggerControls;
  /** Outbox pacing; Telegram's limits by default (tests pass small intervals). */
  outbox?: Partial<
    Pick<OutboxOptions, "privateIntervalMs" | "groupIntervalMs" | "globalPerSecond" | "backoffMs" | "maxBackoffMs">
  >;
  /** Least time between two renders of a progress message (default 1000 ms). */
  progressIntervalMs?: number;
  /** While nothing happens: the elapsed time is refreshed this often (default 10 s), typing shown after 4 s. */
  heartbeatMs?: number;
  /** How many buttons' tokens are remembered besides open decisions' (default 5000; tests make it small). */
  buttonMemory?: number;
  /** Long-poll timeout asked of getUpdates (default 25 s). */
  pollTimeoutSeconds?: number;
  /** How Telecode's requests reach Telegram (through the environment's proxy); default directly. */
  http?: TelegramHttp;
  /** How long a Bot API call may go unanswered (api-deadlines.ts; tests make them short). */
  botApiDeadlines?: Partial<BotApiDeadlines>;
  /** Tells when the computer woke from a sleep: the calls it slept through are made again at once. */
  wakes?: WakeWatch;
  /** An allowed user sent /restart in `chatId`; the owner of the process stops and starts the bridge. */
  onRestartRequested?: (chatId: number) => void;
  /** Polling stopped for good (the token was revoked, another process polls the same bot). */
  onPollingFailed?: (error: unknown) => void;
  /** A webhook set on the bot (pointing at `site`) was removed so that polling gets its updates. */
  onWebhookRemoved?: (site: string) => void;
  /** At start, the Bot API could not be reached; start tries again after `retryInMs`. */
  onBotApiUnreachable?: (unreachable: BotApiUnreachable) => void;
  /** Photos, files and voice notes, read through the bot's file downloads (`localBotApi`: a self-hosted Bot API server). */
  media: (downloads: FileDownloads, localBotApi: boolean) => MediaPort;
  /** The models the CLI offers, once a session has started (for /model); undefined before. */
  models?: () => readonly OfferedModel[] | undefined;
  /** The installed Claude Code against the versions Telecode is tested with (for /status); undefined until checked. */
  claudeVersion?: () => ClaudeVersionCheck | undefined;
};

/** What the app does between checking the token and polling: take in the runs whose kept processes ran on. */
export type TakeInKept = () => Promise<ReadonlySet<string>>;

export type TelegramBridge = {
  /**
   * Checks the token (getMe, retried while the Bot API cannot be reached), takes in kept runs
   * (`takeInKept`, their ids back), recovers the rest after a previous stop, registers
   * commands, starts polling (so taps made while down reach the decisions taken in). Throws
   * BridgeError `telegram.start_aborted` when `signal` fires before the Bot API answered.
   * `restarted`: the /restart this start follows; its chat is told Telecode is back.
   */
  start(options?: { signal?: AbortSignal; takeInKept?: TakeInKept; restarted?: Restarted }): Promise<void>;
  /**
   * The observer of a kept run taken in after a restart: its progress message carries on, with
   * its trigger's title and buttons when one started it (`started`, with that trigger's hooks).
   */
  keptRunView(run: RunRecord, started?: { trigger: RecordedTrigger; hooks: TriggerRunHooks | undefined }): RunObserver;
  /**
   * Graceful stop: polling ends (later updates wait at Telegram), running runs get
   * `limits.drain_seconds` to finish (then are interrupted, with Continue), the outbox is
   * flushed (up to `flushTimeoutMs`) and stopped.
   */
  stop(options?: { flushTimeoutMs?: number }): Promise<void>;
  readonly sessions: SessionManager;
  readonly outbox: Outbox;
  /** The bot's @username, once started. */
  readonly botUsername: string;
  /** Starts a run nobody typed in its chat: a schedule's fire (skipped when the lane is busy), a webhook delivery (queued). */
  startScheduled(run: ScheduledRun): ScheduledRunOutcome;
};

/** Telegram as the session layer sees it, before there is a session manager. */
export type TelegramFront = {
  /** The port the decision driver of a lane's session shows prompts through. */
  personPort(lane: Lane): PersonPort;
  /** Events no run owns (turns the CLI started itself). */
  background: BackgroundObserver;
  /** The bridge over the session manager built on this front's ports. Once. */
  bridge(sessions: SessionManager): TelegramBridge;
};
