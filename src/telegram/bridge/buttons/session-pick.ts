// The buttons /sessions shows: a tap makes the picked session the lane's current one, so the next
// message continues it. The lane's idle Claude Code, in another session, is closed; a task running
// now finishes in its own session first.
import type { Composer } from "grammy";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import { excerpt, type Lane } from "../../../domain/index.js";
import type { SessionRecord } from "../../../store/index.js";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import { columnKeyboard } from "../prompt-html.js";
import type { TelecodeContext } from "../context.js";
import { logFailure, type BridgeServices } from "../services.js";
import { buttonComposer, toast } from "./tap.js";

const PICK_TRIGGER = buttonTrigger("c\\d{1,2}");
/** A button's words: Telegram's apps cut longer labels anyway. */
const LABEL_CHARS = 40;

/** A session as a person knows it: the request that started it, else its id. */
export function nameOf(session: SessionRecord): string {
  return session.title ?? `session ${session.sessionId.slice(0, 8)}`;
}

/** A button per session of `sessions`, each making it the lane's current one. */
export function sessionPickKeyboard(
  callbacks: CallbackRegistry<BridgeAction>,
  lane: Lane,
  sessions: readonly SessionRecord[],
) {
  const token = callbacks.register(
    { kind: "session_pick", lane, sessionIds: sessions.map((s) => s.sessionId) },
    lane.chatId,
  );
  return columnKeyboard(
    sessions.map((s, i) => ({ label: `▶️ ${excerpt(nameOf(s), LABEL_CHARS)}`, data: callbacks.data(token, `c${i}`) })),
  );
}

export type SessionPickDeps = Pick<
  BridgeServices,
  "outbox" | "callbacks" | "prompts" | "answers" | "store" | "sessions" | "starter" | "logger"
>;

export function sessionPickButtons(deps: SessionPickDeps): Composer<TelecodeContext> {
  return buttonComposer(deps, PICK_TRIGGER, "session_pick", (tap, { lane, sessionIds }) => {
    const sessionId = sessionIds[Number(tap.choice?.slice(1))];
    if (sessionId === undefined) return;
    let name: string;
    try {
      const record = deps.store.sessions.get(sessionId);
      if (record === null) return toast(deps.outbox, tap, "That session is no longer known");
      name = nameOf(record);
      deps.store.sessions.record({ sessionId, chatId: lane.chatId, project: lane.project });
    } catch (error) {
      deps.logger.event("telegram.session_pick_failed", { err: error, sessionId }, "error");
      return toast(deps.outbox, tap, "Could not save the pick; tap again");
    }
    deps.starter.continueNext(lane, sessionId);
    deps.sessions.closeIdle(lane).catch(logFailure(deps.logger, "telegram.close_failed"));
    toast(deps.outbox, tap, "Picked");
    const busy =
      deps.sessions.runningRun(lane) === undefined ? "" : " The task running now finishes in its own session first.";
    void deps.outbox.send(
      lane.chatId,
      { html: `▶️ Your next message continues “${esc(name)}”.${busy}` },
      tap.messageId === undefined ? {} : { replyTo: tap.messageId },
    );
  });
}
