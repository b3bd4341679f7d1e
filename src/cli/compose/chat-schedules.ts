// The chat's side of the scheduler, as the Telegram bridge asks for it: the chat's schedules as
// cards, Pause / Resume / Stop, /at and /every through the scheduler's parsers (a time that
// cannot be read is a usage message, never a run), and /new's loops that follow the chat.
import {
  parseAt,
  parseEvery,
  type Schedule,
  type ScheduleRepository,
  type Scheduler,
  type TextOptions,
} from "../../schedule/index.js";
import type { ChatSchedules, ScheduleActionResult } from "../../telegram/index.js";
import { scheduleCard } from "./schedule-words.js";

export type ChatSchedulesDeps = {
  scheduler: Scheduler;
  repository: Pick<ScheduleRepository, "get" | "list">;
  nowMs: () => number;
};

const LIVE = ["active", "paused"] as const;

export function createChatSchedules(deps: ChatSchedulesDeps): ChatSchedules {
  const { scheduler, repository } = deps;
  const options = (): TextOptions => ({ nowMs: deps.nowMs(), defaultTimeZone: scheduler.settings().defaultTimeZone });
  const card = (s: Schedule) => scheduleCard(s, options());
  /** The card of a schedule still running or paused; null once it ended. */
  const liveCard = (s: Schedule | null) =>
    s === null || (s.state !== "active" && s.state !== "paused") ? null : card(s);
  const result = (ok: boolean, toast: string, s: Schedule | null): ScheduleActionResult => ({
    ok,
    toast,
    card: liveCard(s),
  });

  return {
    list: (chatId) => repository.list({ chatId, states: LIVE }).map(card),
    card(chatId, id) {
      const s = repository.get(id);
      return s?.chatId === chatId ? liveCard(s) : null;
    },
    act(chatId, id, action) {
      const s = repository.get(id);
      if (s === null || s.chatId !== chatId) return result(false, "No longer pending", null);
      switch (action) {
        case "pause": {
          const paused = scheduler.pause(id);
          if (paused !== null) return result(true, "Paused", paused);
          return result(false, s.state === "paused" ? "Already paused" : "It has ended", s);
        }
        case "resume": {
          const resumed = scheduler.resume(id);
          if (resumed !== null) return result(true, "Resumed", resumed);
          return result(false, s.state === "active" ? "Already running" : "It has ended", s);
        }
        case "cancel": {
          const cancelled = scheduler.cancel(id, "person");
          switch (cancelled.kind) {
            case "cancelled":
              return result(true, "Stopped", cancelled.schedule);
            case "not_yours":
              return result(false, "A schedule from the config can only be paused here", s);
            case "already_ended":
              return result(false, "It had already ended", cancelled.schedule);
            case "not_found":
              return result(false, "No longer pending", null);
          }
        }
      }
    },
    create(request) {
      const context = { nowMs: deps.nowMs(), timeZone: scheduler.settings().defaultTimeZone };
      const parsed = request.command === "at" ? parseAt(request.text, context) : parseEvery(request.text, context);
      if (!parsed.ok) return { ok: false, message: parsed.message };
      const made = scheduler.create({
        kind: "chat",
        chatId: request.chatId,
        project: request.project,
        session: { mode: "continue" },
        timing: parsed.spec.timing,
        timeZone: parsed.spec.timeZone,
        prompt: parsed.spec.prompt,
        recurring: parsed.spec.recurring,
        createdBy: { kind: "person", userId: request.userId },
      });
      if (!made.ok) return { ok: false, message: made.refusal.message };
      // The card below says when ("once at 08:49 today", "every 2 hours · next at …").
      return {
        ok: true,
        card: card(made.schedule),
        confirmation: `✅ Scheduled in ${request.project}, in this chat's session:`,
      };
    },
    followChat: (lane) => scheduler.followChat(lane.chatId, lane.project).map(card),
    loopsEnabled: () => scheduler.settings().loopsEnabled,
  };
}
