// Decision prompts as Telegram messages: whatever the prompt holds, every part is HTML Telegram
// accepts within its limits (the settled form too), and every button's data fits in 64 bytes
// and names its choice again when tapped. Also the Continue button that survives restarts.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  approvalPrompt,
  type DecisionOutcome,
  type DecisionPrompt,
  type PromptSection,
} from "../../../src/policy/index.js";
import { telegramHtmlToText, validateTelegramHtml } from "../../../src/render/index.js";
import { CALLBACK_DATA_MAX_BYTES, CallbackRegistry, decodeCallbackData } from "../../../src/telegram/index.js";
import {
  keyboardOf,
  linkButtonUrl,
  renderPromptParts,
  renderSettledHtml,
} from "../../../src/telegram/bridge/prompt-html.js";
import { choiceCode, choiceFromCode } from "../../../src/telegram/bridge/choice-code.js";
import { resumeKeyboard } from "../../../src/telegram/bridge/resume-button.js";
import { runIdFromToken } from "../../../src/telegram/bridge/run-token.js";

const text = fc.string({ maxLength: 300 });
const section: fc.Arbitrary<PromptSection> = fc.oneof(
  fc
    .record({ kind: fc.constant("text" as const), text, label: fc.option(text, { nil: undefined }) })
    .map(({ label, ...s }) => (label === undefined ? s : { ...s, label })),
  fc.record({ kind: fc.constant("code" as const), text: fc.string({ maxLength: 3000 }) }),
  fc.record({ kind: fc.constant("markdown" as const), text: fc.string({ maxLength: 3000 }) }),
  fc.record({
    kind: fc.constant("diff" as const),
    path: text,
    lines: fc.array(
      fc.record({ op: fc.constantFrom("context" as const, "removed" as const, "added" as const), text }),
      { maxLength: 40 },
    ),
  }),
  fc.record({
    kind: fc.constant("fields" as const),
    fields: fc.array(fc.record({ name: text, value: text }), { maxLength: 6 }),
  }),
);
const choiceId = fc.oneof(
  fc.constantFrom("allow", "always", "deny", "approve", "outline", "discuss", "q0:opt1", "q12:done", "q3:type"),
  fc.string({ minLength: 1, maxLength: 30 }),
);
const prompt: fc.Arbitrary<DecisionPrompt> = fc.record({
  kind: fc.constantFrom("approval" as const, "plan" as const, "question" as const),
  title: fc.string({ minLength: 1, maxLength: 200 }),
  sections: fc.array(section, { maxLength: 5 }),
  choices: fc.uniqueArray(
    fc.record({
      id: choiceId,
      label: fc.string({ maxLength: 80 }),
      tone: fc.constantFrom("allow" as const, "deny" as const, "neutral" as const),
    }),
    { minLength: 1, maxLength: 8, selector: (c) => c.id },
  ),
  textReplyHint: fc.string({ minLength: 1, maxLength: 120 }),
});
const outcome: fc.Arbitrary<DecisionOutcome> = fc.record({
  decision: fc.constantFrom("allow" as const, "deny" as const, "none" as const),
  reason: fc.constantFrom(
    "person" as const,
    "typed_reply" as const,
    "timeout" as const,
    "withdrawn" as const,
    "session_end" as const,
  ),
  summary: fc.string({ minLength: 1, maxLength: 2000 }),
  by: fc.string({ maxLength: 40 }),
});

describe("decision prompts as Telegram messages", () => {
  it("are valid HTML within the limit, before and after they are settled", () => {
    fc.assert(
      fc.property(prompt, outcome, (p, o) => {
        const parts = renderPromptParts(p);
        expect(parts.length).toBeGreaterThan(0);
        for (const part of parts) expect(validateTelegramHtml(part)).toBeUndefined();
        const settled = renderSettledHtml(parts.at(-1)!, o);
        expect(validateTelegramHtml(settled)).toBeUndefined();
        expect(telegramHtmlToText(settled)).toContain(
          o.decision === "allow" ? "✅" : o.decision === "deny" ? "❌" : "⏹",
        );
      }),
      { numRuns: 150 },
    );
  });

  it("show an Edit that only adds a line break as its file and what it does, with no empty block", () => {
    const prompt = approvalPrompt({
      requestId: "r1",
      toolName: "Edit",
      input: { file_path: "/p/app.ts", old_string: "end()", new_string: "end()\n" },
      permissionSuggestions: [],
    });
    const [html] = renderPromptParts(prompt);
    expect(html).not.toContain("<pre>");
    expect(telegramHtmlToText(html!)).toContain(
      "/p/app.ts\n\nOnly adds a line break at the end of the text it replaces.",
    );
  });

  it("say who alone may answer, after what a typed reply does, and drop both once settled", () => {
    const prompt = {
      kind: "approval" as const,
      title: "Allow Bash?",
      sections: [],
      choices: [{ id: "allow", label: "Allow", tone: "allow" as const }],
      textReplyHint: "A typed reply denies this call.",
    };
    const [html] = renderPromptParts(prompt, { onlyFor: { name: "Ann <QA>" } });
    expect(html).toMatch(
      /\n\n<i>A typed reply denies this call\. Only Ann &lt;QA&gt;, who asked for this, can answer it\.<\/i>$/,
    );
    const [waiting] = renderPromptParts(prompt, { awaitingText: true, onlyFor: { name: "Ann" } });
    expect(waiting).toMatch(/<i>Only Ann, who asked for this, can answer it\.<\/i>$/);
    const settled = renderSettledHtml(html!, { decision: "allow", reason: "person", by: "Ann", summary: "Allowed" });
    expect(settled).not.toContain("Only");
    expect(settled).not.toContain("typed reply");
  });

  it("stay valid HTML when a long typed reply is cut next to an &, < or >", () => {
    const parts = renderPromptParts({
      kind: "approval",
      title: "Allow Bash?",
      sections: [],
      choices: [{ id: "allow", label: "Allow", tone: "allow" }],
      textReplyHint: "A typed reply denies this call.",
    });
    for (let at = 320; at < 380; at++) {
      for (const mark of ["&", "<", ">"]) {
        const summary = `Denied with your reply: ${"a".repeat(at)}${mark}${"b".repeat(100)}`;
        const settled = renderSettledHtml(parts.at(-1)!, {
          decision: "deny",
          reason: "typed_reply",
          summary,
          by: "Ann",
        });
        expect(validateTelegramHtml(settled)).toBeUndefined();
      }
    }
  });

  it("give every button data under 64 bytes that names its choice again", () => {
    const registry = new CallbackRegistry<string>({ now: () => 0 });
    fc.assert(
      fc.property(prompt, (p) => {
        const token = registry.register("decision", 1);
        const ids = p.choices.map((c) => c.id);
        const keyboard = keyboardOf(p.choices, (c, i) => registry.data(token, choiceCode(c.id, i)));
        const buttons = keyboard.inline_keyboard.flat();
        expect(buttons).toHaveLength(p.choices.length);
        buttons.forEach((button, i) => {
          const data = (button as { callback_data: string }).callback_data;
          expect(Buffer.byteLength(data)).toBeLessThan(CALLBACK_DATA_MAX_BYTES);
          const decoded = decodeCallbackData(data);
          expect(decoded.ok && choiceFromCode(decoded.choice, ids)).toBe(ids[i]);
          expect(button.text.trim()).not.toBe("");
        });
      }),
      { numRuns: 150 },
    );
  });

  it("put short choices side by side and long ones on their own rows", () => {
    const keyboard = keyboardOf(
      [
        { id: "allow", label: "Allow", tone: "allow" },
        { id: "always", label: "Always allow in this session", tone: "allow" },
        { id: "deny", label: "Deny", tone: "deny" },
      ],
      (c) => c.id,
    );
    expect(keyboard.inline_keyboard.map((row) => row.map((b) => b.text))).toEqual([
      ["✅ Allow"],
      ["Always allow in this session"],
      ["❌ Deny"],
    ]);
    const plan = keyboardOf(
      [
        { id: "approve", label: "Approve", tone: "allow" },
        { id: "deny", label: "Deny", tone: "deny" },
        { id: "outline", label: "Pause & Outline", tone: "neutral" },
      ],
      (c) => c.id,
    );
    expect(plan.inline_keyboard.map((row) => row.length)).toEqual([3]);
  });
});

describe("a link to open", () => {
  const choices = [
    { id: "continue", label: "Continue", tone: "allow" },
    { id: "decline", label: "Decline", tone: "deny" },
  ] as const;

  it("comes first, as a button that opens it, above the choices", () => {
    const keyboard = keyboardOf(choices, (c) => c.id, "https://auth.acme.example/device?code=WXYZ");
    expect(keyboard.inline_keyboard).toEqual([
      [{ text: "🔗 Open the link", url: "https://auth.acme.example/device?code=WXYZ" }],
      [
        { text: "✅ Continue", callback_data: "continue" },
        { text: "❌ Decline", callback_data: "decline" },
      ],
    ]);
  });

  it("is no button where Telegram would refuse it or the phone could not open it", () => {
    const taken = ["https://a.example/x", "http://10.0.0.5:8080/ok", "https://auth.acme.example:8443/login?x=1"];
    const refused = [
      "http://localhost:8080/callback",
      "http://127.0.0.1:3000/",
      "http://app.localhost/",
      "http://[::1]:8080/",
      "http://intranet/login",
      "ftp://files.example/x",
      "javascript:alert(1)",
      "not a link",
      "",
    ];
    for (const url of taken) expect(linkButtonUrl(url)).toBe(url);
    for (const url of refused) expect(linkButtonUrl(url)).toBeUndefined();
    expect(keyboardOf(choices, (c) => c.id, "http://localhost:8080/callback").inline_keyboard.flat()).toHaveLength(2);
  });
});

describe("the Continue button of an interrupted run", () => {
  it("carries the run id itself, so it works after a restart", () => {
    for (let i = 0; i < 50; i++) {
      const runId = randomUUID();
      const data = (resumeKeyboard(runId)!.inline_keyboard[0]![0] as { callback_data: string }).callback_data;
      expect(Buffer.byteLength(data)).toBeLessThan(CALLBACK_DATA_MAX_BYTES);
      const decoded = decodeCallbackData(data);
      expect(decoded.ok && decoded.choice).toBe("resume");
      expect(decoded.ok && runIdFromToken(decoded.token)).toBe(runId);
    }
    expect(resumeKeyboard("not-a-uuid")).toBeUndefined();
  });
});

describe("button labels", () => {
  it("are never empty, even for a choice without a label", () => {
    const keyboard = keyboardOf(
      [
        { id: " ", label: "  ", tone: "neutral" },
        { id: "x", label: "", tone: "neutral" },
      ],
      (c) => c.id,
    );
    expect(keyboard.inline_keyboard.flat().map((b) => b.text)).toEqual(["•", "x"]);
  });
});
