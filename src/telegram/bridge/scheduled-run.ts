// A fired schedule's run in its chat: skipped when the lane is busy (the scheduler says so once),
// else started like a person's run, unattended unless the schedule says otherwise, with a title
// saying which schedule it is and buttons to pause or stop it; the answer quotes that title.
import { definedFields } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import { singleCardKeyboard } from "./schedule-cards.js";
import type { ScheduledRun, ScheduledRunOutcome } from "./schedule-port.js";
import type { BridgeServices } from "./services.js";

export function startScheduledRun(
  deps: Pick<BridgeServices, "config" | "sessions" | "starter" | "callbacks" | "logger">,
  run: ScheduledRun,
): ScheduledRunOutcome {
  const project = deps.config().projects.find((p) => p.name === run.project);
  if (project === undefined) return "no_project";
  if (deps.sessions.isBusy({ chatId: run.chatId, project: project.name })) return "busy";
  const buttons = singleCardKeyboard(deps.callbacks, run.chatId, {
    id: run.scheduleId,
    paused: false,
    cancellable: run.cancellable,
  });
  deps.logger.event("telegram.schedule_fired", {
    chatId: run.chatId,
    project: project.name,
    scheduleId: run.scheduleId,
  });
  deps.starter.start({
    chatId: run.chatId,
    project,
    prompt: run.prompt,
    choice: run.choice,
    unattended: run.unattended,
    origin: run.origin,
    ...definedFields({ mode: run.mode, model: run.model, effort: run.effort }),
    view: {
      titleHtml: esc(run.title),
      buttons,
      quoteProgress: true,
      onFinished: run.onFinished,
      // The scheduler goes on in a fresh session and says so.
      quietFailures: ["session_not_found"],
    },
  });
  return "started";
}
