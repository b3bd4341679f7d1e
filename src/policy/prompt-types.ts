// The plain data a front end renders when Telecode asks a person, and the data it hands back.
// Content only (which lines, which diff, which buttons); escaping and layout belong to front ends.

/** One line of a compact diff: unchanged context, removed, added, or a gap of skipped lines. */
export type DiffLine = { op: "context" | "removed" | "added"; text: string } | { op: "gap"; skipped: number };

export type PromptSection =
  /** Prose: a description, the CLI's reason, a question. */
  | { kind: "text"; text: string; label?: string }
  /** Verbatim text in a fixed-width block: a command, the first lines of a file. */
  | { kind: "code"; text: string; label?: string }
  /** A compact line diff (Edit, MultiEdit), with the file it applies to. */
  | { kind: "diff"; path: string; lines: readonly DiffLine[]; line?: number }
  /** Markdown written by the model: a plan. Long text is split by the front end. */
  | { kind: "markdown"; text: string; label?: string }
  /** Key input fields of a tool call, values already shortened. */
  | { kind: "fields"; fields: readonly { name: string; value: string }[] };

/** A button. Ids are stable within a decision, so a late tap still names what it meant. */
export type PromptChoice = {
  id: string;
  label: string;
  tone: "allow" | "deny" | "neutral";
  /** The front end should collect a typed answer for this choice (e.g. "Type an answer"). */
  expectsText?: boolean;
};

export type DecisionPromptKind = "approval" | "plan" | "question";

export type DecisionPrompt = {
  kind: DecisionPromptKind;
  title: string;
  sections: readonly PromptSection[];
  choices: readonly PromptChoice[];
  /** What choosing does, in one or two sentences; always true for this request. */
  caption?: string;
  /** What a typed reply does while this prompt is open (front ends may show it as a hint). */
  textReplyHint: string;
  /** For several questions asked one after another. */
  step?: { index: number; count: number };
  /** A page the person is asked to open: a front end may offer it as a button (a section shows it too). */
  link?: string;
};

/**
 * Words a person gave as an answer: `text` is what Claude gets; `shown`, when set, is how the
 * settled prompt shows the answer back (Claude's text also names the files saved for it).
 */
export type TypedWords = { text: string; shown?: string };

/** What the person did: tapped a choice or typed text. `by` names them for the record. */
export type PersonAnswer =
  { kind: "choice"; choiceId: string; by?: string } | ({ kind: "text"; by?: string } & TypedWords);

/** The typed answer as the person's chat shows it back. */
export const shownWords = (words: TypedWords): string => words.shown ?? words.text;

/** How a decision ended, for the front end to show in place of the buttons. */
export type DecisionOutcome = {
  /** What the CLI was told; "none" when it no longer listened (withdrawn, session ended). */
  decision: "allow" | "deny" | "none";
  reason: "person" | "typed_reply" | "timeout" | "withdrawn" | "session_end";
  by?: string;
  /** One short line: "Allowed", "Plan approved", "Outline requested", "Withdrawn by Claude". */
  summary: string;
  /** The person asked for something else (an outline, a talk): a deny to the CLI, no refusal to them. */
  steered?: true;
};

export type InfoKind =
  /** plan-auto approved a plan without asking: the plan is shown for the record. */
  | "plan_auto_approved"
  /** Policy said no without asking (outline gate, plan-mode write, questions off, unattended). */
  | "auto_denied"
  /** Plan mode is not restored yet (background agents from the approved plan still run). */
  | "plan_rearm_deferred"
  /** set_permission_mode plan failed. */
  | "plan_rearm_failed";

/** Something the person should know that needs no answer. */
export type InfoMessage = { kind: InfoKind; title: string; sections: readonly PromptSection[] };

/**
 * Verdict for an answer a front end delivers: taken; too late (answered, or no longer pending:
 * withdrawn, timed out, ended); or naming no choice the open decision has (nothing changed).
 */
export type AnswerVerdict = "accepted" | "already_answered" | "no_longer_pending" | "not_a_choice";
