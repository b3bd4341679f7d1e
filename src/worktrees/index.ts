// Each chat's and topic's own git worktree of a project, when [projects.NAME] asks for them.
export {
  createWorktrees,
  laneFolder,
  worktreeBranch,
  worktreeName,
  WorktreeError,
  type WorktreeMade,
  type Worktrees,
} from "./worktrees.js";
