// The doctor's worktree lines: for each project with worktrees_dir, whether git can make a chat's
// worktree there (git installed, the project a repository, worktree_base a commit), so a wrong
// setting is read here rather than as the first task's failure.
import type { ProjectConfig } from "../config/index.js";
import { gitIn } from "../worktrees/index.js";
import { fail, ok, type CheckResult } from "./doctor-result.js";

/** A line per project with worktrees_dir; none for the others. */
export function checkWorktrees(projects: readonly ProjectConfig[]): Promise<CheckResult[]> {
  return Promise.all(projects.filter((p) => p.worktreesDir !== null).map(checkProject));
}

async function checkProject(project: ProjectConfig): Promise<CheckResult> {
  const label = `worktrees ${project.name}`;
  const from = project.worktreeBase === null ? "the project's HEAD" : project.worktreeBase;
  const ref = `${project.worktreeBase ?? "HEAD"}^{commit}`;
  try {
    const commit = (await gitIn(project.path, ["rev-parse", "--verify", "--short", ref])).trim();
    return ok(label, `${project.worktreesDir}, a worktree per chat from ${from} (${commit})`);
  } catch (error) {
    return fail(
      label,
      `git cannot start a worktree from ${from} in ${project.path}: ${error instanceof Error ? error.message : String(error)}`,
      project.worktreeBase === null
        ? `make the project a git repository with a first commit, or take worktrees_dir out of [projects.${project.name}]`
        : `set projects.${project.name}.worktree_base to a branch, tag or commit that exists`,
    );
  }
}
