// An MCP server's question (elicitation) through the session machine: a form's fields read from
// its schema and asked one by one, typed values checked and typed as the schema says, Skip and
// Decline, a link to open; asked in every mode, cancelled when nobody is there or in time.
import { describe, expect, it } from "vitest";
import { ELICITATION_TOOL, type ApprovalRequest } from "../../src/domain/index.js";
import { parseElicitation, typedValue, type ElicitationField } from "../../src/policy/index.js";
import { asked, effectTypes, machine, responded } from "./machine-harness.js";

/** The request as the translator makes it from the CLI's `elicitation` control request. */
function elicitation(input: Record<string, unknown>, requestId = "el-1"): ApprovalRequest {
  return {
    requestId,
    toolName: ELICITATION_TOOL,
    input: { mcp_server_name: "ops", ...input },
    permissionSuggestions: [],
  };
}

const deploy = elicitation({
  message: "Where should I deploy v2.3?",
  mode: "form",
  requested_schema: {
    type: "object",
    properties: {
      notify: { type: "boolean", title: "Notify the team" },
      target: { type: "string", title: "Environment", enum: ["staging", "prod"], enumNames: ["Staging", "Production"] },
      replicas: { type: "integer", minimum: 1, maximum: 10 },
      regions: {
        type: "array",
        items: {
          anyOf: [
            { const: "eu", title: "Europe" },
            { const: "us", title: "America" },
          ],
        },
      },
      contact: { type: "string", format: "email", description: "Who to page" },
    },
    required: ["target", "replicas", "regions"],
  },
  // The order the server listed its properties in (the CLI passes it on).
  property_order: ["target", "replicas", "regions", "notify", "contact"],
});

/** The text of the prompt's question. */
const question = (step: ReturnType<ReturnType<typeof machine>["tap"]>): string | undefined => {
  const section = asked(step)?.sections[0];
  return section?.kind === "text" ? section.text : undefined;
};

const labels = (step: ReturnType<ReturnType<typeof machine>["tap"]>): string[] | undefined =>
  asked(step)?.choices.map((c) => c.label);

describe("parseElicitation", () => {
  it("reads a form's fields in the server's order, with their kinds, labels and limits", () => {
    const asked = parseElicitation(deploy.input);
    expect(asked).toMatchObject({ server: "ops", message: "Where should I deploy v2.3?", mode: "form" });
    expect(asked.fields.map((f) => [f.name, f.kind, f.label, f.required])).toEqual([
      ["target", "one_of", "Environment", true],
      ["replicas", "integer", "replicas", true],
      ["regions", "some_of", "regions", true],
      ["notify", "yes_no", "Notify the team", false],
      ["contact", "text", "contact", false],
    ]);
    expect(asked.fields[0]?.options).toEqual([
      { value: "staging", label: "Staging" },
      { value: "prod", label: "Production" },
    ]);
    expect(asked.fields[1]).toMatchObject({ minimum: 1, maximum: 10 });
    expect(asked.fields[2]?.options.map((o) => o.label)).toEqual(["Europe", "America"]);
    expect(asked.fields[4]).toMatchObject({ format: "email", description: "Who to page" });
  });

  it("names the server by its display name when it has one, and reads a link to open", () => {
    const link = parseElicitation({
      mcp_server_name: "acme",
      display_name: "Acme Cloud",
      mode: "url",
      url: "https://a.example/x",
      message: "Sign in",
    });
    expect(link).toEqual({
      server: "Acme Cloud",
      message: "Sign in",
      mode: "url",
      url: "https://a.example/x",
      fields: [],
    });
  });

  it("never throws on what a server sends: no schema, odd properties, no names", () => {
    expect(parseElicitation({})).toEqual({ server: "An MCP server", message: "", mode: "form", fields: [] });
    const odd = parseElicitation({ requested_schema: { properties: { a: 5, b: { type: "object" } }, required: "a" } });
    expect(odd.fields.map((f) => [f.name, f.kind, f.required])).toEqual([
      ["a", "text", false],
      ["b", "text", false],
    ]);
  });
});

describe("typedValue", () => {
  const field = (more: Partial<ElicitationField>): ElicitationField => ({
    name: "x",
    label: "Port",
    required: true,
    kind: "text",
    options: [],
    ...more,
  });

  it("types numbers as the schema says and keeps them within its bounds", () => {
    expect(typedValue(field({ kind: "integer", minimum: 1024 }), " 8080 ")).toEqual({ value: 8080 });
    expect(typedValue(field({ kind: "number" }), "2,5")).toEqual({ value: 2.5 });
    expect(typedValue(field({ kind: "integer" }), "2.5")).toEqual({ wrong: "Port needs a whole number." });
    expect(typedValue(field({ kind: "integer", minimum: 1024 }), "80")).toEqual({
      wrong: "Port needs a number of at least 1024.",
    });
    expect(typedValue(field({ kind: "number" }), "eighty")).toEqual({ wrong: "Port needs a number." });
  });

  it("checks a text's length and format", () => {
    expect(typedValue(field({ format: "email" }), "ann@example.com")).toEqual({ value: "ann@example.com" });
    expect(typedValue(field({ format: "email" }), "ann")).toEqual({ wrong: "Port needs an email address." });
    expect(typedValue(field({ format: "date" }), "7 Dec")).toEqual({ wrong: "Port needs a date as YYYY-MM-DD." });
    expect(typedValue(field({ format: "uri" }), "https://example.com/a")).toEqual({ value: "https://example.com/a" });
    expect(typedValue(field({ maxLength: 3 }), "abcd")).toEqual({ wrong: "Port takes at most 3 characters." });
    expect(typedValue(field({}), "  ")).toEqual({ wrong: "An empty answer does not count; type some text." });
  });
});

describe("a form, field by field", () => {
  it("asks each field with what it takes, and sends the values typed as the schema says", () => {
    const m = machine({ mode: "default" });
    const first = asked(m.request(deploy));
    expect(first).toMatchObject({ kind: "question", title: "ops asks · 1 of 5", step: { index: 0, count: 5 } });
    expect(first?.sections).toEqual([{ kind: "text", text: "Where should I deploy v2.3?\n\nEnvironment" }]);
    expect(first?.choices.map((c) => c.label)).toEqual(["Staging", "Production", "Decline"]);

    const replicas = m.tap(deploy.requestId, "e0:opt1");
    expect(asked(replicas)?.sections[0]).toEqual({
      kind: "text",
      text: "Where should I deploy v2.3?\n\nreplicas (a whole number from 1 to 10)",
    });
    expect(labels(replicas)).toEqual(["Type an answer", "Decline"]);
    expect(asked(m.answer(deploy.requestId, { kind: "text", text: "11" }))?.caption).toBe(
      "replicas needs a number of at most 10.",
    );
    const regions = m.answer(deploy.requestId, { kind: "text", text: "4" });
    expect(labels(regions)).toEqual(["☐ Europe", "☐ America", "Done (0 selected)", "Decline"]);
    expect(asked(m.tap(deploy.requestId, "e2:done"))?.caption).toBe("Pick at least one, then Done.");
    expect(labels(m.tap(deploy.requestId, "e2:opt1"))).toEqual([
      "☐ Europe",
      "☑ America",
      "Done (1 selected)",
      "Decline",
    ]);
    const notify = m.tap(deploy.requestId, "e2:done");
    expect(question(notify)).toMatch(/Notify the team \(optional\)$/);
    expect(labels(notify)).toEqual(["Yes", "No", "Skip", "Decline"]);
    const contact = m.answer(deploy.requestId, { kind: "text", text: "yes" });
    expect(question(contact)).toMatch(/contact: Who to page \(an email address, optional\)$/);
    // A tap on an earlier field's button does nothing.
    expect(m.tap(deploy.requestId, "e0:opt0").verdict).toBe("already_answered");
    const done = m.tap(deploy.requestId, "e4:skip");
    expect(responded(done)).toEqual({
      behavior: "allow",
      updatedInput: { action: "accept", content: { target: "prod", replicas: 4, regions: ["us"], notify: true } },
      decisionClassification: "user_temporary",
    });
    expect(done.effects.find((e) => e.type === "settle")).toMatchObject({
      outcome: {
        decision: "allow",
        summary: "Sent Environment: Production · replicas: 4 · regions: America · Notify the team: Yes · contact: —",
      },
    });
  });

  it("takes a typed label for a list, and says to use the buttons for anything else", () => {
    const m = machine();
    m.request(deploy);
    expect(asked(m.answer(deploy.requestId, { kind: "text", text: "moon" }))?.caption).toBe(
      "Pick Environment with the buttons.",
    );
    expect(asked(m.answer(deploy.requestId, { kind: "text", text: "production" }))?.title).toBe("ops asks · 2 of 5");
  });

  it("Decline tells the server the person said no", () => {
    const m = machine();
    m.request(deploy);
    const step = m.tap(deploy.requestId, "decline");
    expect(responded(step)).toMatchObject({ behavior: "deny", declined: true });
    expect(step.effects.find((e) => e.type === "settle")).toMatchObject({
      outcome: { decision: "deny", reason: "person", summary: "Declined" },
    });
  });

  it("a form with no fields asks to go ahead", () => {
    const m = machine();
    const step = m.request(elicitation({ message: "Deploy now?", requested_schema: { type: "object" } }));
    expect(question(step)).toBe("Deploy now?");
    expect(asked(step)?.choices.map((c) => c.label)).toEqual(["Continue", "Decline"]);
    expect(responded(m.tap("el-1", "send"))).toMatchObject({
      behavior: "allow",
      updatedInput: { action: "accept", content: {} },
    });
  });
});

describe("a link to open", () => {
  const signIn = elicitation({
    mode: "url",
    message: "Sign in to Acme Cloud.",
    url: "https://auth.acme.example/device?code=WXYZ",
    elicitation_id: "s-1",
  });

  it("shows the link with Continue and Decline; Continue accepts", () => {
    const m = machine();
    const prompt = asked(m.request(signIn));
    expect(prompt).toMatchObject({
      kind: "question",
      title: "ops asks you to open a link",
      sections: [{ kind: "text", text: "Sign in to Acme Cloud.\n\nhttps://auth.acme.example/device?code=WXYZ" }],
      caption: "Open the link to do what ops asks there, then tap Continue.",
      link: "https://auth.acme.example/device?code=WXYZ",
    });
    expect(asked(m.answer(signIn.requestId, { kind: "text", text: "done" }))?.caption).toBe(
      "Tap Continue once you have opened the link, or Decline.",
    );
    expect(responded(m.tap(signIn.requestId, "continue"))).toMatchObject({
      behavior: "allow",
      updatedInput: { action: "accept" },
    });
  });

  it("says where a link to the computer itself opens, as the phone cannot open it", () => {
    for (const url of ["http://localhost:8765/consent", "http://127.0.0.1:8765/consent", "http://[::1]:8765/"]) {
      const prompt = asked(
        machine().request(elicitation({ mode: "url", message: "Consent.", url, elicitation_id: "l" })),
      );
      expect(prompt?.caption).toBe(
        "The link opens on the computer Telecode runs on, not on a phone: open it there to do what ops asks, then tap Continue.",
      );
      expect(prompt?.link).toBe(url);
    }
    // A name that only begins like a loopback address is a web host like any other.
    const named = asked(
      machine().request(
        elicitation({ mode: "url", message: "Consent.", url: "https://127.example.com/x", elicitation_id: "w" }),
      ),
    );
    expect(named?.caption).toBe("Open the link to do what ops asks there, then tap Continue.");
    const none = asked(machine().request(elicitation({ mode: "url", message: "Consent.", elicitation_id: "n" })));
    expect(none?.link).toBeUndefined();
    expect(none?.sections).toEqual([{ kind: "text", text: "Consent.\n\n(the server sent no link)" }]);
  });
});

describe("when it is asked", () => {
  it("in every mode, even one that allows every tool: only the person has the answer", () => {
    for (const mode of ["bypassPermissions", "auto", "dontAsk", "acceptEdits", "plan"] as const)
      expect(effectTypes(machine({ mode }).request(deploy))).toContain("askPerson");
  });

  it("unattended (a schedule, a webhook), nobody is there: it is not declined for them, but cancelled", () => {
    const step = machine({ mode: "bypassPermissions" }).request(deploy, { run: { id: "r1", unattended: true } });
    expect(effectTypes(step)).toEqual(["respond"]);
    expect(responded(step)).toMatchObject({ behavior: "deny" });
    expect(responded(step)).not.toHaveProperty("declined");
  });

  it("no answer in time: cancelled, not declined", () => {
    const m = machine({ approvalTimeoutMs: 60_000 });
    m.request(deploy);
    const step = m.step({ type: "timeout", decisionId: deploy.requestId });
    expect(responded(step)).toMatchObject({ behavior: "deny" });
    expect(responded(step)).not.toHaveProperty("declined");
  });
});
