// The Telegram bridge's public surface: the front the session layer is built on, the bridge
// over it, and the pieces the composition root and tests need (commands, chat switches, texts).
export { BridgeError, createTelegramFront } from "./bridge.js";
export type { TakeInKept, TelegramBridge, TelegramFront, TelegramFrontOptions } from "./bridge.js";
export type { BotApiUnreachable } from "./bot-init.js";
export type {
  Attachment,
  FileDownloads,
  MediaOutcome,
  MediaPort,
  OutboxFile,
  OutboxSkip,
  PhotoSize,
  ProjectFile,
  VoiceNote,
} from "./media-port.js";
export { chatDecisionSettings, chatSettings } from "./chat-settings.js";
export { COMMANDS } from "./commands/index.js";
export { NOT_AUTHORISED_TAP_TEXT, NOT_AUTHORISED_TEXT } from "./access.js";
export { RESUME_PROMPT } from "./buttons/resume.js";
export { INTERRUPTED_NOTE } from "./resume-button.js";
export { SET_ASIDE_TEXT } from "./recovery.js";
export type { Restarted } from "./recovery.js";
export { recordedTrigger } from "./scheduled-run.js";
export type { RecordedTrigger } from "./scheduled-run.js";
export type {
  ChatSchedules,
  NewChatSchedule,
  NewScheduleResult,
  ScheduleAction,
  ScheduleActionResult,
  ScheduleCard,
  ScheduledRun,
  ScheduledRunOutcome,
  RunSource,
  TriggerRunHooks,
  TriggerControls,
} from "./schedule-port.js";
