// The one way a run nobody typed starts in its chat (a schedule's fire, a webhook delivery):
// like a person's run, unattended unless its trigger says otherwise, with a title saying which
// trigger it is (and a schedule's buttons to pause or stop it); the answer quotes that title.
// A busy lane skips a schedule's iteration (the scheduler says so once) and queues a delivery.
// The trigger is recorded with the run, so a restart that takes the run in shows it the same.
import { definedFields } from "../../domain/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import type { RunInput, RunTrigger } from "../../sessions/index.js";
import type { RunViewInit } from "./run-view.js";
import { liveCardButtons } from "./schedule-cards.js";
import type { RunSource, ScheduledRun, ScheduledRunOutcome } from "./schedule-port.js";
import type { BridgeServices } from "./services.js";

/** A run nobody typed, as its records keep it: what started it, its title, and its trigger's own `detail`. */
export type RecordedTrigger = Readonly<{ source: RunSource; title: string; detail: RunTrigger }>;

type TriggerViewDeps = Pick<BridgeServices, "callbacks" | "schedules">;

/** How a trigger's run shows itself: its title (quoted by the answer), a schedule's buttons. */
function triggerView(
  deps: TriggerViewDeps,
  chatId: number,
  trigger: Pick<RecordedTrigger, "source" | "title">,
): Pick<RunViewInit, "titleHtml" | "buttons" | "quoteProgress" | "quietFailures"> {
  const { source } = trigger;
  const buttons =
    source.kind === "schedule" ? liveCardButtons(deps.callbacks, deps.schedules, chatId, source.id) : undefined;
  return {
    titleHtml: esc(trigger.title),
    ...definedFields({ buttons }),
    quoteProgress: true,
    // The scheduler goes on in a fresh session and says so.
    quietFailures: ["session_not_found"],
  };
}

/** The trigger a run's input recorded, when it was started by one (a run nobody typed). */
export function recordedTrigger(input: RunInput | null): RecordedTrigger | undefined {
  const value = input?.trigger;
  if (value === undefined || typeof value["title"] !== "string") return undefined;
  const source = value["source"] as Partial<RunSource> | undefined;
  const detail = value["detail"];
  if (typeof source?.id !== "string" || typeof detail !== "object" || detail === null) return undefined;
  if (source.kind === "webhook")
    return { source: { kind: "webhook", id: source.id }, title: value["title"], detail: detail as RunTrigger };
  if (source.kind !== "schedule") return undefined;
  const cancellable = (source as { cancellable?: unknown }).cancellable === true;
  return {
    source: { kind: "schedule", id: source.id, cancellable },
    title: value["title"],
    detail: detail as RunTrigger,
  };
}

/** The view of a trigger's run taken in after a restart: as it was started, with its trigger's hooks when it gave them. */
export function triggerRunView(
  deps: TriggerViewDeps,
  chatId: number,
  trigger: RecordedTrigger,
  hooks: Pick<ScheduledRun, "onFinished" | "onStep"> | undefined,
): Pick<RunViewInit, "titleHtml" | "buttons" | "quoteProgress" | "quietFailures" | "onFinished" | "onStep"> {
  return {
    ...triggerView(deps, chatId, trigger),
    ...definedFields({ onFinished: hooks?.onFinished, onStep: hooks?.onStep }),
  };
}

export function startScheduledRun(
  deps: Pick<BridgeServices, "config" | "sessions" | "starter" | "callbacks" | "schedules" | "logger">,
  run: ScheduledRun,
): ScheduledRunOutcome {
  const project = deps.config().projects.find((p) => p.name === run.project);
  if (project === undefined) return "no_project";
  if (run.whenBusy === "skip" && deps.sessions.isBusy({ chatId: run.chatId, project: project.name })) return "busy";
  const { source } = run;
  deps.logger.event("telegram.trigger_fired", {
    chatId: run.chatId,
    project: project.name,
    [source.kind === "schedule" ? "scheduleId" : "webhookId"]: source.id,
  });
  const trigger: RecordedTrigger = { source, title: run.title, detail: run.detail };
  const view = deps.starter.start({
    chatId: run.chatId,
    project,
    prompt: run.prompt,
    choice: run.choice,
    unattended: run.unattended,
    origin: run.origin,
    trigger,
    ...definedFields({ mode: run.mode, model: run.model, effort: run.effort, mayStart: run.mayStart }),
    view: {
      ...triggerView(deps, run.chatId, trigger),
      onFinished: run.onFinished,
      ...definedFields({ onStep: run.onStep }),
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
