// The Telegram bridge as grammY composition: createTelegramFront gives the session layer its
// person ports; bridge(sessions) composes the bot (access control, then a handler per message,
// command and button kind, in an error boundary). Start recovers; stop drains and flushes.
import { sequentialize, type RunnerHandle } from "@grammyjs/runner";
import { Bot, type Context } from "grammy";
import type { Update } from "grammy/types";
import { DEFAULT_API_ROOT } from "../../config/index.js";
import { createClockFormatter, pricesOfOffers, type ClockFormatter } from "../../domain/index.js";
import { watchForStall } from "../../ports/index.js";
import { DEFAULT_BOT_API_DEADLINES, GRAMMY_TIMEOUT_SECONDS, withDeadlines } from "../api-deadlines.js";
import { CallbackRegistry } from "../callback-data.js";
import type { ChatMoves } from "../chat-moves.js";
import type { ChatTopics } from "../chat-topics.js";
import { Outbox } from "../outbox.js";
import { accessControl } from "./access.js";
import { initBot } from "./bot-init.js";
import { BridgeError } from "./bridge-error.js";
import type { BridgeAction } from "./bridge-types.js";
import { BackgroundTurns } from "./background-turns.js";
import { cancelButtons } from "./buttons/cancel.js";
import { decisionButtons } from "./buttons/decision.js";
import { modeButtons } from "./buttons/mode.js";
import { modelButtons } from "./buttons/model.js";
import { projectButtons } from "./buttons/project.js";
import { resumeButtons } from "./buttons/resume.js";
import { scheduleButtons } from "./buttons/schedule.js";
import { retryButtons } from "./buttons/retry.js";
import { unknownButtons } from "./buttons/unknown.js";
import { chatMovesOf, readThroughMoves } from "./chat-moved.js";
import { ClosedChats, watchClosedChats } from "./closed-chats.js";
import { chatTopicsOf, readThroughTopics } from "./topics.js";
import { joinedGroups } from "./joined-group.js";
import { ClaudeCommands } from "./claude-commands.js";
import { UsageLimits } from "./usage-limits.js";
import { COMMANDS, commandComposer } from "./commands/index.js";
import type { TelecodeContext } from "./context.js";
import { soleAnswerer } from "./answerers.js";
import { DecisionMessages } from "./decision-messages.js";
import { handlerFailed } from "./handler-failed.js";
import { attachmentMessages } from "./messages/attachments.js";
import { readIncomingText } from "./messages/incoming.js";
import { editedMessages } from "./messages/edited.js";
import { nonTextMessages } from "./messages/non-text.js";
import { sessionPickButtons } from "./buttons/session-pick.js";
import { McpSignIns } from "./mcp-sign-in.js";
import { SideAnswers } from "./side-answers.js";
import { Suggestions } from "./suggestions.js";
import { createWorktrees, laneFolder } from "../../worktrees/index.js";
import { Budget } from "./budget.js";
import { OfflineMessages } from "./messages/offline.js";
import { textMessages } from "./messages/text.js";
import { voiceMessages } from "./messages/voice.js";
import { checklistMessages } from "./messages/checklist.js";
import { recoverAfterRestart, tellSetAside } from "./recovery.js";
import { RunIndex } from "./run-index.js";
import { RunStarter } from "./run-starter.js";
import type { RunView, RunViewDeps } from "./run-view.js";
import { startScheduledRun, triggerRunView } from "./scheduled-run.js";
import type { TelegramBridge, TelegramFront, TelegramFrontOptions } from "./front-types.js";
import type { BridgeControl, BridgeServices } from "./services.js";
import { replayUnfinished, startPolling } from "./update-source.js";

export { BridgeError };

export type { TakeInKept, TelegramBridge, TelegramFront, TelegramFrontOptions } from "./front-types.js";

const FLUSH_POLL_MS = 50;

/** Throws `telegram.not_configured` without a bot token and allowed users. */
export function createTelegramFront(options: TelegramFrontOptions): TelegramFront {
  const initial = options.config();
  const token = initial.telegram.botToken;
  if (token === null || initial.telegram.allowedUserIds.length === 0) {
    throw new BridgeError(
      "telegram.not_configured",
      "The Telegram bridge needs telegram.bot_token and a non-empty telegram.allowed_user_ids; run `telecode init` or edit the config.",
    );
  }
  const { store, logger, clock } = options;
  const { http } = options;
  const bot = new Bot<TelecodeContext>(token, {
    client: {
      apiRoot: initial.telegram.apiRoot,
      timeoutSeconds: GRAMMY_TIMEOUT_SECONDS,
      // node-fetch asks for the agent of each request's URL (a legacy URL object).
      ...(http === undefined
        ? {}
        : { baseFetchConfig: { agent: (url: { href: string }) => http.agentFor(new URL(url.href)), compress: true } }),
    },
  });
  const deadlines = { ...DEFAULT_BOT_API_DEADLINES, ...options.botApiDeadlines };
  bot.api.config.use(withDeadlines(clock, deadlines, options.wakes));
  const claudeCommands = new ClaudeCommands(store, logger);
  const usageLimits = new UsageLimits({ store: store.usage, logger, now: () => clock.now() });
  const clockFormatter = localClockFormatter();
  const runs = new RunIndex<RunView>((lane, event) => {
    claudeCommands.observe(lane, event);
    usageLimits.observe(event);
    background.learn(lane, event);
    suggestions.observe(lane, event);
  });
  const chatMoves = chatMovesOf({
    store,
    logger,
    outbox: () => outbox,
    onMoved: (move) => prompts.chatMoved(move.from),
  });
  const chatTopics = chatTopicsOf({ store, logger, config: options.config, outbox: () => outbox });
  const closedChats = new ClosedChats({
    clock,
    logger,
    clockFormatter,
    outbox: () => outbox,
    parentOf: (chatId) => chatTopics.parentOf(chatId),
  });
  const outbox = new Outbox({
    api: bot.api,
    chatMoves,
    chatTopics,
    onChatClosed: (chatId, why, muted) => closedChats.closed(chatId, why, muted),
    clock,
    logger: logger.child({ area: "outbox" }),
    ...options.outbox,
    onMessageReplaced: (chatId, oldId, newId) => runs.byMessage(chatId, oldId)?.replaced(newId),
  });
  const callbacks = new CallbackRegistry<BridgeAction>({
    now: () => clock.now(),
    ...(options.buttonMemory === undefined ? {} : { memory: options.buttonMemory }),
  });
  const inGroup = (chatId: number): boolean => chatTopics.parentOf(chatId) < 0;
  const answerers = { config: options.config, store, logger, control: { inGroup } };
  const prompts = new DecisionMessages({
    outbox,
    store,
    logger,
    answers: options.answers,
    callbacks,
    runs,
    soleAnswerer: (chatId, decisionId) => soleAnswerer(answerers, chatId, decisionId),
  });
  const lifecycle = { stopping: false };
  const downloads = {
    apiRoot: initial.telegram.apiRoot,
    token,
    getFile: (id: string) => bot.api.getFile(id),
    watchTransfer: (onStall: () => void) => watchForStall(clock, deadlines.callMs, onStall),
    ...(http === undefined ? {} : { fetch: http.fetch }),
  };
  const media = options.media(downloads, initial.telegram.apiRoot !== DEFAULT_API_ROOT);
  const signIns = new McpSignIns({ outbox, callbacks, logger, clock, inGroup });
  const suggestions = new Suggestions({ outbox, callbacks, logger });
  const view: RunViewDeps = {
    outbox,
    clock,
    logger,
    store,
    runs,
    isStopping: () => lifecycle.stopping,
    progressIntervalMs: options.progressIntervalMs ?? 1000,
    heartbeatMs: options.heartbeatMs ?? 10_000,
    media,
    clockFormatter,
    inGroup,
    signIns,
    suggestions,
  };
  const background = new BackgroundTurns({
    ...view,
    runs,
    laneFolder: (lane) => {
      const project = options.config().projects.find((p) => p.name === lane.project);
      return project === undefined ? undefined : laneFolder(project, lane);
    },
  });
  let built = false;
  return {
    personPort: (lane) => prompts.portFor(lane),
    background: (lane, event) => background.observe(lane, event),
    bridge(sessions) {
      if (built) throw new BridgeError("telegram.already_started", "This Telegram front already has a bridge.");
      built = true;
      const parts = {
        bot,
        chatMoves,
        chatTopics,
        closedChats,
        runs,
        outbox,
        callbacks,
        prompts,
        sessions,
        claudeCommands,
        usageLimits,
        clockFormatter,
        view,
        lifecycle,
        media,
        signIns,
        suggestions,
      };
      return composeBridge(options, parts);
    },
  };
}

type Parts = Pick<
  BridgeServices,
  | "runs"
  | "outbox"
  | "callbacks"
  | "prompts"
  | "sessions"
  | "claudeCommands"
  | "usageLimits"
  | "clockFormatter"
  | "media"
  | "signIns"
  | "suggestions"
> & {
  bot: Bot<TelecodeContext>;
  chatMoves: ChatMoves;
  chatTopics: ChatTopics;
  closedChats: ClosedChats;
  view: RunViewDeps;
  /** Whether the bridge is stopping, shared with the run views made before it existed. */
  lifecycle: { stopping: boolean };
};

function composeBridge(options: TelegramFrontOptions, parts: Parts): TelegramBridge {
  const { bot, chatMoves, chatTopics, closedChats, outbox, sessions, lifecycle, view, ...shared } = parts;
  const { store, logger, clock } = options;
  let runner: RunnerHandle | undefined;
  let replaying: Promise<void> = Promise.resolve();
  const control: BridgeControl = {
    isStopping: () => lifecycle.stopping,
    requestRestart: (chatId) => options.onRestartRequested?.(chatId),
    botUsername: () => bot.botInfo.username,
    isMuted: (chatId) => closedChats.isMuted(chatId),
    inGroup: view.inGroup,
    readsAllGroupMessages: () => bot.botInfo.can_read_all_group_messages,
  };
  const models = options.models ?? (() => undefined);
  const budget = new Budget({
    config: options.config,
    store,
    clock,
    logger,
    outbox,
    sessions,
    prices: pricesOfOffers(models),
  });
  const worktrees = createWorktrees();
  const starter = new RunStarter({ config: options.config, store, logger, sessions, view, budget, worktrees });
  const services: BridgeServices = {
    ...shared,
    outbox,
    sessions,
    config: options.config,
    store,
    logger,
    clock,
    answers: options.answers,
    starter,
    control,
    schedules: options.schedules,
    triggers: options.triggers,
    models,
    budget,
    claudeVersion: options.claudeVersion ?? (() => undefined),
    offline: new OfflineMessages({ outbox, callbacks: shared.callbacks, logger }),
    sideAnswers: new SideAnswers({ outbox, sessions }),
  };

  bot.use(readThroughMoves(chatMoves));
  bot.use(readThroughTopics(chatTopics));
  bot.use(watchClosedChats(closedChats));
  // Messages of one chat are handled in order; taps are never held behind them.
  bot.use(sequentialize((ctx: Context) => (ctx.message === undefined ? undefined : String(ctx.chat?.id))));
  bot.use(accessControl(services));
  bot.on("callback_query", (ctx, next) => {
    logger.event("telegram.tap", { chatId: ctx.chat?.id, messageId: ctx.msgId, userId: ctx.from.id });
    return next();
  });
  const handlers = bot.errorBoundary((error) => handlerFailed(services, error));
  handlers.use(decisionButtons(services));
  handlers.use(cancelButtons(services));
  handlers.use(modeButtons(services));
  handlers.use(modelButtons(services));
  handlers.use(projectButtons(services));
  handlers.use(resumeButtons(services));
  handlers.use(scheduleButtons(services));
  handlers.use(retryButtons(services));
  handlers.use(services.signIns.buttons(services));
  handlers.use(sessionPickButtons(services));
  handlers.use(services.suggestions.buttons(services));
  const handleUpdate = (update: Update): Promise<void> => bot.handleUpdate(update);
  const edits = editedMessages({ ...services, handleUpdate });
  handlers.use(edits.buttons);
  handlers.use(services.offline.buttons(handleUpdate));
  handlers.use(unknownButtons(services));
  handlers.on("message:text", readIncomingText(services));
  handlers.use(commandComposer(COMMANDS, services));
  handlers.use(textMessages({ ...services, commandNames: COMMANDS.map((c) => c.command) }));
  handlers.use(attachmentMessages(services));
  handlers.use(voiceMessages(services));
  handlers.use(checklistMessages(services));
  handlers.use(nonTextMessages(services));
  handlers.use(edits.messages);
  handlers.use(joinedGroups(services));

  return {
    async start(startOptions = {}) {
      if (runner !== undefined)
        throw new BridgeError("telegram.already_started", "The Telegram bridge is already running.");
      await initBot(bot, {
        apiRoot: options.config().telegram.apiRoot,
        clock,
        logger,
        signal: startOptions.signal,
        onUnreachable: options.onBotApiUnreachable,
      });
      logger.event("telegram.started", { bot: bot.botInfo.username });
      const kept = (await startOptions.takeInKept?.()) ?? new Set<string>();
      recoverAfterRestart(services, kept, startOptions.restarted);
      void outbox.setCommands(COMMANDS.map(({ command, description }) => ({ command, description })));
      replaying = replayUnfinished({
        store,
        logger,
        handle: handleUpdate,
        setAside: (message) => tellSetAside(services, message),
      });
      runner = startPolling({
        bot,
        store,
        logger,
        clock,
        timeoutSeconds: options.pollTimeoutSeconds ?? 25,
        handle: handleUpdate,
        onWebhookRemoved: options.onWebhookRemoved,
      });
      runner.task()?.catch((error: unknown) => {
        logger.event("telegram.polling_failed", { err: error }, "error");
        options.onPollingFailed?.(error);
      });
    },
    async stop(stopOptions = {}) {
      if (lifecycle.stopping) return;
      lifecycle.stopping = true;
      const drainMs = options.config().limits.drainSeconds * 1000;
      logger.event("telegram.stopping", { drainMs, running: parts.runs.all().length });
      // Updates not taken stay with Telegram and are handled after the restart, not lost.
      await runner?.stop();
      await replaying;
      await sessions.shutdown(drainMs);
      const deadline = clock.now() + (stopOptions.flushTimeoutMs ?? 15_000);
      while (outbox.pending() > 0 && clock.now() < deadline)
        await new Promise<void>((resolve) => clock.setTimer(FLUSH_POLL_MS, resolve));
      if (outbox.pending() > 0) logger.event("telegram.unflushed", { pending: outbox.pending() }, "warn");
      outbox.stop();
      logger.event("telegram.stopped", { stats: outbox.stats() });
    },
    keptRunView: (run, started) =>
      starter.resumeKept(
        run,
        started === undefined ? undefined : triggerRunView(services, run.chatId, started.trigger, started.hooks),
      ),
    sessions,
    outbox,
    get botUsername() {
      return bot.botInfo.username;
    },
    startScheduled: (run) => {
      // A config may name a group by its id before or after it became a supergroup.
      const chatId = chatMoves.firstId(run.chatId);
      // A schedule's or loop's run in a chat the bot cannot write to would run unseen.
      if (run.source.kind === "schedule" && closedChats.skips(chatId, run.source.id)) return "busy";
      return startScheduledRun(services, { ...run, chatId });
    },
  };
}

/** Wall-clock times in this machine's zone (UTC when the runtime cannot say which). */
function localClockFormatter(): ClockFormatter {
  try {
    return createClockFormatter(Intl.DateTimeFormat().resolvedOptions().timeZone);
  } catch {
    return createClockFormatter("UTC");
  }
}
