// The one way a run is started from Telegram: the chat's settings, the session choice (a
// fresh one after /new), a RunView as the observer, and the session layer's answer shown at once.
// Also the view of a kept run taken in again after a restart.
import type { Config, ProjectConfig } from "../../config/index.js";
import {
  definedFields,
  laneId,
  type Lane,
  type PermissionMode,
  type Prompt,
  type RunFailure,
  type TurnOrigin,
} from "../../domain/index.js";
import type { Logger } from "../../ports/index.js";
import type { Requester, RunTrigger, SessionChoice, SessionManager } from "../../sessions/index.js";
import type { RunRecord, SessionRecord, Store } from "../../store/index.js";
import { escapeTelegramHtml as esc } from "../../render/index.js";
import { laneFolder, worktreeBranch, type Worktrees } from "../../worktrees/index.js";
import type { Budget, BudgetRun } from "./budget.js";
import { chatSettings } from "./chat-settings.js";
import { RunView, type RunViewDeps, type RunViewInit } from "./run-view.js";

export type RunRequest = {
  chatId: number;
  project: ProjectConfig;
  /** Words, or words with images and PDFs. */
  prompt: Prompt;
  choice?: SessionChoice;
  /** A one-message mode (a directive line); else the chat's. */
  mode?: PermissionMode;
  /** A schedule's own model or effort; else the chat's. */
  model?: string;
  effort?: string;
  promptMessageId?: number;
  /** Nobody is there: what would wait for a person is denied (a schedule's run). */
  unattended?: boolean;
  /** Whose turn the message starts; default a person's. */
  origin?: TurnOrigin;
  /** What started a run nobody typed, recorded with the run. */
  trigger?: RunTrigger;
  /** How a run no person asked for shows itself (a title, its schedule's buttons). */
  view?: TriggerViewInit;
  /** Asked as a queued run would start: why it may no longer (see Submission). */
  mayStart?: () => RunFailure | undefined;
  /** A kept request run again after a restart (or by Retry): its run id and the message that shows it. */
  kept?: { runId: string; messageId: number | undefined };
  /** Who asked for it (none for a run nobody typed): in a group, who may answer its decisions. */
  requester?: Requester;
};

/** What a run no person asked for adds to its view. */
export type TriggerViewInit = Pick<
  RunViewInit,
  "titleHtml" | "buttons" | "quoteProgress" | "onFinished" | "onStep" | "quietFailures"
>;

export type RunStarterDeps = {
  config: () => Config;
  store: Store;
  logger: Logger;
  sessions: Pick<SessionManager, "submit">;
  view: RunViewDeps;
  /** [budget]: whether a run may start, and each model call counted against the caps. */
  budget: Pick<Budget, "refusal" | "step" | "finished">;
  /** Each chat's own worktree of a project that asks for them. */
  worktrees: Worktrees;
};

export class RunStarter {
  readonly #deps: RunStarterDeps;
  /** Lanes whose next run goes elsewhere than the current conversation: a fresh one (/new), a picked one (/sessions). */
  readonly #nextChoice = new Map<string, SessionChoice>();

  constructor(deps: RunStarterDeps) {
    this.#deps = deps;
  }

  /** The lane's next run starts a new conversation instead of continuing the current one. */
  startFreshNext(lane: Lane): void {
    this.#nextChoice.set(laneId(lane), { kind: "new" });
  }

  /** The lane's next run continues `sessionId` instead of the current conversation. */
  continueNext(lane: Lane, sessionId: string): void {
    this.#nextChoice.set(laneId(lane), { kind: "resume", sessionId });
  }

  /** The view of a kept run taken in after a restart; `trigger`: how a run nobody typed showed itself. */
  resumeKept(run: RunRecord, trigger?: TriggerViewInit): RunView {
    const config = this.#deps.config();
    const settings = chatSettings(config, this.#deps.store, run.chatId);
    const lane = { chatId: run.chatId, project: run.project };
    const project = config.projects.find((p) => p.name === run.project);
    const projectRoot = project === undefined ? undefined : laneFolder(project, lane);
    const view = new RunView(this.#deps.view, {
      chatId: run.chatId,
      lane,
      promptMessageId: run.promptMessageId ?? undefined,
      start: {
        mode: run.mode ?? settings.mode,
        cwd: projectRoot ?? "",
        ...definedFields({ model: settings.model, effort: settings.effort }),
      },
      ...definedFields({ projectRoot }),
      ...trigger,
      ...this.#budgeted({ chatId: run.chatId, replyTo: run.promptMessageId ?? undefined }, trigger),
    });
    view.resume({
      runId: run.runId,
      progressMessageId: run.progressMessageId ?? undefined,
      startedAtMs: run.startedAt,
    });
    return view;
  }

  start(request: RunRequest): RunView {
    const { store, logger, sessions } = this.#deps;
    const settings = chatSettings(this.#deps.config(), store, request.chatId);
    const lane: Lane = { chatId: request.chatId, project: request.project.name };
    let choice: SessionChoice = request.choice ?? { kind: "current" };
    // Spent by the next run whatever it asked for (a reply to an answer goes where it goes).
    const next = this.#nextChoice.get(laneId(lane));
    this.#nextChoice.delete(laneId(lane));
    if (next !== undefined && choice.kind === "current") choice = next;
    const mode = request.mode ?? settings.mode;
    const chosen = definedFields({ model: request.model ?? settings.model, effort: request.effort ?? settings.effort });
    // The folder the lane works in: the project's, or the lane's own worktree of it.
    const folder = laneFolder(request.project, lane);
    const worktree = request.project.worktreesDir !== null;
    if (!worktree) this.#prepareOutbox(folder, lane);
    const view = new RunView(this.#deps.view, {
      chatId: request.chatId,
      lane,
      promptMessageId: request.promptMessageId,
      messageId: request.kept?.messageId,
      start: { mode, ...chosen, cwd: folder },
      projectRoot: folder,
      ...request.view,
      ...this.#budgeted({ chatId: request.chatId, replyTo: request.promptMessageId }, request.view),
    });
    // A person's request a cap refuses is kept for Retry; a trigger's fires again by itself.
    const keep = request.trigger === undefined;
    const outcome = sessions.submit({
      lane,
      prompt: request.prompt,
      cwd: folder,
      mode,
      ...chosen,
      choice,
      observer: view,
      ...definedFields({
        unattended: request.unattended,
        origin: request.origin,
        trigger: request.trigger,
        requester: request.requester,
        prepare: worktree ? () => this.#worktree(request.project, lane, request.promptMessageId) : undefined,
        mayStart: () => request.mayStart?.() ?? this.#deps.budget.refusal(request.chatId, keep),
        runId: request.kept?.runId,
        promptMessageId: request.promptMessageId,
      }),
    });
    logger.event("telegram.run_submitted", {
      chatId: request.chatId,
      project: lane.project,
      state: outcome.state,
      choice: choice.kind,
      ...(outcome.state === "refused" ? {} : { runId: outcome.runId }),
    });
    view.begin(outcome);
    return view;
  }

  /** The outbox is made before the run (with its .gitignore, so what Claude puts there stays out of git). */
  #prepareOutbox(folder: string, lane: Lane): void {
    void this.#deps.view.media
      .prepareOutbox(folder)
      .catch((error: unknown) =>
        this.#deps.logger.event("telegram.outbox_folder_failed", { err: error, project: lane.project }, "warn"),
      );
  }

  /**
   * The lane's worktree, made before its first run (the chat told where it works), then its
   * outbox. A first worktree cannot continue the chat's conversation: Claude Code keeps sessions
   * by folder, and it began in the project's own, so the chat's next run starts a new one.
   */
  async #worktree(project: ProjectConfig, lane: Lane, replyTo: number | undefined): Promise<void> {
    const { folder, made } = await this.#deps.worktrees.ensure(project, lane);
    this.#prepareOutbox(folder, lane);
    if (made === false) return;
    this.#deps.logger.event("telegram.worktree_made", { chatId: lane.chatId, project: project.name, folder, made });
    const current = made === "new" ? this.#leaveConversation(lane) : null;
    const from = project.worktreeBase === null ? "" : ` from <code>${esc(project.worktreeBase)}</code>`;
    const afresh = current === null ? "" : " Its session starts afresh there.";
    void this.#deps.view.outbox.send(
      lane.chatId,
      {
        html: `🌿 This conversation works in its own worktree of <b>${esc(project.name)}</b>: <code>${esc(folder)}</code>, on branch <code>${esc(worktreeBranch(lane))}</code>${from}. The project's own folder is left as it is.${afresh}`,
      },
      definedFields({ replyTo }),
    );
  }

  /** Clears the lane's current conversation, returning it (null: none); a store that fails leaves it, logged. */
  #leaveConversation(lane: Lane): SessionRecord | null {
    const { store, logger } = this.#deps;
    try {
      const current = store.sessions.current(lane.chatId, lane.project);
      if (current !== null) store.sessions.clearCurrent(lane.chatId, lane.project);
      return current;
    } catch (error) {
      logger.event("telegram.session_clear_failed", { err: error, chatId: lane.chatId }, "error");
      return null;
    }
  }

  /** The view's own hooks, with each model call counted against the budget and the run let go of at its end. */
  #budgeted(run: BudgetRun, own: TriggerViewInit | undefined): Required<Pick<RunViewInit, "onStep" | "onFinished">> {
    const { budget } = this.#deps;
    return {
      onStep: (step, runId) => {
        own?.onStep?.(step, runId);
        budget.step(runId, run, step);
      },
      onFinished: (completed) => {
        budget.finished(completed.runId);
        own?.onFinished?.(completed);
      },
    };
  }
}
