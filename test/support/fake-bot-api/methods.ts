// The Bot API methods the fake serves (all but getUpdates, which the server long-polls),
// with the Bot API's validation and its error texts. Checked against core.telegram.org/bots/api.

import { TELEGRAM_TEXT_LIMIT } from "../../../src/render/index.js";
import { mediaMethods } from "./media-methods.js";
import {
  formatText,
  messageToEdit,
  readKeyboard,
  readReplyTarget,
  sameKeyboard,
  targetChat,
} from "./message-params.js";
import { badRequest, type Params } from "./params.js";
import type { FakeWorld } from "./state.js";
import { threadFor } from "./topics.js";

export type MethodHandler = (world: FakeWorld, params: Params) => unknown;

export const NOT_MODIFIED =
  "message is not modified: specified new message content and reply markup are exactly the same as a current content and reply markup of the message";

const CHAT_ACTIONS = new Set([
  "typing",
  "upload_photo",
  "record_video",
  "upload_video",
  "record_voice",
  "upload_voice",
  "upload_document",
  "choose_sticker",
  "find_location",
  "record_video_note",
  "upload_video_note",
]);

export const methods: Readonly<Record<string, MethodHandler>> = {
  getMe: (world) => ({
    ...world.botJson(),
    can_join_groups: true,
    can_read_all_group_messages: false,
    supports_inline_queries: false,
    can_connect_to_business: false,
    has_main_web_app: false,
  }),

  setWebhook: (world, params) => {
    world.webhookUrl = params.requiredString("url", "url is empty");
    return true;
  },

  deleteWebhook: (world, params) => {
    if (params.optionalBool("drop_pending_updates") === true) world.updates = [];
    world.webhookUrl = "";
    return true;
  },

  getWebhookInfo: (world) => ({
    url: world.webhookUrl,
    has_custom_certificate: false,
    pending_update_count: world.updates.length,
  }),

  sendMessage: (world, params) => {
    const chat = targetChat(world, params, "text messages");
    const formatted = formatText(
      params,
      "text",
      "entities",
      TELEGRAM_TEXT_LIMIT,
      "message text is empty",
      "message is too long",
    );
    const keyboard = readKeyboard(params, false);
    const replyTo = readReplyTarget(chat, params);
    const threadId = threadFor(chat, params, replyTo);
    const message = world.newMessage(chat, { ...formatted, keyboard, replyToMessageId: replyTo, threadId });
    return world.messageJson(message);
  },

  editMessageText: (world, params) => {
    const message = messageToEdit(world, params);
    if (message.text === undefined) throw badRequest("there is no text in the message to edit");
    const formatted = formatText(
      params,
      "text",
      "entities",
      TELEGRAM_TEXT_LIMIT,
      "message text is empty",
      "message is too long",
    );
    // Telegram removes the inline keyboard when an edit does not repeat it.
    const keyboard = readKeyboard(params, true);
    const unchanged =
      formatted.text === message.text &&
      JSON.stringify(formatted.entities) === JSON.stringify(message.entities) &&
      sameKeyboard(keyboard, message.keyboard);
    if (unchanged) throw badRequest(NOT_MODIFIED);
    Object.assign(message, formatted, { keyboard, editDateS: Math.floor(world.now() / 1000) });
    message.revisions.push(world.revision(message));
    return world.messageJson(message);
  },

  editMessageReplyMarkup: (world, params) => {
    const message = messageToEdit(world, params);
    const keyboard = readKeyboard(params, true);
    if (sameKeyboard(keyboard, message.keyboard)) throw badRequest(NOT_MODIFIED);
    message.keyboard = keyboard;
    message.editDateS = Math.floor(world.now() / 1000);
    message.revisions.push(world.revision(message));
    return world.messageJson(message);
  },

  deleteMessage: (world, params) => {
    const chat = targetChat(world, params);
    const messageId = params.requiredInt("message_id", "message identifier is not specified");
    if (!chat.messages.delete(messageId)) throw badRequest("message to delete not found");
    chat.deletedMessageIds.push(messageId);
    return true;
  },

  sendChatAction: (world, params) => {
    const chat = targetChat(world, params);
    const action = params.requiredString("action", "wrong parameter action in request");
    if (!CHAT_ACTIONS.has(action)) throw badRequest("wrong parameter action in request");
    const threadId = threadFor(chat, params, undefined);
    chat.actions.push({ action, atMs: world.now(), ...(threadId === undefined ? {} : { threadId }) });
    return true;
  },

  answerCallbackQuery: (world, params) => {
    const id = params.requiredString("callback_query_id", "QUERY_ID_INVALID");
    const query = world.callbackQueries.get(id);
    if (query === undefined || query.answer !== undefined) {
      throw badRequest("query is too old and response timeout expired or query ID is invalid");
    }
    const text = params.optionalString("text");
    if (text !== undefined && [...text].length > 200) throw badRequest("MESSAGE_TOO_LONG");
    query.answer = {
      text,
      showAlert: params.optionalBool("show_alert") ?? false,
      url: params.optionalString("url"),
      atMs: world.now(),
    };
    return true;
  },

  setMyCommands: (world, params) => {
    const commands = params.optionalJson("commands");
    if (!Array.isArray(commands) || commands.length > 100)
      throw badRequest("commands must be an array of at most 100 items");
    const parsed = commands.map((item: unknown) => {
      const { command, description } = (item ?? {}) as { command?: unknown; description?: unknown };
      if (typeof command !== "string" || !/^[a-z0-9_]{1,32}$/.test(command)) throw badRequest("BOT_COMMAND_INVALID");
      if (typeof description !== "string" || description.length < 1 || description.length > 256) {
        throw badRequest("BOT_COMMAND_DESCRIPTION_INVALID");
      }
      return { command, description };
    });
    world.commands = parsed;
    return true;
  },

  getMyCommands: (world) => world.commands,

  ...mediaMethods,
};
