// AskUserQuestion: options as choices plus "type an answer", multi-select, several questions
// one after another, the answer in the form the CLI accepts (fixture g2), questions off.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/domain/events.js";
import { questionsOffMessage } from "../../src/policy/index.js";
import { fixtureRequest } from "./fixture-events.js";
import { asked, effectTypes, machine, responded } from "./machine-harness.js";

const g2 = fixtureRequest("g2-ask-user-question-answers", "AskUserQuestion");

/** What the recording of g2 wrote back (the form the CLI accepted). */
function g2Answer(): unknown {
  const transcript = readFileSync(
    fileURLToPath(
      new URL("../golden/fixtures/claude-code-2.1.332/g2-ask-user-question-answers.transcript.jsonl", import.meta.url),
    ),
    "utf8",
  );
  const written = transcript
    .split("\n")
    .filter((l) => l.includes('"dir":"in"'))
    .map((l) => JSON.parse((JSON.parse(l) as { line: string }).line) as Record<string, unknown>);
  return (written.find((w) => w["type"] === "control_response") as { response: { response: unknown } }).response
    .response;
}

const multi: ApprovalRequest = {
  requestId: "q-multi",
  toolName: "AskUserQuestion",
  permissionSuggestions: [],
  input: {
    questions: [
      {
        question: "Which features do you want?",
        header: "Features",
        multiSelect: true,
        options: [
          { label: "Auth", description: "Log in" },
          { label: "Search", description: "Find" },
          { label: "Export", description: "CSV" },
        ],
      },
      {
        question: "Which database?",
        header: "DB",
        multiSelect: false,
        options: [
          { label: "SQLite", description: "File" },
          { label: "Postgres", description: "Server" },
        ],
      },
    ],
  },
};

describe("one question (fixture g2)", () => {
  it("shows the question, its options as choices and 'Type an answer'", () => {
    const m = machine({ mode: "default" });
    const prompt = asked(m.request(g2));
    expect(prompt).toMatchObject({ kind: "question", title: "Question · Color" });
    expect(prompt?.sections[0]).toEqual({ kind: "text", text: "Which color should the button be?" });
    expect(prompt?.choices.map((c) => c.label)).toEqual(["Blue", "Green", "Type an answer"]);
    expect(prompt?.choices.at(-1)?.expectsText).toBe(true);
  });

  it("a tap on an option sends exactly what the CLI accepted in g2", () => {
    const m = machine({ mode: "default" });
    m.request(g2);
    const step = m.tap(g2.requestId, "q0:opt1");
    // As recorded, and said to be a person's.
    expect(responded(step)).toEqual({ ...(g2Answer() as object), decisionClassification: "user_temporary" });
    expect(step.effects.find((e) => e.type === "settle")).toMatchObject({
      outcome: { decision: "allow", summary: "Color: Green" },
    });
  });

  it("a typed answer goes the same way, keyed by the question text", () => {
    const m = machine({ mode: "auto" });
    m.request(g2);
    expect(m.tap(g2.requestId, "q0:type").verdict).toBe("accepted");
    expect(
      asked(
        m.step({ type: "answer", decisionId: g2.requestId, answer: { kind: "choice", choiceId: "q0:type" }, nowMs: 0 }),
      )?.caption,
    ).toBe("Send your answer as a message.");
    const step = m.answer(g2.requestId, { kind: "text", text: "  teal, like the logo " });
    expect(responded(step)).toEqual({
      behavior: "allow",
      updatedInput: { ...g2.input, answers: { "Which color should the button be?": "teal, like the logo" } },
      decisionClassification: "user_temporary",
    });
  });

  it("an answer with a file gives Claude where the file is, and shows the person only its name", () => {
    const m = machine();
    m.request(g2);
    const claudeGets =
      "like the logo\n\nI sent you a file; it is saved in the project at .telecode/uploads/logo.png (3 KiB, image/png).";
    const step = m.answer(g2.requestId, { kind: "text", text: claudeGets, shown: "like the logo 📎 logo.png" });
    expect(responded(step)).toEqual({
      behavior: "allow",
      updatedInput: { ...g2.input, answers: { "Which color should the button be?": claudeGets } },
      decisionClassification: "user_temporary",
    });
    expect(step.effects.find((e) => e.type === "settle")).toMatchObject({
      outcome: { decision: "allow", summary: "Color: like the logo 📎 logo.png" },
    });
  });

  it("an empty typed answer is not taken", () => {
    const m = machine();
    m.request(g2);
    const step = m.answer(g2.requestId, { kind: "text", text: "   " });
    expect(responded(step)).toBeUndefined();
    expect(asked(step)?.caption).toMatch(/empty answer/);
  });
});

describe("several questions, multi-select", () => {
  it("asks one after another; toggles show; only the last answer responds", () => {
    const m = machine();
    const first = asked(m.request(multi));
    expect(first?.title).toBe("Question 1 of 2 · Features");
    expect(first?.step).toEqual({ index: 0, count: 2 });
    expect(first?.choices.map((c) => c.label)).toEqual([
      "☐ Auth",
      "☐ Search",
      "☐ Export",
      "Done (0 selected)",
      "Type an answer",
    ]);

    const toggled = m.tap("q-multi", "q0:opt2");
    expect(responded(toggled)).toBeUndefined();
    expect(effectTypes(toggled)).toEqual(["askPerson"]);
    m.tap("q-multi", "q0:opt0");
    m.tap("q-multi", "q0:opt1");
    const untoggled = m.tap("q-multi", "q0:opt1");
    expect(
      asked(untoggled)
        ?.choices.map((c) => c.label)
        .slice(0, 4),
    ).toEqual(["☑ Auth", "☐ Search", "☑ Export", "Done (2 selected)"]);

    const next = m.tap("q-multi", "q0:done");
    expect(responded(next)).toBeUndefined();
    expect(asked(next)?.title).toBe("Question 2 of 2 · DB");

    // A late tap on the first question's buttons is recognised, not applied to the second.
    expect(m.tap("q-multi", "q0:opt1").verdict).toBe("already_answered");

    const done = m.tap("q-multi", "q1:opt1");
    expect(responded(done)).toEqual({
      behavior: "allow",
      updatedInput: {
        ...multi.input,
        answers: { "Which features do you want?": "Auth, Export", "Which database?": "Postgres" },
      },
      decisionClassification: "user_temporary",
    });
  });

  it("Done with nothing selected asks again", () => {
    const m = machine();
    m.request(multi);
    const step = m.tap("q-multi", "q0:done");
    expect(responded(step)).toBeUndefined();
    expect(asked(step)?.caption).toMatch(/at least one option/);
  });

  it("a typed answer to a multi-select question replaces the toggles", () => {
    const m = machine();
    m.request(multi);
    m.tap("q-multi", "q0:opt0");
    m.answer("q-multi", { kind: "text", text: "none of these" });
    const step = m.answer("q-multi", { kind: "text", text: "SQLite" });
    expect(responded(step)).toMatchObject({
      updatedInput: { answers: { "Which features do you want?": "none of these", "Which database?": "SQLite" } },
    });
  });
});

describe("questions off and odd input", () => {
  it("questions off: denied at once with 'proceed with reasonable defaults'", () => {
    const m = machine({ questionsEnabled: false });
    const step = m.request(g2);
    expect(responded(step)).toEqual({
      behavior: "deny",
      message: questionsOffMessage,
      decisionClassification: "config",
    });
    expect(asked(step)).toBeUndefined();
  });
  it("a question without text is denied, not shown", () => {
    const m = machine();
    const step = m.request({ ...g2, input: { questions: [{ options: [] }] } });
    expect(responded(step)?.behavior).toBe("deny");
  });
});
