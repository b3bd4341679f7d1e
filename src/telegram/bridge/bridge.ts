// The Telegram bridge: a grammY bot whose updates (polled from the stored offset) go through
// access control to the message, command and tap handlers; its writes all go through one
// outbox. Start recovers what a previous stop cut off; stop drains runs, flushes, ends.
import { sequentialize, type RunnerHandle } from "@grammyjs/runner";
import { Bot, type Context } from "grammy";
import type { Message, Update } from "grammy/types";
import { createClockFormatter, laneId, type ClockFormatter } from "../../domain/index.js";
import { createSystemClock } from "../../ports/index.js";
import type { SessionManager } from "../../sessions/index.js";
import { CallbackRegistry } from "../callback-data.js";
import { Outbox } from "../outbox.js";
import { createAccess, displayNameOf } from "./access.js";
import type { BridgeCore } from "./bridge-core.js";
import type { BridgeAction, ChatKind, IncomingText, TelegramBridgeOptions } from "./bridge-types.js";
import { COMMANDS } from "./command-text.js";
import { TelegramPeople } from "./person-port.js";
import { recoverAfterRestart } from "./recovery.js";
import { RunBook } from "./run-book.js";
import type { RunView } from "./run-view.js";
import { handleTap } from "./taps.js";
import { handleText } from "./text-messages.js";
import { startPolling } from "./update-source.js";

export class BridgeError extends Error {
  override readonly name = "BridgeError";
  constructor(
    readonly code: "telegram.not_configured" | "telegram.already_started",
    message: string,
  ) {
    super(message);
  }
}

export type TelegramBridge = {
  /** Checks the token (getMe), recovers after a previous stop, registers commands, starts polling. */
  start(): Promise<void>;
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
};

const FLUSH_POLL_MS = 50;

export function createTelegramBridge(options: TelegramBridgeOptions): TelegramBridge {
  const initial = options.config();
  const token = initial.telegram.botToken;
  if (token === null || initial.telegram.allowedUserIds.length === 0) {
    throw new BridgeError(
      "telegram.not_configured",
      "The Telegram bridge needs telegram.bot_token and a non-empty telegram.allowed_user_ids; run `telecode init` or edit the config.",
    );
  }
  const { store, logger } = options;
  const clock = options.clock ?? createSystemClock({ keepsProcessAlive: true });
  const bot = new Bot(token, { client: { apiRoot: initial.telegram.apiRoot } });
  const book = new RunBook<RunView>();
  const outbox = new Outbox({
    api: bot.api,
    clock,
    logger: logger.child({ area: "outbox" }),
    ...options.outbox,
    onMessageReplaced: (chatId, oldId, newId) => book.byMessage(chatId, oldId)?.replaced(newId),
  });
  const callbacks = new CallbackRegistry<BridgeAction>({ now: () => clock.now() });
  const cliModes = new Map<string, string>();
  let stopping = false;
  let runner: RunnerHandle | undefined;
  // Built below, over the ports that need `core`; nothing calls this before that.
  const requireSessions = (): SessionManager => sessions;
  const people = new TelegramPeople({
    outbox,
    store,
    logger,
    answers: options.answers,
    callbacks,
    book,
    sessions: requireSessions,
  });
  const core: BridgeCore = {
    config: options.config,
    store,
    logger,
    outbox,
    clock,
    callbacks,
    answers: options.answers,
    people,
    book,
    access: createAccess({ config: options.config, logger, outbox }),
    viewDeps: {
      outbox,
      clock,
      logger,
      store,
      callbacks,
      book,
      cliModes,
      isStopping: () => stopping,
      progressIntervalMs: options.progressIntervalMs ?? 1000,
      heartbeatMs: options.heartbeatMs ?? 10_000,
      clockFormatter: localClockFormatter(),
    },
    sessions: requireSessions,
    decisionKey: options.decisionKey,
    botUsername: () => bot.botInfo.username,
    freshNext: new Set(),
    cliModes,
    resumed: new Set(),
    isStopping: () => stopping,
    requestRestart: () => options.onRestartRequested?.(),
  };
  const sessions = options.createSessions({
    personPort: (lane) => people.portFor(lane),
    background: (key, event) => {
      if (event.type === "mode_changed") cliModes.set(laneId(key), event.mode);
    },
  });

  // Messages of one chat are handled in order; taps are never held behind them.
  bot.use(sequentialize((ctx: Context) => (ctx.message === undefined ? undefined : String(ctx.chat?.id))));
  bot.on("message", (ctx) => onMessage(core, ctx.message));
  bot.on("callback_query", (ctx) => {
    const query = ctx.callbackQuery;
    const message = query.message;
    const from = { id: query.from.id, name: displayNameOf(query.from) };
    if (!core.access.isAllowed(from.id)) {
      core.access.refuse("tap", message?.chat.id, message?.chat.type, from.id);
      return;
    }
    handleTap(core, {
      queryId: query.id,
      chatId: message?.chat.id,
      messageId: message?.message_id,
      from,
      data: query.data,
    });
  });
  bot.catch((error) =>
    logger.event("telegram.handler_failed", { err: error.error, updateId: error.ctx.update.update_id }, "error"),
  );

  return {
    async start() {
      if (runner !== undefined)
        throw new BridgeError("telegram.already_started", "The Telegram bridge is already running.");
      await bot.init();
      logger.event("telegram.started", { bot: bot.botInfo.username });
      recoverAfterRestart(core);
      void outbox.setCommands(COMMANDS);
      runner = startPolling({
        bot,
        store,
        logger,
        timeoutSeconds: options.pollTimeoutSeconds ?? 25,
        handle: (update: Update) => bot.handleUpdate(update),
      });
      runner.task()?.catch((error: unknown) => {
        logger.event("telegram.polling_failed", { err: error }, "error");
        options.onPollingFailed?.(error);
      });
    },
    async stop(stopOptions = {}) {
      if (stopping) return;
      stopping = true;
      const drainMs = options.config().limits.drainSeconds * 1000;
      logger.event("telegram.stopping", { drainMs, running: book.all().length });
      // Updates not taken stay with Telegram and are handled after the restart, not lost.
      await runner?.stop();
      await requireSessions().shutdown(drainMs);
      const deadline = clock.now() + (stopOptions.flushTimeoutMs ?? 15_000);
      while (outbox.pending() > 0 && clock.now() < deadline)
        await new Promise<void>((resolve) => clock.setTimer(FLUSH_POLL_MS, resolve));
      if (outbox.pending() > 0) logger.event("telegram.unflushed", { pending: outbox.pending() }, "warn");
      outbox.stop();
      logger.event("telegram.stopped", { stats: outbox.stats() });
    },
    get sessions() {
      return requireSessions();
    },
    outbox,
    get botUsername() {
      return bot.botInfo.username;
    },
  };
}

function onMessage(core: BridgeCore, message: Message): void {
  const from = message.from;
  if (from === undefined || from.is_bot) return;
  const chatKind: ChatKind = message.chat.type;
  if (!core.access.isAllowed(from.id)) {
    // In groups strangers are simply not answered; in a private chat they are told once.
    core.access.refuse("message", message.chat.id, chatKind, from.id);
    return;
  }
  const text = message.text;
  if (text === undefined) {
    if (chatKind === "private")
      void core.outbox.send(
        message.chat.id,
        { html: "I can only read text messages; send the task as text." },
        { replyTo: message.message_id },
      );
    return;
  }
  const username = core.botUsername().toLowerCase();
  const reply = message.reply_to_message;
  const incoming: IncomingText = {
    chatId: message.chat.id,
    chatKind,
    messageId: message.message_id,
    dateS: message.date,
    from: { id: from.id, name: displayNameOf(from) },
    text,
    mentionsBot: (message.entities ?? []).some(
      (e) => e.type === "mention" && text.slice(e.offset + 1, e.offset + e.length).toLowerCase() === username,
    ),
    ...(reply === undefined
      ? {}
      : {
          replyTo: {
            messageId: reply.message_id,
            fromBot: reply.from?.username?.toLowerCase() === username,
            text: reply.text ?? reply.caption ?? "",
          },
        }),
  };
  handleText(core, incoming);
}

/** Wall-clock times in this machine's zone (UTC when the runtime cannot say which). */
function localClockFormatter(): ClockFormatter {
  try {
    return createClockFormatter(Intl.DateTimeFormat().resolvedOptions().timeZone);
  } catch {
    return createClockFormatter("UTC");
  }
}
