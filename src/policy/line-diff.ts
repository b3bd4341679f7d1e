// A compact line diff for approval prompts: what an Edit replaces, with a few lines of context.
// Small inputs get a real LCS diff; very large ones degrade to "removed block, added block".
import type { DiffLine } from "./prompt-types.js";

export type CompactDiffOptions = {
  /** Unchanged lines kept around each change. */
  contextLines?: number;
  /** Longest diff returned; the rest is summarised in a final gap line. */
  maxLines?: number;
};

/** Above this many cells the quadratic LCS is skipped (the prompt only needs a readable gist). */
const maxLcsCells = 250_000;

function splitLines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

type Op = { op: "context" | "removed" | "added"; text: string };

function lcsOps(a: readonly string[], b: readonly string[]): Op[] {
  if (a.length * b.length > maxLcsCells) {
    return [...a.map((text): Op => ({ op: "removed", text })), ...b.map((text): Op => ({ op: "added", text }))];
  }
  // lengths[i][j] = LCS length of a[i..] and b[j..], as one flat array.
  const width = b.length + 1;
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    const ai = a[i] ?? "";
    if (ai === b[j]) {
      ops.push({ op: "context", text: ai });
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      ops.push({ op: "removed", text: ai });
      i++;
    } else {
      ops.push({ op: "added", text: b[j] ?? "" });
      j++;
    }
  }
  for (; i < a.length; i++) ops.push({ op: "removed", text: a[i] ?? "" });
  for (; j < b.length; j++) ops.push({ op: "added", text: b[j] ?? "" });
  return ops;
}

/**
 * Diffs two texts line by line and keeps only changes plus `contextLines` around them;
 * skipped unchanged runs become `gap` lines. Never throws; empty when the texts are equal.
 */
export function compactLineDiff(oldText: string, newText: string, options: CompactDiffOptions = {}): DiffLine[] {
  const context = options.contextLines ?? 2;
  const maxLines = options.maxLines ?? 40;
  const a = splitLines(oldText);
  const b = splitLines(newText);
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  )
    suffix++;
  const ops: Op[] = [
    ...a.slice(0, prefix).map((text): Op => ({ op: "context", text })),
    ...lcsOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
    ...a.slice(a.length - suffix).map((text): Op => ({ op: "context", text })),
  ];
  if (!ops.some((o) => o.op !== "context")) return [];

  // Keep context lines within `context` of a change.
  const keep = ops.map(() => false);
  ops.forEach((o, idx) => {
    if (o.op === "context") return;
    for (let k = Math.max(0, idx - context); k <= Math.min(ops.length - 1, idx + context); k++) keep[k] = true;
  });
  const out: DiffLine[] = [];
  let skipped = 0;
  ops.forEach((o, idx) => {
    if (keep[idx]) {
      if (skipped > 0) out.push({ op: "gap", skipped });
      skipped = 0;
      out.push(o);
    } else {
      skipped++;
    }
  });
  if (skipped > 0) out.push({ op: "gap", skipped });

  if (out.length <= maxLines) return out;
  const shown = out.slice(0, maxLines - 1);
  const rest = out.slice(maxLines - 1).reduce((n, l) => n + (l.op === "gap" ? l.skipped : 1), 0);
  shown.push({ op: "gap", skipped: rest });
  return shown;
}
