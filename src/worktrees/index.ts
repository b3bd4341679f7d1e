// Each chat's and topic's own git worktree of a project, when [projects.NAME] asks for them.
export { createWorktrees, gitIn, laneFolder, worktreeBranch, type Worktrees } from "./worktrees.js";
