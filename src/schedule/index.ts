// The schedule folder's public surface: the one scheduler, what a schedule is, cron and zone
// checks, and the pure words and parsers the chat and the hooks need.
export { DEFAULT_LOOP_CAPS, timingRefusal, type LoopCaps, type Refusal, type RefusalCode } from "./caps.js";
export {
  parseAt,
  parseEvery,
  type ChatCommandContext,
  type ChatCommandResult,
  type ChatScheduleSpec,
} from "./chat-commands.js";
export {
  answerScheduleTool,
  answerWithoutScheduler,
  cancelByClaude,
  SCHEDULE_TOOLS,
  type ChatScheduling,
  type ScheduleToolAnswer,
  type ScheduleToolCall,
} from "./claude-tools.js";
export { configScheduleId, type ConfigScheduleEntry, type ConfigSyncReport } from "./config-sync.js";
export {
  wakeupFireAt,
  type CreateResult,
  type NewSchedule,
  type WakeupRequest,
  type WakeupResult,
} from "./create-schedule.js";
export { canonicalTimeZone, cronProblem } from "./cron.js";
export { dayIn } from "./zone-clock.js";
export { describeSchedule, describeTiming, durationInWords, whenInWords, type DescribeOptions } from "./describe.js";
export { ScheduleError, type ScheduleErrorCode } from "./errors.js";
export {
  cronDeleteReason,
  cronListReason,
  firedPrompt,
  firedTitle,
  GUARD_FAILED_REASON,
  loopsOffReason,
  loopStoredReason,
  refusedReason,
  scheduleName,
  schedulingFailedReason,
  stateReasonWords,
  wakeupStoppedReason,
  wakeupStoredReason,
  type TextOptions,
} from "./hook-text.js";
export type {
  ScheduleDraft,
  ScheduleExpectation,
  ScheduleFilter,
  SchedulePatch,
  ScheduleRepository,
} from "./schedule-store.js";
export {
  CLAUDE_KINDS,
  NO_CAPS,
  NO_OVERRIDES,
  SCHEDULE_STATES,
  STATE_REASONS,
  type CancelReason,
  type CapReason,
  type DoneReason,
  type Schedule,
  type ScheduleCaps,
  type ScheduleCreator,
  type ScheduleKind,
  type ScheduleOverrides,
  type ScheduleSession,
  type ScheduleState,
  type ScheduleTiming,
  type StateReason,
} from "./schedule-types.js";
export { createScheduler, MAX_TIMER_MS, type CostResult, type Scheduler, type SchedulerOptions } from "./scheduler.js";
export type {
  CancelResult,
  FireOutcome,
  FireSchedule,
  SchedulerClock,
  SchedulerEvent,
  SchedulerSettings,
} from "./scheduler-types.js";
