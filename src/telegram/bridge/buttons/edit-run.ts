// The buttons under the notice that an edited message did not reach Claude (messages/edited.ts):
// the edited words run as a new request in the session the first words went to, after the run
// they started or instead of it (that run is stopped first). The first tap wins; the notice of an
// edit a later edit of the same message replaced runs nothing.
import type { Composer } from "grammy";
import type { InlineKeyboardMarkup } from "grammy/types";
import type { ProjectConfig } from "../../../config/index.js";
import { escapeTelegramHtml } from "../../../render/index.js";
import type { RunRecord } from "../../../store/index.js";
import { buttonTrigger, type CallbackRegistry } from "../../callback-data.js";
import type { BridgeAction } from "../bridge-types.js";
import { requesterOf, type TelecodeContext } from "../context.js";
import { columnKeyboard } from "../prompt-html.js";
import { logFailure, type BridgeServices } from "../services.js";
import { runFolder, sessionForAgain } from "./resume.js";
import { buttonComposer, fromStore, takeDown, toast, type Tap } from "./tap.js";

const STOP_CHOICE = "es";
const NEXT_CHOICE = "en";
/** The data of the edit buttons. */
export const EDIT_RUN_TRIGGER = buttonTrigger(`${STOP_CHOICE}|${NEXT_CHOICE}`);

export type EditRunDeps = Pick<
  BridgeServices,
  "config" | "store" | "logger" | "outbox" | "callbacks" | "prompts" | "answers" | "runs" | "sessions" | "starter"
>;

/** Two buttons while the first words' run is under way (stop it, or run after it); one once it ended. */
export function editRunKeyboard(
  callbacks: CallbackRegistry<BridgeAction>,
  token: string,
  running: boolean,
): InlineKeyboardMarkup {
  const data = (choice: string): string => callbacks.data(token, choice);
  return columnKeyboard(
    running
      ? [
          { label: "⏹ Stop it and run the edit", data: data(STOP_CHOICE) },
          { label: "▶ Run the edit after it", data: data(NEXT_CHOICE) },
        ]
      : [{ label: "▶ Run the edited message", data: data(NEXT_CHOICE) }],
  );
}

/** `latest`: the token of the newest notice of an edit of the chat's message, if remembered. */
export function editRunButtons(
  deps: EditRunDeps,
  latest: (chatId: number, messageId: number) => string | undefined,
): Composer<TelecodeContext> {
  return buttonComposer(deps, EDIT_RUN_TRIGGER, "edit", (tap, action) => {
    if (tap.chatId === undefined || tap.token === undefined) return;
    if (latest(tap.chatId, action.messageId) !== tap.token) {
      toast(deps.outbox, tap, "A later edit replaced this one");
      return takeDown(deps.outbox, tap);
    }
    const lookup = (): RunRecord | null => deps.store.runs.get(action.runId);
    const run = fromStore(deps, "telegram.edit_run_lookup_failed", action.runId, lookup, undefined);
    if (run === undefined) return toast(deps.outbox, tap, "Could not look up the run; tap again");
    if (run === null) {
      toast(deps.outbox, tap, "No longer pending");
      return takeDown(deps.outbox, tap);
    }
    const project = deps.config().projects.find((p) => p.name === run.project);
    if (project === undefined) return toast(deps.outbox, tap, `Project ${run.project} is no longer set up`);
    if (!deps.callbacks.claimOnce(tap.token)) return toast(deps.outbox, tap, "Already chosen");
    runEdit(deps, tap, { run, project, text: action.text, messageId: action.messageId }).catch(
      logFailure(deps.logger, "telegram.edit_run_failed"),
    );
  });
}

type EditRun = { run: RunRecord; project: ProjectConfig; text: string; messageId: number };

/** Says what happens in the toast and the notice, stops the first run when asked, and starts the edit's. */
async function runEdit(deps: EditRunDeps, tap: Tap, { run, project, text, messageId }: EditRun): Promise<void> {
  const view = deps.runs.byRun(run.runId);
  const stop = tap.choice === STOP_CHOICE && view !== undefined;
  toast(deps.outbox, tap, stop ? "Stopping it; the edit runs next" : view ? "The edit runs next" : "Running the edit");
  const by = escapeTelegramHtml(tap.from.name);
  const html = stop
    ? `✏️ Stopped the run of the message as first sent; the edited message runs next (chosen by ${by}).`
    : view
      ? `✏️ The edited message runs once the current task ends (chosen by ${by}).`
      : `✏️ The edited message runs now (chosen by ${by}).`;
  if (tap.messageId !== undefined) void deps.outbox.edit(run.chatId, tap.messageId, { html });
  if (stop && !view.cancelRequested) {
    view.cancelRequested = true;
    await deps.sessions.cancel(run.runId);
  }
  const choice = await sessionForAgain(deps, run, runFolder(project, run));
  deps.logger.event("telegram.edit_run", { chatId: run.chatId, runId: run.runId, stopped: stop, choice: choice.kind });
  deps.starter.start({
    chatId: run.chatId,
    project,
    prompt: text,
    choice,
    promptMessageId: messageId,
    requester: requesterOf(tap.from),
    ...(run.mode === null ? {} : { mode: run.mode }),
  });
}
