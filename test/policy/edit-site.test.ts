// Where an Edit lands in its file: whole lines around the old text, the line number the
// shown text starts on, and no site when the old text is missing or not unique.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { approvalPrompt, findEditSite, promptLines } from "../../src/policy/index.js";

const file = ["import x from 'x';", "", "function main() {", "  const port = 3000;", "  listen(port);", "}", ""].join(
  "\n",
);

describe("an Edit's site in its file", () => {
  it("widens the old text to whole lines, with two lines above and below, and says where it starts", () => {
    expect(findEditSite(file, "port = 3000")).toEqual({
      firstLine: 2,
      before: "\nfunction main() {\n  const ",
      after: ";\n  listen(port);\n}",
    });
    // Old text that ends its line ends there: the lines below follow it.
    expect(findEditSite(file, "  listen(port);\n")).toEqual({
      firstLine: 3,
      before: "function main() {\n  const port = 3000;\n",
      after: "}\n",
    });
    // At the top of the file there is nothing above.
    expect(findEditSite(file, "import x")).toEqual({
      firstLine: 1,
      before: "",
      after: " from 'x';\n\nfunction main() {",
    });
  });

  it("has no site for an old text that is missing, empty or found more than once", () => {
    expect(findEditSite(file, "port = 4000")).toBeUndefined();
    expect(findEditSite(file, "")).toBeUndefined();
    expect(findEditSite(file, "port")).toBeUndefined();
  });

  it("always puts the old text back in its place: before + old + after is a run of whole lines of the file", () => {
    const line = fc.string({ unit: fc.constantFrom("a", "b", " ", "x"), maxLength: 6 });
    fc.assert(
      fc.property(fc.array(line, { minLength: 1, maxLength: 12 }), fc.nat(), fc.nat(), (lines, from, length) => {
        const text = lines.join("\n");
        const start = from % text.length || 0;
        const old = text.slice(start, start + 1 + (length % 8));
        const site = findEditSite(text, old);
        if (site === undefined) return;
        const shown = site.before + old + site.after;
        const begin = text.indexOf(shown);
        expect(begin).toBeGreaterThanOrEqual(0);
        expect(begin === 0 || text[begin - 1] === "\n").toBe(true);
        const end = begin + shown.length;
        expect(end === text.length || text[end] === "\n" || shown.endsWith("\n")).toBe(true);
        expect(site.firstLine).toBe(text.slice(0, begin).split("\n").length);
      }),
      { numRuns: 300 },
    );
  });

  it("shows the change as whole lines under its file and line number", () => {
    const prompt = approvalPrompt({
      requestId: "r1",
      toolName: "Edit",
      input: { file_path: "/p/src/main.ts", old_string: "port = 3000", new_string: "port = Number(env.PORT)" },
      permissionSuggestions: [],
      fileNow: { exists: true, lines: 6, editSite: findEditSite(file, "port = 3000")! },
    });
    expect(promptLines(prompt).slice(0, 8)).toEqual([
      "? Edit /p/src/main.ts",
      "  /p/src/main.ts · line 4",
      "    ",
      "    function main() {",
      "  -   const port = 3000;",
      "  +   const port = Number(env.PORT);",
      "      listen(port);",
      "    }",
    ]);
  });

  it("keeps the Edit's own lines, with no line number, when it replaces every occurrence", () => {
    const prompt = approvalPrompt({
      requestId: "r1",
      toolName: "Edit",
      input: { file_path: "/p/a.ts", old_string: "port", new_string: "p", replace_all: true },
      permissionSuggestions: [],
      fileNow: { exists: true, lines: 9, editSite: { firstLine: 3, before: "const ", after: " = 1;" } },
    });
    expect(prompt.sections[0]).toEqual({
      kind: "diff",
      path: "/p/a.ts",
      lines: [
        { op: "removed", text: "port" },
        { op: "added", text: "p" },
      ],
    });
  });
});
