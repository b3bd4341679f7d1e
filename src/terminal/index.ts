// The terminal front end's public surface: live progress on stderr and approvals asked at
// the terminal. `telecode run` (src/cli/run.ts) wires them to the engine.
export { ProgressView } from "./progress-view.js";
export type { ProgressViewOptions } from "./progress-view.js";
export { createTerminalApprover, DENIED_AT_TERMINAL } from "./approval-prompt.js";
export type { TerminalApprover, TerminalApproverOptions } from "./approval-prompt.js";
export { describeApproval, shortDiff } from "./approval-details.js";
