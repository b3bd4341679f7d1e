// The one way a run nobody typed starts in its chat (a schedule's fire, a webhook delivery):
// like a person's run, unattended unless its trigger says otherwise, with a title saying which
// trigger it is (and a schedule's buttons to pause or stop it); the answer quotes that title.
// A busy lane skips a schedule's iteration (the scheduler says so once) and queues a delivery.
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
  if (run.whenBusy === "skip" && deps.sessions.isBusy({ chatId: run.chatId, project: project.name })) return "busy";
  const { source } = run;
  const buttons =
    source.kind === "schedule"
      ? singleCardKeyboard(deps.callbacks, run.chatId, {
          id: source.id,
          paused: false,
          cancellable: source.cancellable,
        })
      : undefined;
  deps.logger.event("telegram.trigger_fired", {
    chatId: run.chatId,
    project: project.name,
    [source.kind === "schedule" ? "scheduleId" : "webhookId"]: source.id,
  });
  const view = deps.starter.start({
    chatId: run.chatId,
    project,
    prompt: run.prompt,
    choice: run.choice,
    unattended: run.unattended,
    origin: run.origin,
    ...definedFields({ mode: run.mode, model: run.model, effort: run.effort }),
    view: {
      titleHtml: esc(run.title),
      ...definedFields({ buttons }),
      quoteProgress: true,
      onFinished: run.onFinished,
      ...definedFields({ onStep: run.onStep }),
      // The scheduler goes on in a fresh session and says so.
      quietFailures: ["session_not_found"],
    },
  });
  switch (view.submitted) {
    case "queued":
      return "queued";
    case "refused":
      return "refused";
    default:
      return "started";
  }
}
