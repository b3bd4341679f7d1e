// Every transition of the plan machine: approve, deny, typed reply, Pause & Outline → short
// text → auto-deny → long text → held → approve / deny / discuss; plan-auto; the caption.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/domain/events.js";
import {
  discussPlanMessage,
  outlineRequestedMessage,
  outlineStillMissingMessage,
  planApprovalCaption,
  planDeniedMessage,
} from "../../src/policy/index.js";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fixtureEvents, fixtureRequest, fixtureRequests } from "./fixture-events.js";
import { asked, effectTypes, informed, machine, responded, text } from "./machine-harness.js";

const exitPlan = fixtureRequest("e-plan-exit-allow", "ExitPlanMode");
const run = { id: "run-1", unattended: false };
const again = (r: ApprovalRequest, id: string, input?: Record<string, unknown>): ApprovalRequest => ({
  ...r,
  requestId: id,
  input: input ?? r.input,
});

/** The answer the recording of fixture e wrote to the CLI for the approval (its transcript). */
function recordedAllow(): unknown {
  const transcript = readFileSync(
    fileURLToPath(
      new URL("../golden/fixtures/claude-code-2.1.332/e-plan-exit-allow.transcript.jsonl", import.meta.url),
    ),
    "utf8",
  );
  const written = transcript
    .split("\n")
    .filter((l) => l.includes('"dir":"in"'))
    .map((l) => JSON.parse((JSON.parse(l) as { line: string }).line) as Record<string, unknown>);
  const answer = written.find((w) => w["type"] === "control_response") as
    { response: { response: unknown } } | undefined;
  return answer?.response.response;
}

describe("ExitPlanMode in plan mode", () => {
  it("asks with the plan text and Approve / Deny / Pause & Outline", () => {
    const m = machine({ mode: "plan" });
    const prompt = asked(m.request(exitPlan, { run }));
    expect(prompt?.kind).toBe("plan");
    expect(prompt?.sections[0]).toEqual({ kind: "markdown", text: exitPlan.input["plan"] });
    expect(prompt?.sections[1]).toMatchObject({
      kind: "fields",
      fields: [{ name: "plan file", value: exitPlan.input["planFilePath"] }],
    });
    expect(prompt?.choices.map((c) => c.label)).toEqual(["Approve", "Deny", "Pause & Outline"]);
  });

  it("Approve allows with the input unchanged (as in fixture e), skips the run's previews and starts the re-arm", () => {
    const m = machine({ mode: "plan" });
    m.observe({ type: "turn_started", sessionId: "s", turn: 3, origin: "person" });
    m.request(exitPlan, { run, nowMs: 1000 });
    const step = m.answer(exitPlan.requestId, { kind: "choice", choiceId: "approve", by: "ann" }, 2500);
    expect(step.verdict).toBe("accepted");
    // As recorded, and said to be a person's.
    expect(responded(step)).toEqual({ ...(recordedAllow() as object), decisionClassification: "user_temporary" });
    expect(step.effects.find((e) => e.type === "settle")).toMatchObject({
      outcome: { decision: "allow", summary: "Plan approved", by: "ann" },
    });
    expect(m.state.previewSkipRunId).toBe("run-1");
    expect(m.state.rearm).toMatchObject({ approvalTurn: 3, approvedAtMs: 2500 });
    expect(m.state.pending.size).toBe(0);
  });

  it("Deny keeps plan mode and tells the model to ask what to change", () => {
    const m = machine({ mode: "plan" });
    m.request(exitPlan, { run });
    expect(responded(m.tap(exitPlan.requestId, "deny"))).toEqual({
      behavior: "deny",
      message: planDeniedMessage,
      decisionClassification: "user_reject",
    });
    expect(m.state.gate.armed).toBe(false);
    expect(m.state.rearm.approvalTurn).toBeUndefined();
  });

  it("a typed reply denies with the person's words", () => {
    const m = machine({ mode: "plan" });
    m.request(exitPlan, { run });
    const step = m.answer(exitPlan.requestId, { kind: "text", text: "also update the README" });
    const answer = responded(step);
    expect(answer?.behavior).toBe("deny");
    expect(answer?.behavior === "deny" && answer.message).toContain('The person replied: "also update the README"');
  });

  it("Pause & Outline → short text → auto-deny → long text → held → Approve Plan", () => {
    const m = machine({ mode: "plan" });
    m.request(exitPlan, { run });
    const outline = m.tap(exitPlan.requestId, "outline");
    expect(responded(outline)).toEqual({
      behavior: "deny",
      message: outlineRequestedMessage,
      decisionClassification: "user_reject",
    });
    expect(m.state.gate).toEqual({ armed: true, textChars: 0, pausedPlan: exitPlan.input["plan"] });

    m.observe(text("x".repeat(120)), text("y".repeat(100), "toolu_subagent"));
    const early = m.request(again(exitPlan, "r2"), { run });
    // The outline gate, not a person, sends the plan back.
    expect(responded(early)).toEqual({
      behavior: "deny",
      message: outlineStillMissingMessage,
      decisionClassification: "config",
    });
    expect(effectTypes(early)).toEqual(["respond", "inform"]);
    expect(informed(early)[0]?.kind).toBe("auto_denied");
    expect(m.state.pending.size).toBe(0);

    m.observe(text("z".repeat(80)));
    const held = m.request(again(exitPlan, "r3"), { run });
    expect(responded(held)).toBeUndefined();
    expect(asked(held)?.choices.map((c) => c.label)).toEqual(["Approve Plan", "Deny", "Let's discuss"]);

    const approve = m.tap("r3", "approve");
    expect(responded(approve)).toMatchObject({ behavior: "allow", decisionClassification: "user_temporary" });
    expect(m.state.gate.armed).toBe(false);
  });

  it.each([
    ["deny", planDeniedMessage],
    ["discuss", discussPlanMessage],
  ])("held after the outline: %s denies and disarms the gate", (choice, message) => {
    const m = machine({ mode: "plan" });
    m.request(exitPlan, { run });
    m.tap(exitPlan.requestId, "outline");
    m.observe(text("o".repeat(200)));
    m.request(again(exitPlan, "r2"), { run });
    expect(responded(m.tap("r2", choice))).toEqual({
      behavior: "deny",
      message,
      decisionClassification: "user_reject",
    });
    expect(m.state.gate.armed).toBe(false);
    // The next ExitPlanMode gets the ordinary prompt again.
    expect(asked(m.request(again(exitPlan, "r3"), { run }))?.choices.map((c) => c.id)).toEqual([
      "approve",
      "deny",
      "outline",
    ]);
  });

  it("a new plan of 200+ characters passes the gate without text; the paused plan again does not", () => {
    const m = machine({ mode: "plan" });
    const longPlan = `# Plan\n\n${"1. step with details\n".repeat(12)}`;
    const first = again(exitPlan, "r1", { ...exitPlan.input, plan: longPlan });
    m.request(first, { run });
    m.tap("r1", "outline");
    expect(responded(m.request(again(first, "r2"), { run }))?.behavior).toBe("deny");
    const revised = again(first, "r3", { ...first.input, plan: `${longPlan}\n2. and a check` });
    expect(asked(m.request(revised, { run }))?.title).toContain("outline");
  });

  it("a choice the prompt does not offer changes nothing", () => {
    const m = machine({ mode: "plan" });
    m.request(exitPlan, { run });
    const step = m.tap(exitPlan.requestId, "discuss");
    expect(step.verdict).toBe("not_a_choice");
    expect(step.effects).toEqual([]);
    expect(m.state.pending.size).toBe(1);
  });

  it("fixture f replayed with Pause & Outline: the model's short outline does not pass the gate", () => {
    const m = machine({ mode: "plan" });
    const [first, second] = fixtureRequests("f-plan-exit-deny-then-allow");
    if (!first || !second) throw new Error("fixture f has two ExitPlanMode requests");
    const seen: string[] = [];
    for (const event of fixtureEvents("f-plan-exit-deny-then-allow")) {
      if (event.type === "approval_requested") {
        const step = m.request(event.request, { run });
        seen.push(asked(step) ? "asked" : `auto ${responded(step)?.behavior}`);
        if (event.request.requestId === first.requestId) m.tap(first.requestId, "outline");
      } else {
        m.observe(event);
      }
    }
    expect(seen).toEqual(["asked", "auto deny"]);
  });
});

describe("plan-auto", () => {
  it("approves ExitPlanMode without asking and shows the plan as information", () => {
    const m = machine({ mode: "plan-auto" });
    const step = m.request(exitPlan, { run, nowMs: 5 });
    expect(asked(step)).toBeUndefined();
    // Decided by the chat's mode: no person was asked.
    expect(responded(step)).toEqual({
      behavior: "allow",
      updatedInput: exitPlan.input,
      decisionClassification: "config",
    });
    const [info] = informed(step);
    expect(info?.kind).toBe("plan_auto_approved");
    expect(info?.sections[0]).toEqual({ kind: "markdown", text: exitPlan.input["plan"] });
    expect(m.state.rearm.approvedAtMs).toBe(5);
  });
});

describe("the caption says what approving does, only as far as it is true", () => {
  it("plan chat with re-arm: plan mode comes back", () => {
    expect(planApprovalCaption({ chatMode: "plan", rearmEnabled: true, agentsDeferringRearm: 0 })).toMatch(
      /Plan mode comes back when this request's work ends/,
    );
  });
  it("re-arm off: says plan mode does not come back", () => {
    const c = planApprovalCaption({ chatMode: "plan", rearmEnabled: false, agentsDeferringRearm: 0 });
    expect(c).toMatch(/does not come back/);
    expect(c).not.toMatch(/comes back when/);
  });
  it("re-arm deferred by earlier agents: says it waits for them", () => {
    expect(planApprovalCaption({ chatMode: "plan", rearmEnabled: true, agentsDeferringRearm: 2 })).toMatch(
      /after .* background agents still running from the earlier plan/,
    );
  });
  it("a default-mode chat: no promise about plan mode at all", () => {
    expect(planApprovalCaption({ chatMode: "default", rearmEnabled: true, agentsDeferringRearm: 0 })).not.toMatch(
      /Plan mode/,
    );
  });
  it("the prompt carries the caption for the chat's settings", () => {
    const m = machine({ mode: "plan", rearmPlanMode: false });
    expect(asked(m.request(exitPlan, { run }))?.caption).toMatch(/re-arming is turned off/);
  });
});

describe("contract", () => {
  it("opening a decision id that is already open is a bug and throws", () => {
    const m = machine({ mode: "plan" });
    m.request(exitPlan, { run });
    expect(() => m.request(exitPlan, { run })).toThrow(
      expect.objectContaining({ code: "policy.duplicate_decision" }) as Error,
    );
  });
  it("after the session ended a request is answered at once", () => {
    const m = machine({ mode: "plan" });
    m.step({ type: "session_ended" });
    expect(responded(m.request(exitPlan, { run }))?.behavior).toBe("deny");
  });
});
