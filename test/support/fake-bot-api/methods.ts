// The Bot API methods the fake serves (all but getUpdates, which the server long-polls),
// with the Bot API's validation and its error texts. Checked against core.telegram.org/bots/api.

import { parseTelegramHtml, TELEGRAM_CAPTION_LIMIT, TELEGRAM_TEXT_LIMIT } from "../../../src/render/index.js";
import { ApiFailure, badRequest, type Params } from "./params.js";
import type { Entity, FakeWorld, InlineButton, InlineKeyboard, StoredChat, StoredMessage } from "./state.js";

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

  deleteWebhook: (world, params) => {
    if (params.optionalBool("drop_pending_updates") === true) world.updates = [];
    return true;
  },

  getWebhookInfo: (world) => ({ url: "", has_custom_certificate: false, pending_update_count: world.updates.length }),

  sendMessage: (world, params) => {
    const chat = targetChat(world, params);
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
    const message = world.newMessage(chat, { ...formatted, keyboard, replyToMessageId: replyTo });
    return world.messageJson(message);
  },

  sendDocument: (world, params) => {
    const chat = targetChat(world, params);
    const document = readDocument(world, chat, params);
    const caption = params.has("caption")
      ? formatText(
          params,
          "caption",
          "caption_entities",
          TELEGRAM_CAPTION_LIMIT,
          undefined,
          "message caption is too long",
        )
      : undefined;
    const message = world.newMessage(chat, {
      document,
      caption: caption?.text,
      captionEntities: caption?.entities ?? [],
      html: caption?.html,
      parseMode: caption?.parseMode,
      keyboard: readKeyboard(params, false),
      replyToMessageId: readReplyTarget(chat, params),
    });
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
    chat.actions.push({ action, atMs: world.now() });
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
};

function targetChat(world: FakeWorld, params: Params): StoredChat {
  const chatId = params.chatId();
  const chat = world.chat(chatId);
  if (chat === undefined) throw badRequest("chat not found");
  if (world.blockedChats.has(chatId)) throw new ApiFailure(403, "Forbidden: bot was blocked by the user");
  return chat;
}

function messageToEdit(world: FakeWorld, params: Params): StoredMessage {
  if (params.has("inline_message_id")) throw badRequest("the fake Bot API does not serve inline messages");
  const chat = targetChat(world, params);
  const messageId = params.requiredInt("message_id", "message identifier is not specified");
  const message = chat.messages.get(messageId);
  if (message === undefined) throw badRequest("message to edit not found");
  if (message.fromUserId !== undefined) throw badRequest("message can't be edited");
  return message;
}

type Formatted = { text: string; entities: Entity[]; html: string | undefined; parseMode: string | undefined };

function formatText(
  params: Params,
  field: string,
  entitiesField: string,
  limit: number,
  emptyError: string | undefined,
  tooLongError: string,
): Formatted {
  const source = params.optionalString(field) ?? "";
  const parseMode = params.optionalString("parse_mode") || undefined;
  let text: string;
  let entities: Entity[];
  if (parseMode === undefined) {
    text = source.trim();
    entities = (params.optionalJson(entitiesField) as Entity[] | undefined) ?? [];
  } else if (parseMode === "HTML") {
    const parsed = parseTelegramHtml(source);
    if (!parsed.ok) throw badRequest(`can't parse entities: ${parsed.error}`);
    text = parsed.text;
    entities = parsed.entities;
  } else {
    // MarkdownV2 exists in Telegram; Telecode never sends it, so the fake refuses it loudly.
    throw badRequest("unsupported parse_mode");
  }
  if (text.length === 0 && emptyError !== undefined) throw badRequest(emptyError);
  if (text.length > limit) throw badRequest(tooLongError);
  return { text, entities, html: parseMode === "HTML" ? source : undefined, parseMode };
}

/** Only inline keyboards are kept; `{inline_keyboard: []}` or none means no keyboard. */
function readKeyboard(params: Params, inlineOnly: boolean): InlineKeyboard | undefined {
  const markup = params.optionalJson("reply_markup");
  if (markup === undefined) return undefined;
  if (typeof markup !== "object" || markup === null) throw badRequest("can't parse reply keyboard markup JSON object");
  const rows = (markup as { inline_keyboard?: unknown }).inline_keyboard;
  if (rows === undefined) {
    if (inlineOnly) throw badRequest("inline keyboard expected");
    return undefined;
  }
  if (!Array.isArray(rows)) throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array');
  const keyboard: InlineButton[][] = rows.map((row: unknown) => {
    if (!Array.isArray(row))
      throw badRequest('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays');
    return row.map(readButton);
  });
  return keyboard.some((row) => row.length > 0) ? { inline_keyboard: keyboard } : undefined;
}

function readButton(raw: unknown): InlineButton {
  const { text, callback_data: data, url } = (raw ?? {}) as { text?: unknown; callback_data?: unknown; url?: unknown };
  if (typeof text !== "string")
    throw badRequest('can\'t parse inline keyboard button: Field "text" must be of type String');
  // Telegram refuses buttons without text; this wording is the fake's own.
  if (text.trim() === "") throw badRequest("can't parse inline keyboard button: text must be non-empty");
  if (data !== undefined) {
    if (typeof data !== "string" || data.length === 0 || Buffer.byteLength(data, "utf8") > 64) {
      throw badRequest("BUTTON_DATA_INVALID");
    }
    return { text, callback_data: data };
  }
  if (typeof url === "string") return { text, url };
  throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
}

function sameKeyboard(a: InlineKeyboard | undefined, b: InlineKeyboard | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

function readReplyTarget(chat: StoredChat, params: Params): number | undefined {
  const parameters = params.optionalJson("reply_parameters") as
    { message_id?: unknown; allow_sending_without_reply?: unknown } | undefined;
  const messageId = parameters !== undefined ? parameters.message_id : params.optionalInt("reply_to_message_id");
  if (messageId === undefined) return undefined;
  if (typeof messageId !== "number") throw badRequest('field "message_id" must be of type Integer');
  if (chat.messages.has(messageId)) return messageId;
  const allowWithout = parameters?.allow_sending_without_reply ?? params.optionalBool("allow_sending_without_reply");
  if (allowWithout === true) return undefined;
  throw badRequest("message to be replied not found");
}

function readDocument(world: FakeWorld, chat: StoredChat, params: Params): StoredMessage["document"] {
  const value = params.raw("document");
  const attach =
    typeof value === "string" && value.startsWith("attach://") ? value.slice("attach://".length) : undefined;
  const upload = params.files.find((file) => file.field === (attach ?? "document"));
  if (upload !== undefined) {
    return { ...world.newFileIds(), fileName: upload.filename, mimeType: upload.mimeType, content: upload.content };
  }
  if (typeof value === "string" && value !== "") {
    for (const message of chat.messages.values()) {
      if (message.document?.fileId === value) return message.document;
    }
    throw badRequest("wrong file identifier/HTTP URL specified");
  }
  throw badRequest("there is no document in the request");
}
