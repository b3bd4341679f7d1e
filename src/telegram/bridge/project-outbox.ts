// After a run, what Claude left in the project's outbox (.telecode/outbox/) goes to the chat:
// images as photos, other files as documents, each then moved to .telecode/sent/, and one
// notice lists what was not sent and why. Follows the answer; never holds up the run's end.
import type { Logger } from "../../ports/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { Outbox } from "../outbox.js";
import type { Delivery, SendOptions } from "../outbox-types.js";
import type { MediaPort, OutboxFile, OutboxSkip } from "./media-port.js";
import { quoting, type QuotedChat } from "./run-results.js";

export type ProjectOutboxDeps = {
  outbox: Outbox;
  logger: Logger;
  media: Pick<MediaPort, "prepareOutbox" | "collectOutbox" | "markSent" | "outboxNotice">;
};

/**
 * Sends the outbox's files to the chat (quoting `quoteReplyTo` when given, as the run's answer
 * does), moves them to the sent folder, and says what was skipped.
 */
export async function deliverProjectOutbox(
  deps: ProjectOutboxDeps,
  target: QuotedChat,
  projectRoot: string,
): Promise<void> {
  const { chatId } = target;
  const options = { mustDeliver: true, silent: true, ...quoting(target) };
  const { send, skipped } = await deps.media.collectOutbox(projectRoot);
  if (send.length === 0 && skipped.length === 0) return;
  const notSent: OutboxSkip[] = [...skipped];
  for (const file of send) {
    const failure = await sendFile(deps, chatId, file, options);
    if (failure !== undefined) notSent.push({ name: file.name, reason: failure });
  }
  const left: string[] = [];
  let why = "";
  for (const { name } of [...send, ...skipped]) {
    const failed = await deps.media.markSent(projectRoot, name);
    if (failed === undefined) continue;
    left.push(name);
    why ||= failed;
  }
  deps.logger.event("telegram.outbox_delivered", {
    chatId,
    sent: send.length + skipped.length - notSent.length,
    skipped: notSent.length,
  });
  const notice = deps.media.outboxNotice(notSent, left.length === 0 ? undefined : { names: left, why });
  if (notice !== undefined) await deps.outbox.send(chatId, { html: esc(notice) }, options);
}

/** Sends one file; undefined once Telegram has it, else why not (a phrase after its name). */
async function sendFile(
  deps: ProjectOutboxDeps,
  chatId: number,
  file: OutboxFile,
  options: SendOptions,
): Promise<string | undefined> {
  let data: Uint8Array;
  try {
    data = await file.read();
  } catch (error) {
    deps.logger.event("telegram.outbox_read_failed", { err: error, chatId, name: file.name }, "warn");
    return "could not be read";
  }
  const document = { filename: file.name, data };
  let delivery: Delivery;
  if (!file.asPhoto) delivery = await deps.outbox.sendDocument(chatId, document, options);
  else {
    delivery = await deps.outbox.sendPhoto(chatId, { ...document, captionHtml: esc(file.name) }, options);
    // Telegram judges a photo by more than its header; what it will not show goes as a file.
    if (!delivery.ok && delivery.code === "rejected")
      delivery = await deps.outbox.sendDocument(chatId, document, options);
  }
  return delivery.ok ? undefined : `was refused by Telegram (${delivery.description})`;
}
