// The one scheduler wired into the app: a due schedule runs in its chat's lane as a run (through
// the bridge), unattended unless it says otherwise; its cost is added up after each run; a loop
// whose session is gone starts fresh and says so; the scheduler's events become chat notices.
import type { ToolGuard } from "../../claude/index.js";
import { schedulerSettingsOf, type Config } from "../../config/index.js";
import {
  definedFields,
  laneId,
  type Lane,
  type OfferedPrices,
  type RunCompleted,
  type TelecodeEvent,
} from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import {
  answerScheduleTool,
  cancelByClaude,
  createScheduler,
  cronDeleteReason,
  firedPrompt,
  firedTitle,
  ScheduleError,
  scheduleName,
  schedulingFailedReason,
  type FireOutcome,
  type Schedule,
  type Scheduler,
  type SchedulerClock,
  type SchedulerEvent,
  type TextOptions,
} from "../../schedule/index.js";
import type { RunTrigger, SessionChoice } from "../../sessions/index.js";
import type { Store, TriggerResult } from "../../store/index.js";
import type { ChatSchedules, ScheduledRunOutcome, TelegramBridge, TriggerRunHooks } from "../../telegram/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import { createChatSchedules } from "./chat-schedules.js";
import { watchRunCost } from "./run-cost-cap.js";
import { CarriedOutCalls } from "./carried-out-calls.js";
import { holdAfterFailure } from "./schedule-holds.js";
import { dayCapHtml, noticeHtml } from "./schedule-words.js";
import { scheduleResultId } from "./trigger-status.js";

export type SchedulingDeps = {
  config: () => Config;
  store: Store;
  /** The scheduler's clock: the system's, or a test's manual one. */
  clock: SchedulerClock;
  logger: Logger;
  /** Whether every trigger is held (`[schedule] paused`, or the chat's /pause). */
  isPaused: () => boolean;
  /** What the running CLI states a model costs (cost caps, for a model the table does not know). */
  offeredPrices?: OfferedPrices;
};

/** Where fires go and notices are sent: the Telegram bridge. */
export type ScheduleTarget = Pick<TelegramBridge, "startScheduled" | "outbox" | "sessions">;

/** What a schedule's run keeps of its iteration, to be followed again after a restart. */
type ScheduleRunDetail = { scheduleId: string; iteration: number; fresh: boolean };

export type AppScheduling = {
  readonly scheduler: Scheduler;
  /** The chat's controls, for the Telegram front. */
  readonly chat: ChatSchedules;
  /** Answers Claude's scheduling tools in one lane's sessions. */
  toolGuard(lane: Lane): ToolGuard;
  /** Every event of a lane's sessions: a CronDelete naming a Telecode loop cancels it. */
  observe(lane: Lane, event: TelecodeEvent, sessionId: string | undefined): void;
  /**
   * An event as the person sees it: the end of a CronDelete whose loop `observe` cancelled
   * (Claude Code itself answers that it has no such job) reads as the loop stopped by Telecode.
   */
  shown(event: TelecodeEvent): TelecodeEvent;
  /**
   * The hooks on an iteration's run that a restart took in (`detail` as it was recorded), told
   * through `on`; undefined when its schedule is gone.
   */
  resumeRun(detail: RunTrigger, on: ScheduleTarget): TriggerRunHooks | undefined;
  /** Takes the config's [[schedules]], handles what came due while Telecode was down, and arms. */
  start(target: ScheduleTarget): void;
  /** Nothing fires from now on; runs already started go on. */
  stop(): Promise<void>;
  /** The config was reloaded: [loops], [schedule] and [[schedules]] apply now. */
  configChanged(): void;
};

const LIVE = ["active", "paused"] as const;

/** The last result an event leaves for /status and doctor; null: it leaves none. */
const RESULT_OF_EVENT: Readonly<Record<SchedulerEvent["type"], TriggerResult | null>> = {
  skipped_busy: "skipped_busy",
  skipped_day_cost: "day_capped",
  missed: "missed",
  capped: "capped",
  fire_failed: "failed",
  scheduler_failed: null,
};

function choiceOf(s: Schedule): SessionChoice {
  switch (s.session.mode) {
    case "new":
      return { kind: "new" };
    case "continue":
      return { kind: "current" };
    case "id":
      return { kind: "resume", sessionId: s.session.sessionId };
  }
}

export function createAppScheduling(deps: SchedulingDeps): AppScheduling {
  const { config, store, clock, logger } = deps;
  const settingsNow = () => ({ ...schedulerSettingsOf(config()), paused: deps.isPaused() });
  const record = (id: string, result: TriggerResult): void =>
    store.triggers.recordResult(scheduleResultId(id), result, clock.now());
  let target: ScheduleTarget | undefined;
  /** The wake-up chain whose fired run works in a lane now: ScheduleWakeup there continues it. */
  const chains = new Map<string, string>();
  const textOptions = (): TextOptions => ({
    nowMs: clock.now(),
    defaultTimeZone: scheduler.settings().defaultTimeZone,
  });
  const notify = (chatId: number, html: string): void => {
    if (target !== undefined) void target.outbox.send(chatId, { html });
  };

  const onEvent = (event: SchedulerEvent): void => {
    const fields = event.type === "scheduler_failed" ? { err: event.error } : { scheduleId: event.schedule.id };
    const failed = event.type === "scheduler_failed" || event.type === "fire_failed";
    logger.event(
      `schedule.${event.type}`,
      { ...fields, ...(event.type === "fire_failed" ? { err: event.error } : {}) },
      failed ? "error" : "info",
    );
    const result = RESULT_OF_EVENT[event.type];
    if (result !== null && event.type !== "scheduler_failed") record(event.schedule.id, result);
    const html = noticeHtml(event, textOptions());
    if (html !== null && event.type !== "scheduler_failed") notify(event.schedule.chatId, html);
  };

  /** One iteration's hooks: its cost cap watched (and told through `on`), its end recorded. */
  const runHooks = (
    on: Pick<ScheduleTarget, "sessions" | "outbox">,
    s: Schedule,
    iteration: number,
    fresh: boolean,
  ): TriggerRunHooks => {
    const watch = watchRunCost(
      {
        capUsd: s.caps.maxRunCostUsd,
        name: scheduleName(s),
        key: `max_run_cost_usd of [[schedules]] "${s.createdBy.kind === "config" ? s.createdBy.configId : s.id}"`,
        chatId: s.chatId,
      },
      {
        sessions: on.sessions,
        notify: (chatId, html) => void on.outbox.send(chatId, { html }),
        logger,
        offeredPrices: deps.offeredPrices,
      },
    );
    return {
      onFinished: (completed) => finished(s, iteration, completed, fresh, watch?.isStopped() === true),
      ...definedFields({ onStep: watch?.onStep }),
    };
  };

  const startRun = (s: Schedule, iteration: number, choice: SessionChoice, fresh: boolean): ScheduledRunOutcome => {
    if (target === undefined) return "busy";
    const lane = laneId({ chatId: s.chatId, project: s.project });
    const { permissionMode, model, effort } = s.overrides;
    const detail: ScheduleRunDetail = { scheduleId: s.id, iteration, fresh };
    const outcome = target.startScheduled({
      source: { kind: "schedule", id: s.id, cancellable: s.kind !== "config" },
      whenBusy: "skip",
      chatId: s.chatId,
      project: s.project,
      prompt: firedPrompt(s, iteration, textOptions()),
      title: `${firedTitle(s, iteration, textOptions())}${fresh ? " (in a fresh session)" : ""}`,
      choice,
      unattended: !s.attended,
      origin: s.kind === "wakeup" ? "wakeup" : "schedule",
      ...definedFields({ mode: permissionMode ?? undefined, model: model ?? undefined, effort: effort ?? undefined }),
      ...runHooks(target, s, iteration, fresh),
      detail,
    });
    if (outcome === "started" && s.kind === "wakeup") chains.set(lane, s.id);
    return outcome;
  };

  const finished = (s: Schedule, iteration: number, completed: RunCompleted, fresh: boolean, capped: boolean): void => {
    const lane = laneId({ chatId: s.chatId, project: s.project });
    if (chains.get(lane) === s.id) chains.delete(lane);
    try {
      record(s.id, capped ? "capped" : completed.cancelled ? "cancelled" : completed.ok ? "ok" : "failed");
      const cost = completed.costUsd > 0 ? scheduler.recordCost(s.id, completed.costUsd) : null;
      if (cost?.verdict === "day_capped") notify(s.chatId, dayCapHtml(cost.schedule, textOptions()));
      if (fresh && s.session.mode === "id" && completed.sessionId !== undefined)
        scheduler.moveToSession(s.id, { mode: "id", sessionId: completed.sessionId });
    } catch (error) {
      logger.event("schedule.record_failed", { err: error, scheduleId: s.id }, "error");
    }
    if (holdAfterFailure({ scheduler, notify, textOptions }, s, completed.error)) return;
    if (fresh || completed.error?.reason !== "session_not_found" || s.session.mode === "new") return;
    // The session it continues is gone (its transcript was removed): this iteration starts a fresh one.
    const name = `<b>${esc(scheduleName(s))}</b>`;
    notify(
      s.chatId,
      `⚠️ ${name}: its session could not be resumed, so it goes on in a fresh session in <b>${esc(s.project)}</b>.`,
    );
    const again = startRun(store.schedules.get(s.id) ?? s, iteration, { kind: "new" }, true);
    if (again !== "started")
      notify(s.chatId, `⏭ ${name} could not start a fresh session now; it tries again at its next time.`);
  };

  const fire = (s: Schedule, iteration: number): FireOutcome => {
    const outcome = startRun(s, iteration, choiceOf(s), false);
    if (outcome === "no_project")
      throw new ScheduleError(
        "schedule.fire_failed",
        `Project "${s.project}" is no longer in the config. Add it back, or stop this schedule.`,
        { details: { scheduleId: s.id, project: s.project } },
      );
    return outcome === "busy" || outcome === "refused" ? "busy" : "started";
  };

  const scheduler = createScheduler({
    clock,
    repository: store.schedules,
    settings: settingsNow(),
    fire,
    onEvent,
  });

  const syncConfig = (): void => {
    const report = scheduler.replaceConfigSchedules(config().schedules);
    if (report.added.length + report.changed.length + report.removed.length > 0)
      logger.event("schedule.config_synced", { ...report });
  };

  const carriedOut = new CarriedOutCalls();
  return {
    scheduler,
    chat: createChatSchedules({ scheduler, repository: store.schedules, nowMs: () => clock.now() }),
    toolGuard: (lane) => (call) => {
      const chat = {
        scheduler,
        chatId: lane.chatId,
        project: lane.project,
        list: () => store.schedules.list({ chatId: lane.chatId, states: LIVE }),
        nowMs: () => clock.now(),
        loopsOn: () => store.chats.get(lane.chatId).loops,
        runningChain: () => chains.get(laneId(lane)),
      };
      try {
        return answerScheduleTool(chat, call);
      } catch (error) {
        // Refused with why, in words Claude and the person can act on (not a bare hook error).
        logger.event("schedule.tool_failed", { chatId: lane.chatId, tool: call.toolName, err: error }, "error");
        return { decision: "deny", reason: schedulingFailedReason(call.toolName, error) };
      }
    },
    observe(lane, event, sessionId) {
      if (event.type !== "tool_started" || event.name !== "CronDelete" || event.parentToolUseId !== null) return;
      const id = event.input["id"];
      if (typeof id !== "string" || sessionId === undefined) return;
      const result = cancelByClaude({ scheduler, chatId: lane.chatId }, id, sessionId);
      if (result.kind !== "cancelled") return;
      carriedOut.remember(event.toolUseId, cronDeleteReason(result));
      logger.event("schedule.cancelled_by_claude", { scheduleId: result.schedule.id, sessionId });
      notify(lane.chatId, `⏹ <b>${esc(scheduleName(result.schedule))}</b> stopped: Claude cancelled it.`);
    },
    shown(event) {
      if (event.type !== "tool_finished" || event.ok) return event;
      const detail = carriedOut.take(event.toolUseId);
      return detail === undefined ? event : { ...event, detail };
    },
    resumeRun(detail, on) {
      const { scheduleId, iteration, fresh } = detail as Partial<ScheduleRunDetail>;
      if (typeof scheduleId !== "string" || typeof iteration !== "number") return undefined;
      const s = store.schedules.get(scheduleId);
      if (s === null) return undefined;
      if (s.kind === "wakeup") chains.set(laneId({ chatId: s.chatId, project: s.project }), s.id);
      return runHooks(on, s, iteration, fresh === true);
    },
    start(next) {
      target = next;
      syncConfig();
      scheduler.start();
    },
    async stop() {
      scheduler.stop();
      await scheduler.whenIdle();
      target = undefined;
    },
    configChanged() {
      scheduler.updateSettings(settingsNow());
      syncConfig();
    },
  };
}
