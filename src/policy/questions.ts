// AskUserQuestion: its questions asked one after another, each with its options as choices
// (toggles plus Done when multi-select) and "type an answer"; the last answer builds the allow
// the CLI accepts (fixture g2: updatedInput = input + answers keyed by question text).
import type { ApprovalAnswer } from "../domain/index.js";
import {
  shownWords,
  type DecisionPrompt,
  type PersonAnswer,
  type PromptChoice,
  type PromptSection,
} from "./prompt-types.js";

export type Question = {
  question: string;
  header?: string;
  multiSelect: boolean;
  options: readonly { label: string; description?: string }[];
};

export type QuestionFlow = {
  questions: readonly Question[];
  /** The question being asked now. */
  index: number;
  /** Answers so far, keyed by question text. */
  answers: Readonly<Record<string, string>>;
  /** The same answers as the settled prompt shows them (see TypedWords.shown). */
  shown: Readonly<Record<string, string>>;
  /** Options toggled on for the current multi-select question (indexes). */
  selected: readonly number[];
  /** The person chose "type an answer": the next typed text answers the current question. */
  awaitingText: boolean;
  /** A one-line hint shown after an answer the flow could not use. */
  hint?: string;
};

/** Reads AskUserQuestion input; questions without text are dropped. Never throws. */
export function parseQuestions(input: Readonly<Record<string, unknown>>): Question[] {
  const raw = Array.isArray(input["questions"]) ? (input["questions"] as unknown[]) : [];
  const out: Question[] = [];
  for (const q of raw) {
    if (typeof q !== "object" || q === null) continue;
    const rec = q as Record<string, unknown>;
    if (typeof rec["question"] !== "string" || rec["question"] === "") continue;
    const options = (Array.isArray(rec["options"]) ? (rec["options"] as unknown[]) : []).flatMap((o) => {
      if (typeof o !== "object" || o === null) return [];
      const opt = o as Record<string, unknown>;
      if (typeof opt["label"] !== "string") return [];
      return [
        typeof opt["description"] === "string"
          ? { label: opt["label"], description: opt["description"] }
          : { label: opt["label"] },
      ];
    });
    out.push({
      question: rec["question"],
      ...(typeof rec["header"] === "string" && rec["header"] !== "" ? { header: rec["header"] } : {}),
      multiSelect: rec["multiSelect"] === true,
      options,
    });
  }
  return out;
}

export function startQuestionFlow(questions: readonly Question[]): QuestionFlow {
  return { questions, index: 0, answers: {}, shown: {}, selected: [], awaitingText: false };
}

/** Choice ids carry the question index, so a tap on an earlier question's button is recognised. */
export function optionChoiceId(questionIndex: number, optionIndex: number): string {
  return `q${questionIndex}:opt${optionIndex}`;
}
export function doneChoiceId(questionIndex: number): string {
  return `q${questionIndex}:done`;
}
export function typeChoiceId(questionIndex: number): string {
  return `q${questionIndex}:type`;
}

export function questionPrompt(flow: QuestionFlow): DecisionPrompt {
  const q = flow.questions[flow.index];
  if (q === undefined) throw new RangeError("question flow has no current question");
  const sections: PromptSection[] = [{ kind: "text", text: q.question }];
  const described = q.options.filter((o) => o.description);
  if (described.length > 0) {
    sections.push({ kind: "fields", fields: described.map((o) => ({ name: o.label, value: o.description ?? "" })) });
  }
  const choices: PromptChoice[] = q.options.map((o, i) => ({
    id: optionChoiceId(flow.index, i),
    label: q.multiSelect ? `${flow.selected.includes(i) ? "☑" : "☐"} ${o.label}` : o.label,
    tone: "neutral",
  }));
  if (q.multiSelect)
    choices.push({ id: doneChoiceId(flow.index), label: `Done (${flow.selected.length} selected)`, tone: "allow" });
  choices.push({ id: typeChoiceId(flow.index), label: "Type an answer", tone: "neutral", expectsText: true });
  const count = flow.questions.length;
  const title = `${count > 1 ? `Question ${flow.index + 1} of ${count}` : "Question"}${q.header ? ` · ${q.header}` : ""}`;
  const caption = flow.awaitingText
    ? "Send your answer as a message."
    : (flow.hint ?? (q.multiSelect ? "Pick one or more, then Done; or type an answer." : undefined));
  return {
    kind: "question",
    title,
    sections,
    choices,
    ...(caption !== undefined ? { caption } : {}),
    textReplyHint: "A typed reply answers this question.",
    ...(count > 1 ? { step: { index: flow.index, count } } : {}),
  };
}

export type QuestionStep =
  /** The flow moved on or changed (toggle, next question): show the new prompt. */
  | { kind: "continue"; flow: QuestionFlow }
  /** Every question has an answer: send this to the CLI. */
  | { kind: "complete"; answers: Readonly<Record<string, string>>; shown: Readonly<Record<string, string>> }
  /** The tap belongs to an earlier question (already answered) or names no choice. */
  | { kind: "stale" };

function record(flow: QuestionFlow, q: Question, answer: string, shownAs = answer): QuestionStep {
  const answers = { ...flow.answers, [q.question]: answer };
  const shown = { ...flow.shown, [q.question]: shownAs };
  if (flow.index + 1 >= flow.questions.length) return { kind: "complete", answers, shown };
  return {
    kind: "continue",
    flow: { ...flow, index: flow.index + 1, answers, shown, selected: [], awaitingText: false },
  };
}

/**
 * Applies one answer of the person to the flow. Typed text answers the current question as
 * is; multi-select answers are the chosen labels joined with ", " (as the CLI documents).
 */
export function answerQuestion(flow: QuestionFlow, answer: PersonAnswer): QuestionStep {
  const q = flow.questions[flow.index];
  if (q === undefined) return { kind: "stale" };
  const { hint: _hint, ...base } = flow;
  if (answer.kind === "text") {
    const text = answer.text.trim();
    if (text === "")
      return { kind: "continue", flow: { ...base, hint: "An empty answer does not count; type some text." } };
    return record(base, q, text, shownWords(answer).trim());
  }
  const id = answer.choiceId;
  if (id === typeChoiceId(flow.index)) return { kind: "continue", flow: { ...base, awaitingText: true } };
  if (id === doneChoiceId(flow.index) && q.multiSelect) {
    if (flow.selected.length === 0)
      return { kind: "continue", flow: { ...base, hint: "Pick at least one option, or type an answer." } };
    const labels = [...flow.selected].sort((x, y) => x - y).map((i) => q.options[i]?.label ?? "");
    return record(base, q, labels.join(", "));
  }
  const match = /^q(\d+):opt(\d+)$/.exec(id);
  if (!match || Number(match[1]) !== flow.index) return { kind: "stale" };
  const optionIndex = Number(match[2]);
  const option = q.options[optionIndex];
  if (option === undefined) return { kind: "stale" };
  if (!q.multiSelect) return record(base, q, option.label);
  const selected = flow.selected.includes(optionIndex)
    ? flow.selected.filter((i) => i !== optionIndex)
    : [...flow.selected, optionIndex];
  return { kind: "continue", flow: { ...base, selected, awaitingText: false } };
}

/** The allow that delivers the answers: the original input plus `answers`. */
export function questionAnswerResponse(
  input: Readonly<Record<string, unknown>>,
  answers: Readonly<Record<string, string>>,
): ApprovalAnswer {
  return { behavior: "allow", updatedInput: { ...input, answers: { ...answers } } };
}

/** One line for the settled prompt: "Color: Green · Size: Large". */
export function summarizeAnswers(questions: readonly Question[], answers: Readonly<Record<string, string>>): string {
  return questions.map((q) => `${q.header ?? q.question}: ${answers[q.question] ?? "—"}`).join(" · ");
}
