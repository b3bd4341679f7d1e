// A voice note or audio file: transcribed by the server `[voice]` names (and sent nowhere
// else), the words echoed ("🎙 …") so the person sees what was heard, then routed like typed
// text: a run, or the answer to an open question. Without `[voice]`, a one-line hint.
import { Composer } from "grammy";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { IncomingText, TelecodeContext } from "../context.js";
import type { VoiceNote } from "../media-port.js";
import type { BridgeServices } from "../services.js";
import { incomingCaption, isAdmitted, standingAlone } from "./incoming.js";
import { voiceOf } from "./attachment-of.js";
import { repliedContent } from "./attachments.js";
import { routeMessage } from "./route.js";

export function voiceMessages(deps: BridgeServices): Composer<TelecodeContext> {
  const messages = new Composer<TelecodeContext>();
  messages.on(["message:voice", "message:audio"], (ctx) => {
    const voice = voiceOf(ctx.message);
    if (ctx.person === undefined || voice === undefined) return;
    const incoming = incomingCaption(ctx.message, ctx.person, deps.control.botUsername());
    if (!isAdmitted(deps, incoming, standingAlone(ctx.message))) return;
    return transcribeAndRoute(deps, incoming, voice);
  });
  return messages;
}

async function transcribeAndRoute(deps: BridgeServices, message: IncomingText, voice: VoiceNote): Promise<void> {
  const say = (text: string): Promise<unknown> =>
    deps.outbox.send(message.chatId, { html: esc(text) }, { replyTo: message.messageId });
  deps.outbox.typing(message.chatId);
  const heard = await deps.media.transcribe(voice);
  if (!heard.ok) {
    void say(heard.say);
    return;
  }
  deps.logger.event("telegram.voice_transcribed", { chatId: message.chatId, content: heard.value.words });
  void say(heard.value.echo);
  const words = message.prompt === "" ? heard.value.words : `${message.prompt}\n\n${heard.value.words}`;
  await routeMessage(deps, message, repliedContent(deps, message, words));
}
