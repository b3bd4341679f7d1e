// What a person needs to see to decide on an approval at the terminal: the tool, the command
// or file, a short diff for Edit/Write, a plan's first lines, a question's options. Pure text.
import { excerpt } from "../domain/index.js";
import type { ApprovalRequest } from "../domain/index.js";

const DIFF_MAX_LINES = 20;

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function limited(lines: string[]): string[] {
  if (lines.length <= DIFF_MAX_LINES) return lines;
  return [...lines.slice(0, DIFF_MAX_LINES), `  … ${lines.length - DIFF_MAX_LINES} more lines`];
}

/** `- old` / `+ new` lines for Edit, `+ content` for Write, at most ~20 lines. */
export function shortDiff(toolName: string, input: Readonly<Record<string, unknown>>): string[] {
  if (toolName === "Edit") {
    const before = (str(input["old_string"]) ?? "").split("\n").map((l) => `- ${l}`);
    const after = (str(input["new_string"]) ?? "").split("\n").map((l) => `+ ${l}`);
    return limited([...before, ...after]);
  }
  if (toolName === "MultiEdit" && Array.isArray(input["edits"])) {
    const lines: string[] = [];
    for (const edit of input["edits"] as Record<string, unknown>[]) {
      lines.push(...(str(edit["old_string"]) ?? "").split("\n").map((l) => `- ${l}`));
      lines.push(...(str(edit["new_string"]) ?? "").split("\n").map((l) => `+ ${l}`));
    }
    return limited(lines);
  }
  if (toolName === "Write") return limited((str(input["content"]) ?? "").split("\n").map((l) => `+ ${l}`));
  return [];
}

/** The full text shown above the question. */
export function describeApproval(request: ApprovalRequest): string {
  const input = request.input;
  const lines = [`? Claude Code wants to use ${request.toolName}${request.description === undefined ? "" : ` — ${excerpt(request.description, 120)}`}`];
  const command = str(input["command"]);
  const file = str(input["file_path"]) ?? str(input["notebook_path"]) ?? str(input["path"]);
  if (command !== undefined) lines.push(`  $ ${command}`);
  if (file !== undefined) lines.push(`  file: ${file}`);
  lines.push(...shortDiff(request.toolName, input).map((l) => `  ${l}`));
  const plan = str(input["plan"]);
  if (plan !== undefined) lines.push(...limited(plan.split("\n")).map((l) => `  │ ${l}`));
  const questions = input["questions"];
  if (Array.isArray(questions)) {
    for (const q of questions as { question?: unknown; options?: { label?: unknown; description?: unknown }[] }[]) {
      lines.push(`  ${String(q.question)}`);
      (q.options ?? []).forEach((o, i) => lines.push(`    ${i + 1}. ${String(o.label)}${typeof o.description === "string" ? ` — ${o.description}` : ""}`));
    }
  }
  if (command === undefined && file === undefined && plan === undefined && !Array.isArray(questions)) {
    lines.push(`  ${excerpt(JSON.stringify(input), 300)}`);
  }
  if (request.decisionReason !== undefined) lines.push(`  (${request.decisionReason})`);
  return lines.join("\n");
}
