// The buttons that take a person's request up again; their token is the run id and the store
// says what to run, so they work after a restart. Continue, on an interrupted run, continues it
// once: in its session when the CLI had its prompt and wrote it down, else by sending the
// person's own request again where it was meant to go (a new session when the CLI wrote nothing
// of that session down). On a failed run, "Send it again" sends the request again into its own
// session (Claude Code stopped mid-work; a new one when it wrote nothing of it down), "Run it in
// a new session" into a new one (Claude Code no longer has its session). The store spends the
// tap, so a second one (a double tap, or after a restart) runs nothing.
import { Composer } from "grammy";
import { definedFields, type PermissionMode, type Prompt, type WrittenDown } from "../../../domain/index.js";
import type { RunInput, SessionChoice } from "../../../sessions/index.js";
import type { ProjectConfig } from "../../../config/index.js";
import type { RunRecord } from "../../../store/index.js";
import { laneFolder } from "../../../worktrees/index.js";
import { buttonTrigger } from "../../callback-data.js";
import { requesterOf, type TelecodeContext } from "../context.js";
import { AGAIN_CHOICE, FRESH_CHOICE, RESUME_CHOICE } from "../resume-button.js";
import { runIdFromToken } from "../run-token.js";
import type { BridgeServices } from "../services.js";
import { fromStore, readTap, takeDown, toast, type Tap } from "./tap.js";

/** What the model reads when a person continues an interrupted run. */
export const RESUME_PROMPT =
  "Telecode was restarted while you were working on my last request, so that work was interrupted. Check where it stopped and continue.";

type ResumeDeps = Pick<BridgeServices, "outbox" | "store" | "logger" | "config" | "starter" | "sessions">;

/** What a tap's toast says: it is under way, it was done before, or the store failed. */
type TapWords = { going: string; done: string; retry: string };
const CONTINUE_WORDS: TapWords = {
  going: "Continuing…",
  done: "Already continued",
  retry: "Could not continue; tap again",
};
const AGAIN_WORDS: TapWords = {
  going: "Sending it again",
  done: "Already sent again",
  retry: "Could not send it again; tap again",
};
const FRESH_WORDS: TapWords = { ...AGAIN_WORDS, going: "Running it in a new session" };

export function resumeButtons(deps: ResumeDeps): Composer<TelecodeContext> {
  const buttons = new Composer<TelecodeContext>();
  buttons.callbackQuery(buttonTrigger(RESUME_CHOICE), async (ctx) => {
    const tap = readTap(ctx);
    const taken =
      tap === undefined ? undefined : takeUp(deps, tap, (run) => run.state === "interrupted", CONTINUE_WORDS);
    if (tap === undefined || taken === undefined) return;
    const { run, project } = taken;
    const again = await continuation(deps, run, runFolder(project, run));
    deps.logger.event("telegram.run_resumed", {
      chatId: run.chatId,
      runId: run.runId,
      choice: again.choice.kind,
      resent: again.prompt !== RESUME_PROMPT,
    });
    deps.starter.start({
      chatId: run.chatId,
      project,
      ...again,
      requester: requesterOf(tap.from),
      ...definedFields({ promptMessageId: tap.messageId }),
    });
  });
  // A failed run's request goes again: into its own session (Claude Code stopped mid-work), or
  // into a new one (Claude Code no longer has its session). One whose request was forgotten has
  // nothing to send.
  const sendAgain =
    (words: TapWords, where: (run: RunRecord, input: RunInput, cwd: string) => Promise<SessionChoice>) =>
    async (ctx: TelecodeContext): Promise<void> => {
      const tap = readTap(ctx);
      const usable = (run: RunRecord): boolean => run.state === "failed" && run.input !== null;
      const taken = tap === undefined ? undefined : takeUp(deps, tap, usable, words);
      const input = taken?.run.input;
      if (tap === undefined || taken === undefined || input === null || input === undefined) return;
      const { run, project } = taken;
      const choice = await where(run, input, runFolder(project, run));
      deps.logger.event("telegram.run_resumed", {
        chatId: run.chatId,
        runId: run.runId,
        choice: choice.kind,
        resent: true,
      });
      deps.starter.start({
        chatId: run.chatId,
        project,
        prompt: input.prompt,
        choice,
        mode: input.mode,
        requester: requesterOf(tap.from),
        ...definedFields({ promptMessageId: run.promptMessageId ?? undefined }),
      });
    };
  buttons.callbackQuery(
    buttonTrigger(AGAIN_CHOICE),
    sendAgain(AGAIN_WORDS, (run, _input, cwd) => sessionForAgain(deps, run, cwd)),
  );
  buttons.callbackQuery(
    buttonTrigger(FRESH_CHOICE),
    sendAgain(FRESH_WORDS, () => Promise.resolve({ kind: "new" })),
  );
  return buttons;
}

/**
 * The run a tap names, with its project, once the store has spent the tap; undefined (and the
 * person told why) when it is not this chat's, no longer one the button can take up (`usable`),
 * or already taken up.
 */
function takeUp(
  deps: ResumeDeps,
  tap: Tap,
  usable: (run: RunRecord) => boolean,
  words: TapWords,
): { run: RunRecord; project: ProjectConfig } | undefined {
  if (tap.token === undefined) return undefined;
  const runId = runIdFromToken(tap.token);
  const run = fromStore(deps, "telegram.resume_lookup_failed", runId, () => deps.store.runs.get(runId), null);
  if (run === null || run.chatId !== tap.chatId || !usable(run)) {
    toast(deps.outbox, tap, "No longer pending");
    takeDown(deps.outbox, tap);
    return undefined;
  }
  const project = deps.config().projects.find((p) => p.name === run.project);
  if (project === undefined) {
    toast(deps.outbox, tap, `Project ${run.project} is no longer set up`);
    return undefined;
  }
  // Spent in the store before anything starts: a second tap, now or after a restart, runs nothing.
  const claimed = fromStore<boolean | undefined>(
    deps,
    "telegram.resume_claim_failed",
    runId,
    () => deps.store.runs.claimResume(runId),
    undefined,
  );
  if (claimed === undefined) {
    toast(deps.outbox, tap, words.retry);
    return undefined;
  }
  toast(deps.outbox, tap, claimed ? words.going : words.done);
  takeDown(deps.outbox, tap);
  return claimed ? { run, project } : undefined;
}

/** What continuing `run` sends, and where (`cwd`: its project's directory). */
async function continuation(
  deps: Pick<BridgeServices, "store" | "sessions">,
  run: RunRecord,
  cwd: string,
): Promise<{ prompt: Prompt; choice: SessionChoice; mode?: PermissionMode }> {
  const input = run.input;
  // A CLI stopped moments after taking a message may not have written it down yet.
  const written = await writtenDownOf(deps, run, cwd);
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

/**
 * Where `run`'s request (or a new version of it) goes again: into its session, but a new one when
 * the CLI was killed before it wrote that session down; where it was first meant to go when it
 * never had one.
 */
export async function sessionForAgain(
  deps: Pick<BridgeServices, "sessions">,
  run: RunRecord,
  cwd: string,
): Promise<SessionChoice> {
  if (run.sessionId === null) return run.input?.choice ?? { kind: "current" };
  return (await writtenDownOf(deps, run, cwd)) === "nothing"
    ? { kind: "new" }
    : { kind: "resume", sessionId: run.sessionId };
}

/** The folder `run` worked in: its project's, or its chat's worktree of it. */
export const runFolder = (project: ProjectConfig, run: RunRecord): string =>
  laneFolder(project, { chatId: run.chatId, project: run.project });

/** What the CLI wrote down of `run`'s session (and of its message) in the project at `cwd`. */
function writtenDownOf(deps: Pick<BridgeServices, "sessions">, run: RunRecord, cwd: string): Promise<WrittenDown> {
  if (run.sessionId === null) return Promise.resolve("nothing");
  const lane = { chatId: run.chatId, project: run.project };
  return deps.sessions.writtenDown(lane, cwd, run.sessionId, run.promptUuid ?? undefined);
}
