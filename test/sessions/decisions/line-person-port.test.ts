// The line-based person port (terminal): prompts as numbered lines, a typed number or label
// answers, other text is a typed reply, "Type an answer" then takes the next line.
import { describe, expect, it } from "vitest";
import {
  createDecisionDriver,
  createDecisionRegistry,
  createLinePersonPort,
} from "../../../src/sessions/decisions/index.js";
import { fixtureRequest } from "../../policy/fixture-events.js";
import { createFakeClock } from "../../support/fake-clock.js";
import { lane } from "./fakes.js";

const bash = fixtureRequest("c-control-bash-allow", "Bash");
const exitPlan = fixtureRequest("e-plan-exit-allow", "ExitPlanMode");
const question = fixtureRequest("g2-ask-user-question-answers", "AskUserQuestion");

function setup(mode: "default" | "plan" = "default") {
  const out: string[] = [];
  const registry = createDecisionRegistry();
  const lines = createLinePersonPort({ write: (l) => out.push(l), answers: registry, by: "dev" });
  const driver = createDecisionDriver({
    lane: lane("term"),
    settings: { mode },
    port: lines.port,
    registry,
    clock: createFakeClock(),
  });
  const decide = (r: typeof bash) =>
    driver.decide(r, { signal: new AbortController().signal, run: { id: "run", unattended: false } });
  return { out, lines, decide };
}

describe("line person port", () => {
  it("prints the approval with numbered choices; '1' allows and the outcome is printed", async () => {
    const { out, lines, decide } = setup();
    const answer = decide(bash);
    expect(out).toContain("? Allow Bash?");
    expect(out).toContain("  $ touch created-by-test.txt && echo made");
    expect(out).toContain("  [3] Deny");
    expect(lines.submitLine("1")).toEqual({ kind: "answered", verdict: "accepted" });
    await expect(answer).resolves.toMatchObject({ behavior: "allow", by: "dev" });
    expect(out.at(-1)).toBe("→ Allowed (dev)");
    expect(lines.submitLine("hello")).toEqual({ kind: "no_pending" });
  });

  it("free text is a typed reply; an empty line shows the prompt again", async () => {
    const { lines, decide } = setup();
    const answer = decide(bash);
    expect(lines.submitLine("  ")).toEqual({ kind: "reprompted" });
    lines.submitLine("no, use pnpm");
    const result = await answer;
    expect(result.behavior === "deny" && result.message).toContain('"no, use pnpm"');
  });

  it("a question: 'Type an answer' by number, then the next line is the answer", async () => {
    const { out, lines, decide } = setup();
    const answer = decide(question);
    lines.submitLine("3");
    expect(out.at(-1)).toBe("Type your answer and press Enter:");
    lines.submitLine("teal");
    await expect(answer).resolves.toMatchObject({
      updatedInput: { answers: { "Which color should the button be?": "teal" } },
    });
  });

  it("the plan flow by label: Pause & Outline, then the held prompt's Approve Plan", async () => {
    const { out, lines, decide } = setup("plan");
    const first = decide(exitPlan);
    lines.submitLine("pause & outline");
    await expect(first).resolves.toMatchObject({ behavior: "deny" });
    const held = decide({
      ...exitPlan,
      requestId: "r2",
      input: { ...exitPlan.input, plan: `${"A long written plan line.\n".repeat(10)}` },
    });
    expect(out).toContain("  [3] Let's discuss");
    lines.submitLine("Approve Plan");
    await expect(held).resolves.toMatchObject({ behavior: "allow" });
  });
});
