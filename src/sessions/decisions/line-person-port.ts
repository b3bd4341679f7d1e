// A PersonPort for front ends that only print lines and read typed lines (the terminal):
// prompts become numbered choices, a typed number or label picks one, other text is a typed
// reply. Writes through a function it is given; reads nothing by itself.
import { answerFromTypedLine, infoLines, outcomeText, promptLines, type AnswerVerdict } from "../../policy/index.js";
import type { DecisionAnswers, PendingDecisionView, PersonPort } from "./ports.js";

export type LinePersonPortOptions = {
  /** Prints one line (no trailing newline in `line`). */
  write: (line: string) => void;
  answers: DecisionAnswers;
  /** Who answers, for the record (e.g. the OS user name). */
  by?: string;
};

export type LineSubmitResult =
  /** The line answered (or moved on) the open prompt. */
  | { kind: "answered"; verdict: AnswerVerdict }
  /** Empty line or a choice that needs text: the prompt is shown again / text is asked for. */
  | { kind: "reprompted" }
  /** Nothing is open: the line is an ordinary message. */
  | { kind: "no_pending" };

export type LinePersonPort = {
  port: PersonPort;
  /** Hands a line the person typed to the oldest open prompt. */
  submitLine(line: string): LineSubmitResult;
  /** Open prompts, oldest first. */
  readonly open: readonly PendingDecisionView[];
};

/** What the person can type at this prompt. */
function hintFor(view: PendingDecisionView): string {
  if (view.awaitingText) return "Type your answer and press Enter:";
  return view.prompt.kind === "question"
    ? "Type a number, or your own answer:"
    : "Type a number, or a reply in your own words:";
}

export function createLinePersonPort(options: LinePersonPortOptions): LinePersonPort {
  const { write, answers } = options;
  const by = options.by !== undefined ? { by: options.by } : {};
  const open = new Map<string, PendingDecisionView>();

  function show(view: PendingDecisionView): void {
    write("");
    for (const line of promptLines(view.prompt, view.toolName)) write(line);
    write(hintFor(view));
  }

  const port: PersonPort = {
    ask(view) {
      open.set(view.decisionId, view);
      show(view);
    },
    settled(decisionId, outcome) {
      open.delete(decisionId);
      write(`→ ${outcomeText(outcome)}`);
    },
    inform(_lane, info) {
      for (const line of infoLines(info)) write(`· ${line}`);
    },
  };

  return {
    port,
    submitLine(line) {
      const view = [...open.values()].find((v) => v.awaitingText) ?? [...open.values()][0];
      if (!view) return { kind: "no_pending" };
      const answer =
        view.awaitingText && line.trim() !== ""
          ? { kind: "text" as const, text: line.trim(), ...by }
          : answerFromTypedLine(view.prompt, line, options.by);
      if (!answer) {
        show(view);
        return { kind: "reprompted" };
      }
      const verdict = answers.answer(view.decisionId, answer);
      if (verdict === "already_answered" || verdict === "no_longer_pending") open.delete(view.decisionId);
      return { kind: "answered", verdict };
    },
    get open() {
      return [...open.values()];
    },
  };
}
