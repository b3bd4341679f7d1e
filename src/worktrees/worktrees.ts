// A project's worktrees ([projects.NAME] worktrees_dir): each chat (a forum topic, a group
// member's own conversation too) works in a git worktree of its own on a branch of its own, so
// two conversations on one project never edit the same checkout. The folder a lane works in
// follows from the config alone; the worktree is made (from worktree_base, else the project's
// HEAD) before the lane's first run.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { ProjectConfig } from "../config/index.js";
import { FAILS_UNTIL_FIXED, FIRST_INNER_CHAT_ID, isInnerChatId, type Lane, type RunFailure } from "../domain/index.js";

/**
 * A lane's name in its worktree's folder and branch: "chat-1001", "group-1002003004", and for a
 * chat inside a group (a forum topic, a member's own conversation) "conversation-3", numbered as
 * Telecode numbers them.
 */
function worktreeName(lane: Lane): string {
  if (isInnerChatId(lane.chatId)) return `conversation-${FIRST_INNER_CHAT_ID - lane.chatId}`;
  return lane.chatId < 0 ? `group-${-lane.chatId}` : `chat-${lane.chatId}`;
}

/** The branch a lane's worktree is on. */
export const worktreeBranch = (lane: Lane): string => `telecode/${worktreeName(lane)}`;

/** The folder the lane's runs work in: its worktree when the project has worktrees, else the project's. */
export function laneFolder(project: ProjectConfig, lane: Lane): string {
  return project.worktreesDir === null ? project.path : join(project.worktreesDir, worktreeName(lane));
}

/** A worktree that could not be made: the run fails with this, saying what git said. */
class WorktreeError extends Error {
  readonly failure: RunFailure;
  constructor(project: ProjectConfig, why: string) {
    super(why);
    this.name = "WorktreeError";
    this.failure = {
      reason: "start_failed",
      what: `Could not make this chat's worktree of ${project.name} (${why}).`,
      hint: `Mend it on the computer running Telecode, or take worktrees_dir out of [projects.${project.name}]; ${FAILS_UNTIL_FIXED}.`,
    };
  }
}

/** Whether the lane's worktree was made now: first ("new", on a new branch), again (on the branch it had), or not. */
type WorktreeMade = "new" | "again" | false;

export type Worktrees = {
  /**
   * The lane's worktree, made when it is not there yet; resolves with its folder and whether it
   * was made now. Rejects with a WorktreeError.
   */
  ensure(project: ProjectConfig, lane: Lane): Promise<{ folder: string; made: WorktreeMade }>;
};

export function createWorktrees(): Worktrees {
  // One git command at a time per project: git locks its worktree list while it adds one.
  const queues = new Map<string, Promise<unknown>>();
  const inTurn = <T>(project: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(project) ?? Promise.resolve()).then(work, work);
    queues.set(
      project,
      next.catch(() => undefined),
    );
    return next;
  };
  return {
    ensure(project, lane) {
      const folder = laneFolder(project, lane);
      if (project.worktreesDir === null) return Promise.resolve({ folder, made: false as const });
      const worktreesDir = project.worktreesDir;
      return inTurn(project.name, async () => {
        // A worktree's folder holds a .git file naming where its repository is.
        if (existsSync(join(folder, ".git"))) return { folder, made: false as const };
        if (existsSync(folder)) throw new WorktreeError(project, `${folder} is there but is no git worktree`);
        await mkdir(worktreesDir, { recursive: true }).catch((error: unknown) => {
          throw new WorktreeError(project, `${worktreesDir} cannot be made: ${codeOf(error)}`);
        });
        // A worktree folder removed by hand stays registered until pruned, and would refuse the add.
        await gitIn(project.path, ["worktree", "prune"]).catch(() => undefined);
        const branch = worktreeBranch(lane);
        const known = await gitIn(project.path, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}`]).then(
          () => true,
          () => false,
        );
        const add = known
          ? ["worktree", "add", folder, branch]
          : ["worktree", "add", "-b", branch, folder, project.worktreeBase ?? "HEAD"];
        await gitIn(project.path, add).catch((error: unknown) => {
          throw new WorktreeError(project, error instanceof Error ? error.message : String(error));
        });
        return { folder, made: known ? ("again" as const) : ("new" as const) };
      });
    },
  };
}

/** Runs git in `folder`; resolves with its output, rejects with its complaint ("fatal: …"), else its last word. */
export function gitIn(folder: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile("git", ["-C", folder, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      if (error === null) return resolve(stdout);
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return reject(new Error("git is not installed"));
      const lines = stderr
        .split("\n")
        .map((line) => line.trim())
        .filter((line) => line !== "");
      const said = lines.find((line) => /^(fatal|error):/.test(line)) ?? lines.at(-1) ?? error.message;
      reject(new Error(`git said: ${said}`));
    });
  });
}

const codeOf = (error: unknown): string =>
  (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
