// Every chat of a fake Bot API world as a person reads it: each message whole, who sent it,
// what it replies to, what it carries, its buttons; and each tap on a button, shown after the
// message that was newest then, with the toast or alert that answered it. With `edits`, each
// earlier text of an edited message too (a progress message's live states), one line each.
import type {
  CallbackAnswer,
  FakeWorld,
  MessageRevision,
  StoredCallbackQuery,
  StoredChat,
  StoredMessage,
} from "./state.js";

export function transcriptOf(world: FakeWorld, options: { edits?: boolean } = {}): string {
  const taps = [...world.callbackQueries.values()];
  const chats = [...world.chats.values()].map((chat) => {
    const ids = [...chat.messages.keys()];
    const chatTaps = taps.filter((q) => q.chatId === chat.id);
    // A tap goes after the newest message it saw that is still there (one may have been deleted since).
    const tapsAfter = (messageId: number, next: number | undefined) =>
      chatTaps
        .filter((q) => (q.afterMessageId ?? 0) >= messageId && (next === undefined || (q.afterMessageId ?? 0) < next))
        .map(tapLine);
    const messages = [...chat.messages.values()].map((m, index) =>
      [...messageLines(chat, m, options.edits === true), ...tapsAfter(m.messageId, ids[index + 1])].join("\n"),
    );
    return `chat ${chat.id}:\n${messages.join("\n")}`;
  });
  return `\n${chats.join("\n\n")}\n`;
}

function messageLines(chat: StoredChat, m: StoredMessage, edits: boolean): string[] {
  const who = m.fromUserId === undefined ? "bot" : `user ${m.fromUserId}`;
  const topic = m.threadId === undefined ? undefined : chat.topics.get(m.threadId);
  const where = m.threadId === undefined ? "" : ` in topic “${topic?.name ?? m.threadId}”`;
  const reply = m.replyToMessageId === undefined ? "" : ` (reply to #${m.replyToMessageId})`;
  const body = (m.text ?? m.caption ?? "").replaceAll("\n", "\n    ");
  const buttons = (m.keyboard?.inline_keyboard ?? []).flat().map((b) => `[${b.text}]`);
  const attached = attachmentOf(m);
  const earlier = edits ? m.revisions.slice(0, -1).map((r) => `    ~ was: ${oneLineWithButtons(r)}`) : [];
  return [
    `  #${m.messageId} ${who}${where}${reply}:`,
    ...earlier,
    ...(attached === undefined ? [] : [`    ${attached}`]),
    ...(body === "" && attached !== undefined ? [] : [`    ${body}`]),
    ...(buttons.length === 0 ? [] : [`    ${buttons.join(" ")}`]),
  ];
}

/** Every chat in short (each message's first 200 characters on one line), for failure messages. */
export function describeWorld(world: FakeWorld): string {
  const chats = [...world.chats.values()].map((chat) => {
    const lines = [...chat.messages.values()].map((m) => {
      const who = m.fromUserId === undefined ? "bot" : `user ${m.fromUserId}`;
      const where = m.threadId === undefined ? "" : ` (topic ${m.threadId})`;
      const buttons = (m.keyboard?.inline_keyboard ?? [])
        .flat()
        .map((b) => `[${b.text}]`)
        .join(" ");
      return `  #${m.messageId} ${who}${where}: ${JSON.stringify((m.text ?? m.caption ?? "").slice(0, 200))} ${buttons}`;
    });
    return `chat ${chat.id}:\n${lines.join("\n")}`;
  });
  return chats.join("\n");
}

/** An earlier state of a message on one line: its text (line breaks as ⏎) and its buttons. */
function oneLineWithButtons(r: MessageRevision): string {
  const buttons = (r.keyboard?.inline_keyboard ?? []).flat().map((b) => `[${b.text}]`);
  return [r.text.replaceAll("\n", " ⏎ "), ...buttons].join(" ");
}

function tapLine(q: StoredCallbackQuery): string {
  const what = q.label === undefined ? `data "${q.data}"` : `[${q.label}]`;
  return `  ↳ user ${q.fromUserId} taps ${what} on #${q.messageId}${toastOf(q.answer)}`;
}

/** A tap's answer as the person sees it: a toast, an alert, or nothing (the spinner just stops). */
function toastOf(answer: CallbackAnswer | undefined): string {
  if (answer === undefined) return " (never answered)";
  if (answer.text === undefined || answer.text === "") return "";
  return ` → ${answer.showAlert ? "alert" : "toast"} "${answer.text}"`;
}

/** What a message carries besides text, as a chat shows it: "[file report.md, 12 B]", "[photo 800×600]". */
function attachmentOf(m: StoredMessage): string | undefined {
  if (m.document !== undefined) return `[file ${m.document.fileName}, ${m.document.content.length} B]`;
  const photo = m.photo?.at(-1);
  if (photo !== undefined) return `[photo ${photo.width}×${photo.height}]`;
  if (m.voice !== undefined) return "[voice note]";
  if (m.audio !== undefined) return "[audio]";
  if (m.video !== undefined) return "[video]";
  if (m.videoNote !== undefined) return "[video note]";
  if (m.other !== undefined) return `[${Object.keys(m.other).join(", ")}]`;
  return undefined;
}
