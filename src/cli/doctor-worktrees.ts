// The doctor's worktree lines: for each project with worktrees_dir, whether git can make a chat's
// worktree there (git installed, the project a repository, worktree_base a commit), so a wrong
// setting is read here rather than as the first task's failure.
import { execFile } from "node:child_process";
import type { ProjectConfig } from "../config/index.js";
import { fail, ok, type CheckResult } from "./doctor-result.js";

/** A line per project with worktrees_dir; none for the others. */
export function checkWorktrees(projects: readonly ProjectConfig[]): Promise<CheckResult[]> {
  return Promise.all(projects.filter((p) => p.worktreesDir !== null).map(checkProject));
}

async function checkProject(project: ProjectConfig): Promise<CheckResult> {
  const label = `worktrees ${project.name}`;
  const base = project.worktreeBase ?? "HEAD";
  const from = project.worktreeBase === null ? "the project's HEAD" : project.worktreeBase;
  const found = await commitOf(project.path, base);
  if (found.ok) return ok(label, `${project.worktreesDir}, a worktree per chat from ${from} (${found.commit})`);
  return fail(
    label,
    `git cannot start a worktree from ${from} in ${project.path}: ${found.why}`,
    project.worktreeBase === null
      ? `make the project a git repository with a first commit, or take worktrees_dir out of [projects.${project.name}]`
      : `set projects.${project.name}.worktree_base to a branch, tag or commit that exists`,
  );
}

type Found = { ok: true; commit: string } | { ok: false; why: string };

/** The commit `ref` names in the repository at `folder`, short; or why git could not say. */
function commitOf(folder: string, ref: string): Promise<Found> {
  return new Promise((resolve) => {
    const args = ["-C", folder, "rev-parse", "--verify", "--short", `${ref}^{commit}`];
    execFile("git", args, { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error === null) return resolve({ ok: true, commit: stdout.trim() });
      if ((error as NodeJS.ErrnoException).code === "ENOENT")
        return resolve({ ok: false, why: "git is not installed" });
      const said = stderr.split("\n").find((line) => /^(fatal|error):/.test(line.trim()));
      resolve({ ok: false, why: said?.trim() ?? `${ref} is not a commit there` });
    });
  });
}
