// What `telecode init` says in Telegram: one message to the person whose user id it learned
// from their message, so the chat itself shows the bot is theirs now. Plain Bot API over fetch,
// as init's other Bot API calls (doctor-probes.ts); the token never reaches a description.
import { callBotApi, type BotApiAt } from "./doctor-probes.js";

export type SendResult = { ok: true } | { ok: false; description: string };

/** Sends `text` to the private chat `chatId` (a person's chat has their user id). Never throws. */
export async function sendSetUpNote(at: BotApiAt, chatId: number, text: string): Promise<SendResult> {
  const sent = await callBotApi<unknown>(at, "sendMessage", { chat_id: chatId, text });
  return sent.ok ? { ok: true } : { ok: false, description: sent.description };
}

/** The note: who may use the bot now, and how to start Telecode (`startCommand`). */
export function setUpNoteText(firstName: string, userId: number, startCommand: string): string {
  return [
    `Telecode is set up for you, ${firstName}: this bot answers only you (user id ${userId}).`,
    `Start it on your computer with ${startCommand}, then send me a task here.`,
  ].join("\n");
}
