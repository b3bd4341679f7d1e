// The terminal front end's public surface: live progress on stderr and typed answers to the
// decision prompts, sharing the terminal's bottom line. `telecode run` (src/cli/run.ts) wires them
// to the engine and the decision driver.
export { ProgressView } from "./progress-view.js";
export type { InputLine, ProgressViewOptions } from "./progress-view.js";
export { readTypedAnswers } from "./typed-answers.js";
// How a failed run reads on its last line (render's, named here so `telecode run` takes it with
// the rest of its view: the render layer's index would bring the Telegram renderers along).
export { resumeHint, terminalFailureText } from "../render/index.js";
export type { Resumable } from "../render/index.js";
export type { TypedAnswers, TypedAnswersOptions } from "./typed-answers.js";
