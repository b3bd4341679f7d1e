// The Continue button of an interrupted run: it must work after a restart, so its token is the
// run id and the store says what to resume. A tap continues that run once: in its session when
// the CLI had its prompt and wrote it down, else by sending the person's own request again where
// it was meant to go (a new session when the CLI wrote nothing of that session down).
// The store spends the tap, so a second one (a double tap, or after a restart) continues nothing.
import { Composer } from "grammy";
import { definedFields, type PermissionMode, type Prompt, type WrittenDown } from "../../../domain/index.js";
import type { EventName } from "../../../ports/index.js";
import type { SessionChoice } from "../../../sessions/index.js";
import type { RunRecord } from "../../../store/index.js";
import { buttonTrigger } from "../../callback-data.js";
import type { TelecodeContext } from "../context.js";
import { RESUME_CHOICE } from "../resume-button.js";
import { runIdFromToken } from "../run-token.js";
import type { BridgeServices } from "../services.js";
import { readTap, takeDown, toast } from "./tap.js";

/** What the model reads when a person continues an interrupted run. */
export const RESUME_PROMPT =
  "Telecode was restarted while you were working on my last request, so that work was interrupted. Check where it stopped and continue.";

const RESUME_TRIGGER = buttonTrigger(RESUME_CHOICE);

export function resumeButtons(
  deps: Pick<BridgeServices, "outbox" | "store" | "logger" | "config" | "starter" | "sessions">,
): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(RESUME_TRIGGER, async (ctx) => {
    const tap = readTap(ctx);
    if (tap?.token === undefined) return;
    const runId = runIdFromToken(tap.token);
    const run = fromStore(deps, "telegram.resume_lookup_failed", runId, () => deps.store.runs.get(runId), null);
    if (run === null || run.chatId !== tap.chatId || run.state !== "interrupted") {
      toast(deps.outbox, tap, "No longer pending");
      takeDown(deps.outbox, tap);
      return;
    }
    const project = deps.config().projects.find((p) => p.name === run.project);
    if (project === undefined) {
      toast(deps.outbox, tap, `Project ${run.project} is no longer set up`);
      return;
    }
    // Spent in the store before anything starts: a second tap, now or after a restart, continues nothing.
    const claimed = fromStore<boolean | undefined>(
      deps,
      "telegram.resume_claim_failed",
      runId,
      () => deps.store.runs.claimResume(runId),
      undefined,
    );
    if (claimed === undefined) {
      toast(deps.outbox, tap, "Could not continue; tap again");
      return;
    }
    if (!claimed) {
      toast(deps.outbox, tap, "Already continued");
      takeDown(deps.outbox, tap);
      return;
    }
    toast(deps.outbox, tap, "Continuing…");
    takeDown(deps.outbox, tap);
    const again = await continuation(deps, run, project.path);
    deps.logger.event("telegram.run_resumed", {
      chatId: run.chatId,
      runId,
      choice: again.choice.kind,
      resent: again.prompt !== RESUME_PROMPT,
    });
    deps.starter.start({
      chatId: run.chatId,
      project,
      ...again,
      ...definedFields({ promptMessageId: tap.messageId }),
    });
  });
  return buttons;
}

/** What continuing `run` sends, and where (`cwd`: its project's directory). */
async function continuation(
  deps: Pick<BridgeServices, "store" | "sessions">,
  run: RunRecord,
  cwd: string,
): Promise<{ prompt: Prompt; choice: SessionChoice; mode?: PermissionMode }> {
  const input = run.input;
  // A CLI stopped moments after taking a message may not have written it down yet.
  const written: WrittenDown =
    run.sessionId === null
      ? "nothing"
      : await deps.sessions.writtenDown(
          { chatId: run.chatId, project: run.project },
          cwd,
          run.sessionId,
          run.promptUuid ?? undefined,
        );
  const lost = !run.promptTaken || (run.promptUuid !== null ? written !== "message" : written === "nothing");
  if (input !== null && lost) {
    // The CLI never had the prompt, or kept nothing of it: the request itself goes again, to
    // the session it was meant for (a new one when that session was never written down).
    const choice: SessionChoice =
      run.sessionId !== null
        ? written === "nothing"
          ? { kind: "new" }
          : { kind: "resume", sessionId: run.sessionId }
        : input.choice.kind === "continue"
          ? { kind: "continue" }
          : { kind: "new" };
    return { prompt: input.prompt, choice, mode: input.mode };
  }
  const sessionId = run.sessionId ?? deps.store.sessions.current(run.chatId, run.project)?.sessionId;
  return {
    prompt: RESUME_PROMPT,
    choice: sessionId === undefined ? { kind: "current" } : { kind: "resume", sessionId },
    ...definedFields({ mode: input?.mode }),
  };
}

/** A store call for a tap; when it throws, the failure is logged as `event` and the tap gets `failed`. */
function fromStore<T>(
  deps: Pick<BridgeServices, "logger">,
  event: EventName,
  runId: string,
  call: () => T,
  failed: T,
): T {
  try {
    return call();
  } catch (error) {
    deps.logger.event(event, { err: error, runId }, "error");
    return failed;
  }
}
