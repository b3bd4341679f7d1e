// Photos and files a person sends, alone or as an album: read like a text message (the
// caption is the text), then routed like one — a run whose prompt carries them, or the
// answer to an open question or approval. An album waits until its last part has come. A
// video or a video note (a screen recording of a bug) comes as a file: saved in the project,
// where Claude can take it apart with the tools it has.
import { Composer } from "grammy";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import type { Attachment, MediaOutcome } from "../media-port.js";
import { readSlashWord } from "../command-text.js";
import { quoteBlock } from "../message-markdown.js";
import { logFailure, type BridgeServices } from "../services.js";
import { AlbumCollector, type Album } from "./album.js";
import { attachmentOf } from "./attachment-of.js";
import { incomingCaption, isAdmitted, promptWords, standingAlone } from "./incoming.js";
import { routeMessage, wordsContent, type MessageContent } from "./route.js";

type Part = { incoming: IncomingText; attachment: Attachment };

export type ContentDeps = Pick<BridgeServices, "outbox" | "media">;

export function attachmentMessages(deps: BridgeServices): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  const albums = new AlbumCollector<Part>(deps.clock, (album) => {
    routeAlbum(deps, album)?.catch(logFailure(deps.logger, "telegram.album_failed"));
  });
  messages.on(["message:photo", "message:document", "message:video", "message:video_note"], (ctx) => {
    const attachment = attachmentOf(ctx.message);
    if (ctx.person === undefined || attachment === undefined) return;
    const incoming = incomingCaption(ctx.message, ctx.person, deps.control.botUsername());
    const groupId = ctx.message.media_group_id;
    if (groupId !== undefined) {
      const part = { messageId: incoming.messageId, caption: incoming.prompt, item: { incoming, attachment } };
      albums.add(`${incoming.chatId}:${groupId}`, part);
      return;
    }
    if (!isAdmitted(deps, incoming, standingAlone(ctx.message)) || askedBeside(deps, incoming)) return;
    const attachments = [attachment, ...repliedAttachments(incoming)];
    return routeMessage(deps, incoming, attachmentContent(deps, incoming, incoming.prompt, attachments));
  });
  return messages;
}

/**
 * A photo or file captioned "/btw …": Claude Code's side question takes words only, so it is
 * said here rather than sent as a task (where Claude Code would only say /btw is not available).
 */
function askedBeside(deps: Pick<BridgeServices, "outbox" | "control">, incoming: IncomingText): boolean {
  if (readSlashWord(incoming.body, deps.control.botUsername())?.name !== "btw") return false;
  const html =
    "A side question (/btw) takes words only: Claude answers it from the conversation, without photos or files, so nothing went to Claude. Send the photo or file without /btw to give it to Claude as a task, or ask in words with /btw.";
  void deps.outbox.send(incoming.chatId, { html }, { replyTo: incoming.messageId });
  return true;
}

/** The album as one message: the part with the caption (else the first) stands for it. */
function routeAlbum(deps: BridgeServices, album: Album<Part>): Promise<void> | undefined {
  const lead = album.items.find((part) => part.incoming.prompt !== "") ?? album.items[0];
  if (lead === undefined || !isAdmitted(deps, lead.incoming) || askedBeside(deps, lead.incoming)) return undefined;
  const attachments = [...album.items.map((part) => part.attachment), ...repliedAttachments(lead.incoming)];
  return routeMessage(deps, lead.incoming, attachmentContent(deps, lead.incoming, album.caption, attachments));
}

/**
 * What `words` of a message make: a run's prompt or an answer's words, with the photo or file
 * of the message it replies to when that is not the bot's ("what is wrong here?" in reply to a
 * colleague's screenshot), and what its voice note says.
 */
export function repliedContent(deps: ContentDeps, message: IncomingText, words: string): MessageContent {
  const attachments = repliedAttachments(message);
  const content = (quoted: IncomingText): MessageContent =>
    attachments.length === 0
      ? wordsContent(words, promptWords(quoted, words))
      : attachmentContent(deps, quoted, words, attachments);
  const voice = message.replyTo?.voice;
  if (voice === undefined) return content(message);
  // A colleague's voice note: what it says is quoted (and a server that cannot say is told).
  return {
    asAnswer: (project) => content(message).asAnswer(project),
    async asPrompt(project) {
      deps.outbox.typing(message.chatId);
      const heard = await deps.media.transcribe(voice);
      if (!heard.ok) {
        void deps.outbox.send(message.chatId, { html: esc(heard.say) }, { replyTo: message.messageId });
        return undefined;
      }
      const quote = [message.quote, quoteBlock(`🎙 ${heard.value.words}`)].filter((q) => q !== undefined).join("\n>\n");
      return content({ ...message, quote }).asPrompt(project);
    },
  };
}

function repliedAttachments(message: IncomingText): Attachment[] {
  const attachment = message.replyTo?.attachment;
  return attachment === undefined ? [] : [attachment];
}

/**
 * The attachments with `words`, as a run's prompt (after what the message quotes) or an
 * answer's words; refusals are told as a reply.
 */
function attachmentContent(
  deps: ContentDeps,
  message: IncomingText,
  words: string,
  attachments: readonly Attachment[],
): MessageContent {
  const say = (text: string): void =>
    void deps.outbox.send(message.chatId, { html: esc(text) }, { replyTo: message.messageId });
  const received = async <T>(outcome: Promise<MediaOutcome<T>>): Promise<T | undefined> => {
    deps.outbox.typing(message.chatId);
    const got = await outcome;
    if (got.ok) return got.value;
    say(got.say);
    return undefined;
  };
  return {
    asAnswer: (project) => received(deps.media.answer(project.path, words, attachments)),
    async asPrompt(project) {
      const got = await received(deps.media.prompt(project.path, promptWords(message, words), attachments));
      for (const note of got?.notes ?? []) say(note);
      return got?.prompt;
    },
  };
}
