// Helpers for the processes Telecode starts (the CLI, directly or under a keeper): finding and
// ending what a process left running, and keeping the tail of its stderr. Used by src/claude
// and src/keeper; knows nothing of the protocol.
export { endProcessTree, type ProcessTree } from "./end-tree.js";
export {
  findTaggedProcesses,
  HOOK_VAR,
  isGroupAlive,
  isProcessAlive,
  listDescendants,
  PROCESS_TAG_VAR,
  startTick,
} from "./process-tree.js";
export { WindDown, type ExitWithin } from "./wind-down.js";
export { STDERR_TAIL_BYTES, StderrTail } from "./stderr-tail.js";
