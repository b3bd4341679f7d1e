// Which messages reached Telecode while it was listening: those a long poll handed over right
// after the one before it, with nothing left behind (polling, update-source.ts). Such a message
// was sent moments ago, whatever the two clocks say; only the others (waiting while Telecode was
// down, or while it could not reach Telegram) are judged by their date, which a computer's clock
// running ahead of Telegram's would make look old.
import type { Message, Update } from "grammy/types";

const heardLive = new WeakSet<Message>();

/** Every message of `update` reached Telecode while it was listening. */
export function markHeardLive(update: Update): void {
  for (const message of [update.message, update.edited_message]) if (message !== undefined) heardLive.add(message);
}

/** Whether `message` reached Telecode while it was listening. */
export function wasHeardLive(message: Message): boolean {
  return heardLive.has(message);
}

/** `copy` (a message read again, as of its edit) reached Telecode as `original` did. */
export function heardAs<M extends Message>(copy: M, original: Message): M {
  if (heardLive.has(original)) heardLive.add(copy);
  return copy;
}
