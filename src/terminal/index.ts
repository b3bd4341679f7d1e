// The terminal front end's public surface: live progress on stderr and typed answers to the
// decision prompts. `telecode run` (src/cli/run.ts) wires them to the engine and the driver.
export { ProgressView } from "./progress-view.js";
export type { ProgressViewOptions } from "./progress-view.js";
export { readTypedAnswers } from "./typed-answers.js";
export type { TypedAnswers } from "./typed-answers.js";
