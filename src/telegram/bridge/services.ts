// What the bridge's handlers are built from, created once per bridge by createTelegramFront
// and handed to each handler factory; each takes the part it needs. Also the bridge's own
// lifecycle as handlers see it, and the one way they log work nobody awaits.
import type { Config } from "../../config/index.js";
import type { ClaudeVersionCheck, ClockFormatter, OfferedModel } from "../../domain/index.js";
import type { Clock, EventName, Logger } from "../../ports/index.js";
import type { DecisionAnswers } from "../../sessions/decisions/index.js";
import type { SessionManager } from "../../sessions/index.js";
import type { Store } from "../../store/index.js";
import type { CallbackRegistry } from "../callback-data.js";
import type { Outbox } from "../outbox.js";
import type { BridgeAction } from "./bridge-types.js";
import type { Budget } from "./budget.js";
import type { ClaudeCommands } from "./claude-commands.js";
import type { DecisionMessages } from "./decision-messages.js";
import type { McpSignIns } from "./mcp-sign-in.js";
import type { SideAnswers } from "./side-answers.js";
import type { Suggestions } from "./suggestions.js";
import type { MediaPort } from "./media-port.js";
import type { OfflineMessages } from "./messages/offline.js";
import type { RunIndex } from "./run-index.js";
import type { RunStarter } from "./run-starter.js";
import type { RunView } from "./run-view.js";
import type { UsageLimits } from "./usage-limits.js";
import type { ChatSchedules, TriggerControls } from "./schedule-port.js";

/** The bridge's state as handlers see it. */
export type BridgeControl = {
  /** The bridge is stopping: no new work, runs ending now were interrupted. */
  isStopping: () => boolean;
  /** A person asked for /restart in `chatId` (told there once Telecode is back). */
  requestRestart: (chatId: number) => void;
  /** The bot's @username (known once started). */
  botUsername: () => string;
  /** Telegram's privacy mode is off for the bot: it gets every message of a group it is in. */
  readsAllGroupMessages: () => boolean;
  /** The chat is a group that took the bot's right to send messages (closed-chats.ts). */
  isMuted: (chatId: number) => boolean;
  /** Whether the chat is a group's (a forum topic of a group too; not one of a private chat). */
  inGroup: (chatId: number) => boolean;
};

export type BridgeServices = {
  readonly config: () => Config;
  readonly store: Store;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly outbox: Outbox;
  readonly callbacks: CallbackRegistry<BridgeAction>;
  readonly runs: RunIndex<RunView>;
  readonly prompts: DecisionMessages;
  /** Where taps and typed replies are delivered (the decision ledger). */
  readonly answers: DecisionAnswers;
  readonly sessions: SessionManager;
  readonly starter: RunStarter;
  readonly control: BridgeControl;
  /** The chat's schedules: /loops, /at, /every and their buttons. */
  readonly schedules: ChatSchedules;
  /** Every trigger at once: /pause, /resume, and the triggers /status lists. */
  readonly triggers: TriggerControls;
  /** Claude Code's own slash commands per project. */
  readonly claudeCommands: ClaudeCommands;
  /** Photos, files and voice notes in; project files out. */
  readonly media: MediaPort;
  /** The models the CLI offers, once a session has started in this process (undefined before). */
  readonly models: () => readonly OfferedModel[] | undefined;
  /** The installed Claude Code against the versions Telecode is tested with; undefined until checked. */
  readonly claudeVersion: () => ClaudeVersionCheck | undefined;
  /** The login's usage limits as the CLI last reported them. */
  readonly usageLimits: UsageLimits;
  /** Wall-clock times in this machine's zone, as run notes show them. */
  readonly clockFormatter: ClockFormatter;
  /** Messages that waited too long to run by themselves: said so, with Run it now. */
  readonly offline: OfflineMessages;
  /** Sign-ins to MCP servers begun from the chat. */
  readonly signIns: McpSignIns;
  /** Claude Code's guesses at the next message, as buttons under answers. */
  readonly suggestions: Suggestions;
  /** Side questions' answers (/btw), so a reply to one follows it up. */
  readonly sideAnswers: SideAnswers;
  /** [budget]: what runs spent against the caps today. */
  readonly budget: Pick<Budget, "standings">;
};

/** A rejection handler that logs: for work started from a handler that nobody awaits. */
export function logFailure(logger: Logger, event: EventName): (error: unknown) => void {
  return (error) => logger.event(event, { err: error }, "error");
}
