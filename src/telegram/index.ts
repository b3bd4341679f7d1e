// The Telegram adapter's public surface: button callback data and the outbox every Bot API write goes through.

export {
  CALLBACK_DATA_MAX_BYTES,
  CallbackDataError,
  CallbackRegistry,
  decodeCallbackData,
  encodeCallbackData,
  newCallbackToken,
} from "./callback-data.js";
export type { CallbackData, CallbackEntry, CallbackRegistryOptions, DecodedCallbackData } from "./callback-data.js";
export { Outbox } from "./outbox.js";
export { OutboxError } from "./outbox-errors.js";
export type {
  Delivery,
  MessageContent,
  OutboxApi,
  OutboxFailureCode,
  OutboxOptions,
  OutboxStats,
  OutgoingFile,
  SendOptions,
  EditOptions,
} from "./outbox-types.js";
export {
  BridgeError,
  chatDecisionSettings,
  chatSettings,
  COMMANDS,
  createTelegramFront,
  INTERRUPTED_NOTE,
  NOT_AUTHORISED_TAP_TEXT,
  NOT_AUTHORISED_TEXT,
  recordedTrigger,
  RESUME_PROMPT,
  SET_ASIDE_TEXT,
} from "./bridge/index.js";
export type {
  Attachment,
  BotApiUnreachable,
  ChatSchedules,
  FileDownloads,
  MediaOutcome,
  MediaPort,
  NewChatSchedule,
  NewScheduleResult,
  OutboxFile,
  OutboxSkip,
  PhotoSize,
  ProjectFile,
  RecordedTrigger,
  Restarted,
  ScheduleAction,
  ScheduleActionResult,
  ScheduleCard,
  ScheduledRun,
  ScheduledRunOutcome,
  RunSource,
  TriggerRunHooks,
  TakeInKept,
  TriggerControls,
  TelegramBridge,
  TelegramFront,
  TelegramFrontOptions,
  VoiceNote,
} from "./bridge/index.js";
