// Plain-text lines for a prompt or info message, for front ends without markup (the terminal)
// and for logs. No escaping, no colours: a transport adds those.
import { toolDisplayName } from "../domain/index.js";
import type { DecisionOutcome, DecisionPrompt, DiffLine, InfoMessage, PromptSection } from "./prompt-types.js";

export function diffLineText(line: DiffLine): string {
  switch (line.op) {
    case "context":
      return `  ${line.text}`;
    case "removed":
      return `- ${line.text}`;
    case "added":
      return `+ ${line.text}`;
    case "gap":
      return `  ⋯ ${line.skipped} line${line.skipped === 1 ? "" : "s"}`;
  }
}

/** A diff's heading: its file, and the line its change starts on when known ("src/a.ts · line 42"). */
export function diffHeading(section: Extract<PromptSection, { kind: "diff" }>): string {
  return section.line === undefined ? section.path : `${section.path} · line ${section.line}`;
}

export function sectionLines(section: PromptSection): string[] {
  switch (section.kind) {
    case "text":
      return [section.label ? `${section.label}: ${section.text}` : section.text];
    case "code":
    case "markdown":
      return [...(section.label ? [`${section.label}:`] : []), ...section.text.split("\n").map((l) => `  ${l}`)];
    case "diff":
      return [diffHeading(section), ...section.lines.map(diffLineText)];
    case "fields":
      return section.fields.map((f) => `${f.name}: ${f.value}`);
  }
}

const INDENT = "  ";

/** A section as it reads under a prompt's headline: indented, a command after "$ ". */
function indentedSectionLines(section: PromptSection): string[] {
  if (section.kind === "code" && section.label === "command") {
    const [first = "", ...rest] = section.text.split("\n");
    return [`${INDENT}$ ${first}`, ...rest.map((l) => `${INDENT}  ${l}`)];
  }
  return sectionLines(section).map((l) => `${INDENT}${l}`);
}

/** A question's options with their descriptions beside them (the fields section names them). */
function questionChoiceLines(prompt: DecisionPrompt): string[] {
  const described = new Map<string, string>();
  for (const s of prompt.sections) if (s.kind === "fields") for (const f of s.fields) described.set(f.name, f.value);
  return prompt.choices.map((c, i) => {
    const description = described.get(c.label.replace(/^[☐☑] /, ""));
    return `${INDENT}[${i + 1}] ${c.label}${description === undefined ? "" : ` — ${description}`}`;
  });
}

/**
 * The whole prompt as terminal lines: a "?" headline saying what is asked (for an approval,
 * `toolName`), what it is about, the caption, then numbered choices. Each thing once.
 */
export function promptLines(prompt: DecisionPrompt, toolName?: string): string[] {
  const caption = prompt.caption ? [`${INDENT}${prompt.caption}`] : [];
  if (prompt.kind === "question") {
    const question = prompt.sections.find((s) => s.kind === "text")?.text ?? prompt.title;
    const step = prompt.step === undefined ? "" : ` (question ${prompt.step.index + 1} of ${prompt.step.count})`;
    return [`? ${question}${step}`, ...questionChoiceLines(prompt), ...caption];
  }
  const headline =
    prompt.kind === "approval" && toolName !== undefined ? `Allow ${toolDisplayName(toolName)}?` : prompt.title;
  return [
    `? ${headline}`,
    ...prompt.sections.flatMap(indentedSectionLines),
    ...caption,
    ...prompt.choices.map((c, i) => `${INDENT}[${i + 1}] ${c.label}`),
  ];
}

export function infoLines(info: InfoMessage): string[] {
  return [info.title, ...info.sections.flatMap(sectionLines)];
}

export function outcomeText(outcome: DecisionOutcome): string {
  return outcome.by ? `${outcome.summary} (${outcome.by})` : outcome.summary;
}
