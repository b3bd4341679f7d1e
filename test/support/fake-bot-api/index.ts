// The project's own local Bot API server for tests (see /work/shared/telegram-testing.md,
// option B): start it, point grammY's client.apiRoot at it, drive the simulated people.

export { startFakeBotApi, FakeBotApi } from "./fake-bot-api.js";
export type { FakeBotApiOptions, MessageMatch, MessageView, WaitOptions } from "./fake-bot-api.js";
export type { Fault, FaultOptions } from "./server.js";
export type { CallbackAnswer, CallRecord, FakeUser, InlineKeyboard, MessageRevision } from "./state.js";
export { NOT_MODIFIED } from "./methods.js";
export type {
  AlbumItem,
  AudioInput,
  DocumentInput,
  PhotoInput,
  PhotoSizeInput,
  VideoInput,
  VideoNoteInput,
  VoiceInput,
} from "./user-media.js";
