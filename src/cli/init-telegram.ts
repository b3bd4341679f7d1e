// What `telecode init` says in Telegram: one message to the person whose user id it learned
// from their message, so the chat itself shows the bot is theirs now. Plain Bot API over fetch,
// as init's other Bot API calls (doctor-probes.ts); the token never reaches a description.
import { redactSecrets } from "../log/index.js";

export type SendResult = { ok: true } | { ok: false; description: string };

/** Sends `text` to the private chat `chatId` (a person's chat has their user id). Never throws. */
export async function sendSetUpNote(apiRoot: string, token: string, chatId: number, text: string): Promise<SendResult> {
  try {
    const response = await fetch(`${apiRoot}/bot${token}/sendMessage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ chat_id: chatId, text }),
      signal: AbortSignal.timeout(15_000),
    });
    const body = (await response.json().catch(() => ({}))) as { ok?: unknown; description?: unknown };
    if (body.ok === true) return { ok: true };
    const description = typeof body.description === "string" ? body.description : `HTTP ${response.status}`;
    return { ok: false, description: redactSecrets(description, [token]) };
  } catch (error) {
    return { ok: false, description: redactSecrets(error instanceof Error ? error.message : String(error), [token]) };
  }
}

/** The note: who may use the bot now, and how to start Telecode (`startCommand`). */
export function setUpNoteText(firstName: string, userId: number, startCommand: string): string {
  return [
    `Telecode is set up for you, ${firstName}: this bot answers only you (user id ${userId}).`,
    `Start it on your computer with ${startCommand}, then send me a task here.`,
  ].join("\n");
}
