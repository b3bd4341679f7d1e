// Plain-text lines for a prompt or info message, for front ends without markup (the terminal)
// and for logs. No escaping, no colours: a transport adds those.
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

export function sectionLines(section: PromptSection): string[] {
  switch (section.kind) {
    case "text":
      return [section.label ? `${section.label}: ${section.text}` : section.text];
    case "code":
    case "markdown":
      return [...(section.label ? [`${section.label}:`] : []), ...section.text.split("\n").map((l) => `  ${l}`)];
    case "diff":
      return [section.path, ...section.lines.map(diffLineText)];
    case "fields":
      return section.fields.map((f) => `${f.name}: ${f.value}`);
  }
}

/** The whole prompt as lines: title, sections, caption, then numbered choices. */
export function promptLines(prompt: DecisionPrompt): string[] {
  return [
    prompt.title,
    ...prompt.sections.flatMap(sectionLines),
    ...(prompt.caption ? [prompt.caption] : []),
    ...prompt.choices.map((c, i) => `  [${i + 1}] ${c.label}`),
  ];
}

export function infoLines(info: InfoMessage): string[] {
  return [info.title, ...info.sections.flatMap(sectionLines)];
}

export function outcomeText(outcome: DecisionOutcome): string {
  return outcome.by ? `${outcome.summary} (${outcome.by})` : outcome.summary;
}
