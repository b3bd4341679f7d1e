// Photos and files a person sends, alone or as an album: read like a text message (the
// caption is the text), then routed like one — a run whose prompt carries them, or the
// answer to an open question or approval. An album waits until its last part has come. A
// video or a video note (a screen recording of a bug) comes as a file: saved in the project,
// where Claude can take it apart with the tools it has.
import { Composer } from "grammy";
import type { Message } from "grammy/types";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import type { Attachment, MediaOutcome } from "../media-port.js";
import { logFailure, type BridgeServices } from "../services.js";
import { AlbumCollector, type Album } from "./album.js";
import { incomingCaption, isAdmitted } from "./incoming.js";
import { routeMessage, type MessageContent } from "./route.js";

type Part = { incoming: IncomingText; attachment: Attachment };

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
      const part = { messageId: incoming.messageId, caption: incoming.body, item: { incoming, attachment } };
      albums.add(`${incoming.chatId}:${groupId}`, part);
      return;
    }
    if (!isAdmitted(deps, incoming)) return;
    return routeMessage(deps, incoming, attachmentContent(deps, incoming, incoming.body, [attachment]));
  });
  return messages;
}

/** The album as one message: the part with the caption (else the first) stands for it. */
function routeAlbum(deps: BridgeServices, album: Album<Part>): Promise<void> | undefined {
  const lead = album.items.find((part) => part.incoming.body !== "") ?? album.items[0];
  if (lead === undefined || !isAdmitted(deps, lead.incoming)) return undefined;
  const attachments = album.items.map((part) => part.attachment);
  return routeMessage(deps, lead.incoming, attachmentContent(deps, lead.incoming, album.caption, attachments));
}

/** The attachments with `words`, as a run's prompt or an answer's words; refusals are told as a reply. */
function attachmentContent(
  deps: BridgeServices,
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
      const got = await received(deps.media.prompt(project.path, words, attachments));
      for (const note of got?.notes ?? []) say(note);
      return got?.prompt;
    },
  };
}

function attachmentOf(message: Message): Attachment | undefined {
  if (message.photo !== undefined) {
    const sizes = message.photo.map((size) => ({
      fileId: size.file_id,
      width: size.width,
      height: size.height,
      ...(size.file_size === undefined ? {} : { fileSizeBytes: size.file_size }),
    }));
    return { kind: "photo", sizes };
  }
  const document = message.document;
  if (document !== undefined) {
    return {
      kind: "document",
      document: {
        fileId: document.file_id,
        fileName: document.file_name,
        mimeType: document.mime_type,
        sizeBytes: document.file_size,
      },
    };
  }
  // A video recorded in the app has no name, a video note neither name nor type.
  const video = message.video ?? message.video_note;
  if (video === undefined) return undefined;
  const mimeType = message.video?.mime_type ?? "video/mp4";
  const fileName =
    message.video?.file_name ?? `${message.video === undefined ? "video_note" : "video"}${videoExtension(mimeType)}`;
  return { kind: "document", document: { fileId: video.file_id, fileName, mimeType, sizeBytes: video.file_size } };
}

const VIDEO_EXTENSIONS: Readonly<Record<string, string>> = {
  "video/quicktime": ".mov",
  "video/webm": ".webm",
  "video/x-matroska": ".mkv",
};

function videoExtension(mimeType: string): string {
  return VIDEO_EXTENSIONS[mimeType] ?? ".mp4";
}
