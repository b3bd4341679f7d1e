// An MCP server's question (MCP elicitation), asked as Claude's own questions are: a form's
// fields one after another, each with its choices (a list's values, Yes and No) or a typed
// answer, Skip for a field the server can do without, and Decline for the whole; or a link to
// open, with Continue and Decline. The last answer builds what the server gets: the values by
// field name, typed as its schema says. Declined, the server hears the person said no.
import type { ApprovalAnswer } from "../domain/index.js";
import { parseElicitation, typedValue, type Elicitation, type ElicitationField } from "./elicitation-fields.js";
import { shownWords, type DecisionPrompt, type PersonAnswer, type PromptChoice } from "./prompt-types.js";

export { parseElicitation, type Elicitation } from "./elicitation-fields.js";

/** A field's value as the server gets it: its text, a number, yes or no, or the values chosen. */
type FieldValue = string | number | boolean | readonly string[];

export type ElicitationFlow = {
  elicitation: Elicitation;
  /** The field being asked now. */
  index: number;
  /** The values so far, by field name, as the server gets them. */
  values: Readonly<Record<string, FieldValue>>;
  /** The same values as the settled prompt shows them, by field label. */
  shown: Readonly<Record<string, string>>;
  /** For a field of several choices: the options toggled on (indexes). */
  selected: readonly number[];
  /** The person chose "Type an answer": the next typed text answers the current field. */
  awaitingText: boolean;
  /** A one-line hint shown after an answer the flow could not use. */
  hint?: string;
};

export function startElicitation(input: Readonly<Record<string, unknown>>): ElicitationFlow {
  return { elicitation: parseElicitation(input), index: 0, values: {}, shown: {}, selected: [], awaitingText: false };
}

const DECLINE: PromptChoice = { id: "decline", label: "Decline", tone: "deny" };
const choiceId = (index: number, what: string): string => `e${index}:${what}`;

/** The prompt for the flow's current step. */
export function elicitationPrompt(flow: ElicitationFlow): DecisionPrompt {
  const { elicitation: asked } = flow;
  if (asked.mode === "url") {
    const link = asked.url ?? "(the server sent no link)";
    const local = asked.url !== undefined && isLocalLink(asked.url);
    const open = local
      ? `The link opens on the computer Telecode runs on, not on a phone: open it there to do what ${asked.server} asks, then tap Continue.`
      : `Open the link to do what ${asked.server} asks there, then tap Continue.`;
    return {
      kind: "question",
      title: `${asked.server} asks you to open a link`,
      sections: [{ kind: "text", text: asked.message === "" ? link : `${asked.message}\n\n${link}` }],
      choices: [{ id: "continue", label: "Continue", tone: "allow" }, DECLINE],
      caption: flow.hint ?? open,
      textReplyHint: "Tap Continue or Decline to answer.",
      ...(asked.url === undefined ? {} : { link: asked.url }),
    };
  }
  const field = asked.fields[flow.index];
  const count = asked.fields.length;
  const about = field === undefined ? "" : fieldLine(field, count);
  const question = [asked.message, about].filter((part) => part !== "").join("\n\n");
  const choices =
    field === undefined ? [{ id: "send", label: "Continue", tone: "allow" as const }] : fieldChoices(flow, field);
  return {
    kind: "question",
    title: `${asked.server} asks${count > 1 ? ` · ${flow.index + 1} of ${count}` : ""}`,
    sections: [{ kind: "text", text: question === "" ? "Go ahead?" : question }],
    choices: [...choices, DECLINE],
    ...captionOf(flow, field),
    textReplyHint: "A typed reply answers this question.",
    ...(count > 1 ? { step: { index: flow.index, count } } : {}),
  };
}

/**
 * A link to the computer it was made on (localhost, a loopback address), which opens there and
 * nowhere else: not on the phone the question is read on.
 */
export function isLocalLink(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || /^127(\.\d+){3}$/.test(host) || host === "[::1]";
}

/**
 * The field as the person reads it: its label and description, and what it takes ("Replicas (a
 * whole number from 1 to 10)", "Notes (optional)"). A lone required field the message already
 * asks for, with no label of its own, shows only what it takes.
 */
function fieldLine(field: ElicitationField, count: number): string {
  const named = count > 1 || field.label !== field.name || field.description !== undefined;
  const about = !named ? "" : field.description === undefined ? field.label : `${field.label}: ${field.description}`;
  const notes = [expects(field), field.required ? undefined : "optional"].filter((n) => n !== undefined);
  const said = notes.length === 0 ? "" : `(${notes.join(", ")})`;
  return [about, said].filter((part) => part !== "").join(" ");
}

/** What a typed value must be, when the field says more than "some text". */
function expects(field: ElicitationField): string | undefined {
  if (field.kind === "number" || field.kind === "integer") {
    const what = field.kind === "integer" ? "a whole number" : "a number";
    const { minimum: min, maximum: max } = field;
    if (min !== undefined && max !== undefined) return `${what} from ${min} to ${max}`;
    if (min !== undefined) return `${what} of at least ${min}`;
    return max === undefined ? what : `${what} of at most ${max}`;
  }
  if (field.kind !== "text") return undefined;
  const formats: Record<string, string> = {
    email: "an email address",
    uri: "a link",
    date: "a date, YYYY-MM-DD",
    "date-time": "a date and time",
  };
  const format = field.format === undefined ? undefined : formats[field.format];
  if (format !== undefined) return format;
  return field.maxLength === undefined ? undefined : `up to ${field.maxLength} characters`;
}

function fieldChoices(flow: ElicitationFlow, field: ElicitationField): PromptChoice[] {
  const i = flow.index;
  const skip: PromptChoice[] = field.required ? [] : [{ id: choiceId(i, "skip"), label: "Skip", tone: "neutral" }];
  switch (field.kind) {
    case "yes_no":
      return [
        { id: choiceId(i, "yes"), label: "Yes", tone: "neutral" },
        { id: choiceId(i, "no"), label: "No", tone: "neutral" },
        ...skip,
      ];
    case "one_of":
      return [
        ...field.options.map((o, n) => ({ id: choiceId(i, `opt${n}`), label: o.label, tone: "neutral" as const })),
        ...skip,
      ];
    case "some_of":
      return [
        ...field.options.map((o, n) => ({
          id: choiceId(i, `opt${n}`),
          label: `${flow.selected.includes(n) ? "☑" : "☐"} ${o.label}`,
          tone: "neutral" as const,
        })),
        { id: choiceId(i, "done"), label: `Done (${flow.selected.length} selected)`, tone: "allow" },
        ...skip,
      ];
    default:
      return [{ id: choiceId(i, "type"), label: "Type an answer", tone: "neutral", expectsText: true }, ...skip];
  }
}

function captionOf(flow: ElicitationFlow, field: ElicitationField | undefined): { caption?: string } {
  if (flow.awaitingText) return { caption: "Send your answer as a message." };
  if (flow.hint !== undefined) return { caption: flow.hint };
  if (field?.kind === "some_of") return { caption: "Pick any, then Done." };
  return {};
}

export type ElicitationStep =
  | { kind: "continue"; flow: ElicitationFlow }
  | { kind: "complete"; answer: ApprovalAnswer; summary: string }
  | { kind: "declined" }
  | { kind: "stale" };

/** Moves on to the next field, or completes with every value. */
function record(
  flow: ElicitationFlow,
  field: ElicitationField,
  value: FieldValue | undefined,
  shown: string,
): ElicitationStep {
  const values = value === undefined ? flow.values : { ...flow.values, [field.name]: value };
  const next = { ...flow, values, shown: { ...flow.shown, [field.label]: shown } };
  if (flow.index + 1 < flow.elicitation.fields.length)
    return { kind: "continue", flow: { ...next, index: flow.index + 1, selected: [], awaitingText: false } };
  return complete(next);
}

function complete(flow: ElicitationFlow): ElicitationStep {
  const summary = Object.entries(flow.shown)
    .map(([label, value]) => `${label}: ${value}`)
    .join(" · ");
  return {
    kind: "complete",
    answer: { behavior: "allow", updatedInput: { action: "accept", content: { ...flow.values } } },
    summary: summary === "" ? "Answered" : `Sent ${summary}`,
  };
}

/** Applies one answer of the person to the flow. */
export function answerElicitation(flow: ElicitationFlow, answer: PersonAnswer): ElicitationStep {
  const { hint: _hint, ...base } = flow;
  const hinted = (hint: string): ElicitationStep => ({ kind: "continue", flow: { ...base, hint } });
  if (answer.kind === "choice" && answer.choiceId === DECLINE.id) return { kind: "declined" };
  if (flow.elicitation.mode === "url") {
    if (answer.kind === "choice" && answer.choiceId === "continue")
      return {
        kind: "complete",
        answer: { behavior: "allow", updatedInput: { action: "accept" } },
        summary: "Continued",
      };
    return answer.kind === "text"
      ? hinted("Tap Continue once you have opened the link, or Decline.")
      : { kind: "stale" };
  }
  const field = flow.elicitation.fields[flow.index];
  if (field === undefined)
    return answer.kind === "choice" && answer.choiceId === "send" ? complete(base) : { kind: "stale" };
  if (answer.kind === "text") return typedAnswer(base, field, answer.text, shownWords(answer));
  const what = answer.choiceId.startsWith(`e${flow.index}:`) ? answer.choiceId.slice(`e${flow.index}:`.length) : "";
  switch (what) {
    case "skip":
      return field.required ? { kind: "stale" } : record(base, field, undefined, "—");
    case "type":
      return { kind: "continue", flow: { ...base, awaitingText: true } };
    case "yes":
    case "no":
      return field.kind === "yes_no"
        ? record(base, field, what === "yes", what === "yes" ? "Yes" : "No")
        : { kind: "stale" };
    case "done": {
      if (field.kind !== "some_of") return { kind: "stale" };
      if (field.required && flow.selected.length === 0) return hinted("Pick at least one, then Done.");
      const picked = [...flow.selected].sort((a, b) => a - b).flatMap((n) => field.options[n] ?? []);
      return record(
        base,
        field,
        picked.map((o) => o.value),
        picked.map((o) => o.label).join(", ") || "—",
      );
    }
  }
  const option = /^opt(\d+)$/.exec(what);
  const n = option === null ? -1 : Number(option[1]);
  const picked = field.options[n];
  if (picked === undefined) return { kind: "stale" };
  if (field.kind === "one_of") return record(base, field, picked.value, picked.label);
  const selected = flow.selected.includes(n) ? flow.selected.filter((x) => x !== n) : [...flow.selected, n];
  return { kind: "continue", flow: { ...base, selected, awaitingText: false } };
}

/** Words typed for `field`: its value, or the prompt again with what is wrong. */
function typedAnswer(flow: ElicitationFlow, field: ElicitationField, typed: string, shown: string): ElicitationStep {
  const words = typed.trim();
  const hinted = (hint: string): ElicitationStep => ({ kind: "continue", flow: { ...flow, hint } });
  switch (field.kind) {
    case "yes_no": {
      const yes = /^(yes|y|true|ok)$/i.test(words);
      if (!yes && !/^(no|n|false)$/i.test(words)) return hinted(`Tap Yes or No for ${field.label}.`);
      return record(flow, field, yes, yes ? "Yes" : "No");
    }
    case "one_of":
    case "some_of": {
      const lower = words.toLowerCase();
      const n = field.options.findIndex((o) => o.label.toLowerCase() === lower || o.value.toLowerCase() === lower);
      const option = field.options[n];
      if (option === undefined) return hinted(`Pick ${field.label} with the buttons.`);
      if (field.kind === "one_of") return record(flow, field, option.value, option.label);
      return record(flow, field, [option.value], option.label);
    }
    default: {
      const value = typedValue(field, words);
      if ("wrong" in value) return hinted(value.wrong);
      return record(flow, field, value.value, field.kind === "text" ? shown.trim() : String(value.value));
    }
  }
}
