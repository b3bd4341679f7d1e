// /file get PATH: a file of the chat's project sent to the phone (an image as a photo), a
// folder as a zip. Outside the project, through a link or matching files.deny_globs is refused.
import { excerpt } from "../../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { ProjectFile } from "../media-port.js";
import type { BridgeServices } from "../services.js";
import { NO_PROJECT, type Command, type CommandCall } from "./command.js";

const USAGE =
  "Say which file: <code>/file get PATH</code>, with PATH relative to the project root (a folder comes as a zip).";

/** Lines of a zip's "left out" list shown in the chat; the rest are counted. */
const LEFT_OUT_SHOWN = 15;

export const fileCommand: Command = {
  command: "file",
  description: "Send a file or folder from the project: /file get PATH",
  run(call, services) {
    const path = /^get(\s+|$)/i.test(call.args) ? call.args.slice(3).trim() : "";
    if (call.word !== "get" || path === "") return call.say(USAGE);
    const project = call.settings.project;
    if (project === undefined) return call.say(NO_PROJECT);
    void sendProjectFile(call, services, project.path, path).catch((error: unknown) => {
      services.logger.event("telegram.file_get_failed", { err: error, chatId: call.message.chatId }, "error");
      call.say(`I could not read ${esc(path)} from the project. Check that Telecode may read it, then ask again.`);
    });
  },
};

async function sendProjectFile(
  call: CommandCall,
  { outbox, media }: BridgeServices,
  projectRoot: string,
  path: string,
): Promise<void> {
  const read = await media.readProjectFile(projectRoot, path);
  if (!read.ok) return call.say(esc(read.say));
  const file = read.value;
  const chatId = call.message.chatId;
  const options = { replyTo: call.message.messageId, mustDeliver: true };
  const outgoing = { filename: file.fileName, data: file.bytes, captionHtml: captionOf(file) };
  const sent = file.asPhoto ? await outbox.sendPhoto(chatId, outgoing, options) : undefined;
  // Telegram judges a photo by more than its header; what it will not show goes as a file.
  const delivered =
    sent === undefined || (!sent.ok && sent.code === "rejected")
      ? await outbox.sendDocument(chatId, outgoing, options)
      : sent;
  // A group may take files but not text (or the other way): the words may still get through.
  if (!delivered.ok && delivered.code === "rejected")
    call.say(`${esc(file.fileName)} was refused by Telegram (${esc(delivered.description)}).`);
  if (file.leftOut.length > 0) {
    const shown = file.leftOut.slice(0, LEFT_OUT_SHOWN).map((line) => `- ${esc(excerpt(line, 200))}`);
    const more = file.leftOut.length - shown.length;
    if (more > 0) shown.push(`…and ${more} more`);
    call.say(`Left out of ${esc(file.fileName)}:\n${shown.join("\n")}`);
  }
}

function captionOf(file: ProjectFile): string {
  const where = file.relativePath === "" ? "The project" : `<code>${esc(excerpt(file.relativePath, 300))}</code>`;
  return file.zipped ? `${where}, zipped` : where;
}
