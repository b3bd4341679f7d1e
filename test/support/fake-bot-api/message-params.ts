// Reading the common parameters of the Bot API's send and edit methods (target chat, text or
// caption with its entities, inline keyboard, reply target), with Telegram's error texts.

import { parseTelegramHtml } from "../../../src/render/index.js";
import { ApiFailure, badRequest, type Params } from "./params.js";
import type { Entity, FakeWorld, InlineButton, InlineKeyboard, StoredChat, StoredMessage } from "./state.js";

/** The chat a call names; `posting` (what a send posts: "text messages", "photos") is refused where the bot is muted. */
export function targetChat(world: FakeWorld, params: Params, posting?: string): StoredChat {
  const chatId = params.chatId();
  const chat = world.chat(chatId);
  if (chat === undefined) throw badRequest("chat not found");
  if (world.blockedChats.has(chatId)) throw new ApiFailure(403, "Forbidden: bot was blocked by the user");
  const movedTo = world.movedChats.get(chatId);
  if (movedTo !== undefined)
    throw new ApiFailure(400, "Bad Request: group chat was upgraded to a supergroup chat", {
      migrate_to_chat_id: movedTo,
    });
  if (posting !== undefined && world.mutedChats.has(chatId))
    throw badRequest(`not enough rights to send ${posting} to the chat`);
  return chat;
}

export function messageToEdit(world: FakeWorld, params: Params): StoredMessage {
  if (params.has("inline_message_id")) throw badRequest("the fake Bot API does not serve inline messages");
  const chat = targetChat(world, params);
  const messageId = params.requiredInt("message_id", "message identifier is not specified");
  const message = chat.messages.get(messageId);
  if (message === undefined) throw badRequest("message to edit not found");
  if (message.fromUserId !== undefined) throw badRequest("message can't be edited");
  return message;
}

export type Formatted = { text: string; entities: Entity[]; html: string | undefined; parseMode: string | undefined };

export function formatText(
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
export function readKeyboard(params: Params, inlineOnly: boolean): InlineKeyboard | undefined {
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
  if (typeof url === "string") return { text, url: checkedButtonUrl(url) };
  throw badRequest("can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard");
}

/**
 * A link button's URL as Telegram checks it: a web page on a named host, or a tg:// link
 * (the descriptions are Telegram's own).
 */
function checkedButtonUrl(url: string): string {
  const refused = (why: string) => badRequest(`inline keyboard button URL '${url}' is invalid: ${why}`);
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1]?.toLowerCase() ?? "http";
  if (scheme === "tg") return url;
  if (scheme !== "http" && scheme !== "https") throw refused("Unsupported URL protocol");
  let host: string;
  try {
    host = new URL(url.includes("://") ? url : `http://${url}`).hostname;
  } catch {
    throw refused("Wrong HTTP URL");
  }
  if (!host.includes(".")) throw refused("Wrong HTTP URL");
  return url;
}

export function sameKeyboard(a: InlineKeyboard | undefined, b: InlineKeyboard | undefined): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

export function readReplyTarget(chat: StoredChat, params: Params): number | undefined {
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
