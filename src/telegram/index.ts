// The Telegram adapter's public surface: callback data, the outbox, and (later) the bot.

export {
  CALLBACK_DATA_MAX_BYTES,
  CallbackDataError,
  CallbackRegistry,
  decodeCallbackData,
  encodeCallbackData,
  newCallbackToken,
} from "./callback-data.js";
export type { CallbackData, CallbackEntry, CallbackLookup, CallbackRegistryOptions, DecodedCallbackData } from "./callback-data.js";
