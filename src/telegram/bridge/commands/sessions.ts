// /sessions: the chat's recent Claude sessions in its project, newest first, each named by the
// request that started it, with when it was last used and what it cost; a button under each
// other one makes the next message continue it (as replying to one of its answers would, without
// scrolling back to find one). The pick is kept in the store, so a restart keeps it too.
import { formatUsd } from "../../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../../render/index.js";
import type { SessionRecord } from "../../../store/index.js";
import { nameOf, sessionPickKeyboard } from "../buttons/session-pick.js";
import { NO_PROJECT, type Command } from "./command.js";

/** How many sessions the list shows. */
const LISTED = 6;

export const sessionsCommand: Command = {
  command: "sessions",
  description: "Recent sessions: pick one for the next message to continue",
  run(call, { store, callbacks, clock, clockFormatter, outbox }) {
    const project = call.settings.project;
    if (project === undefined) return call.say(NO_PROJECT);
    const chatId = call.message.chatId;
    const listed = store.sessions.list(chatId, { project: project.name, limit: LISTED });
    if (listed.length === 0)
      return call.say(`No sessions in <b>${esc(project.name)}</b> yet: the next message starts one.`);
    const nowMs = clock.now();
    // A session whose first task still runs has no cost yet.
    const cost = (s: SessionRecord): string => {
      const usd = store.sessionCosts.lastTotalUsd(s.sessionId);
      return usd === undefined ? "" : ` · ${formatUsd(usd)}`;
    };
    const lines = listed.map(
      (s) =>
        `• ${s.current ? "<b>" : ""}${esc(nameOf(s))}${s.current ? "</b> (current)" : ""} — last used ${esc(clockFormatter.moment(s.lastUsedAt, nowMs))}${cost(s)}`,
    );
    const others = listed.filter((s) => !s.current);
    const html = [`<b>Sessions in ${esc(project.name)}</b>`, ...lines].join("\n");
    if (others.length === 0) return call.say(html);
    const keyboard = sessionPickKeyboard(callbacks, { chatId, project: project.name }, others);
    void outbox.send(chatId, { html, keyboard }, { replyTo: call.message.messageId });
  },
};
