// Every row of the decision table (docs/decisions.md), on requests the real CLI sent.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest, PermissionMode } from "../../src/domain/events.js";
import { armGate, disarmedGate, routeHousekeeping, routeToolRequest, type TableInput } from "../../src/policy/index.js";
import { fixtureRequest, fixtureRequests } from "./fixture-events.js";

const bash = fixtureRequest("c-control-bash-allow", "Bash");
const exitPlan = fixtureRequest("e-plan-exit-allow", "ExitPlanMode");
const question = fixtureRequest("g2-ask-user-question-answers", "AskUserQuestion");
const planModeWrite = fixtureRequest("own:plan-mode-write/plan-mode-write", "Write");
const planModeEdit = fixtureRequest("own:plan-mode-write/plan-mode-write", "Edit");

function req(
  toolName: string,
  input: Record<string, unknown> = {},
  extra: Partial<ApprovalRequest> = {},
): ApprovalRequest {
  return { requestId: `r-${toolName}`, toolName, input, permissionSuggestions: [], ...extra };
}

function route(request: ApprovalRequest, mode: PermissionMode, over: Partial<TableInput> = {}) {
  return routeToolRequest({
    request,
    mode,
    previewChanges: false,
    questionsEnabled: true,
    cliMode: mode === "plan-auto" ? "plan" : mode,
    unattended: false,
    planApprovedInRun: false,
    gate: disarmedGate,
    ...over,
  });
}

const autonomous: PermissionMode[] = ["plan", "plan-auto", "auto", "dontAsk", "bypassPermissions"];
const prompting: PermissionMode[] = ["default", "acceptEdits"];

describe("row 1: housekeeping is answered at once", () => {
  it.each(["initialize", "mcp_message", "rewind_files", "interrupt"])("%s gets an empty success", (subtype) => {
    expect(routeHousekeeping(subtype, undefined, new Set())).toEqual({ kind: "answer_now", response: {} });
  });
  it("a hook callback that is not ours gets the empty hook output without reading it", () => {
    expect(routeHousekeeping("hook_callback", "someone_elses", new Set(["telecode_loop"]))).toEqual({
      kind: "answer_now",
      response: {},
    });
  });
  it("our own hook callback goes to its owner", () => {
    expect(routeHousekeeping("hook_callback", "telecode_loop", new Set(["telecode_loop"]))).toEqual({
      kind: "own_hook",
    });
  });
  it("can_use_tool is not housekeeping", () => {
    expect(routeHousekeeping("can_use_tool", undefined, new Set()).kind).toBe("not_housekeeping");
  });
});

describe("row 2: unattended runs never wait", () => {
  it.each(prompting)("%s: a Bash approval is denied with 'nobody is available'", (mode) => {
    const r = route(bash, mode, { unattended: true });
    expect(r).toMatchObject({ kind: "deny", row: 2, reason: "unattended" });
    expect(r.kind === "deny" && r.message).toMatch(/Nobody is available.*unattended run/);
  });
  it("plan: ExitPlanMode is denied instead of waiting for the person", () => {
    expect(route(exitPlan, "plan", { unattended: true })).toMatchObject({ kind: "deny", row: 2, reason: "unattended" });
  });
  it("a question is denied with 'proceed with reasonable defaults'", () => {
    const r = route(question, "default", { unattended: true });
    expect(r.kind === "deny" && r.message).toMatch(/reasonable defaults/);
  });
  it("previews that would ask are denied too", () => {
    expect(route(bash, "auto", { unattended: true, previewChanges: true })).toMatchObject({ kind: "deny", row: 2 });
  });
  it("what needs nobody still happens: autonomous allows and plan-auto approval", () => {
    expect(route(bash, "auto", { unattended: true })).toEqual({ kind: "allow", row: 3 });
    expect(route(exitPlan, "plan-auto", { unattended: true }).kind).toBe("plan_auto_approve");
  });
});

describe("row 3: autonomous modes allow, with exceptions", () => {
  it.each(autonomous)("%s: an ordinary tool call is allowed", (mode) => {
    expect(route(bash, mode)).toEqual({ kind: "allow", row: 3 });
    expect(route(req("WebFetch", { url: "https://example.com" }), mode)).toEqual({ kind: "allow", row: 3 });
  });
  it.each(["plan", "auto", "dontAsk", "bypassPermissions"] as const)(
    "%s: ExitPlanMode goes to the plan prompt",
    (mode) => {
      expect(route(exitPlan, mode)).toEqual({ kind: "ask", row: 3, ask: "plan" });
    },
  );
  it("plan-auto: ExitPlanMode is approved without asking", () => {
    expect(route(exitPlan, "plan-auto")).toEqual({ kind: "plan_auto_approve", row: 3 });
  });
  it.each(autonomous)("%s: AskUserQuestion is asked", (mode) => {
    expect(route(question, mode)).toEqual({ kind: "ask", row: 3, ask: "question" });
  });
  it("questions off: AskUserQuestion is denied at once with reasonable defaults", () => {
    const r = route(question, "auto", { questionsEnabled: false });
    expect(r).toMatchObject({ kind: "deny", reason: "questions_off" });
    expect(r.kind === "deny" && r.message).toMatch(/proceed with reasonable defaults/);
  });
  it.each([
    ["Write", planModeWrite],
    ["Edit", planModeEdit],
  ] as const)(
    "plan mode: a %s the CLI asks for with decision_reason_type mode is denied, never allowed",
    (_name, request) => {
      expect(request.decisionReasonType).toBe("mode");
      for (const mode of ["plan", "plan-auto"] as const) {
        const r = route(request, mode);
        expect(r).toMatchObject({ kind: "deny", row: 3, reason: "plan_mode" });
        expect(r.kind === "deny" && r.message).toMatch(/still in plan mode.*ExitPlanMode/s);
      }
    },
  );
  it("plan mode: the CLI asks only for Write and Edit; it refuses the fixture's Bash call itself", () => {
    expect(
      fixtureRequests("own:plan-mode-write/plan-mode-write").map((r) => [r.toolName, r.decisionReasonType]),
    ).toEqual([
      ["Write", "mode"],
      ["Edit", "mode"],
    ]);
  });
  it("a mode refusal while the CLI is not in plan mode is asked, not allowed", () => {
    expect(route(planModeWrite, "auto", { cliMode: "auto" })).toEqual({ kind: "ask", row: 3, ask: "approval" });
    expect(route(planModeWrite, "plan", { cliMode: "default" })).toEqual({ kind: "ask", row: 3, ask: "approval" });
  });
  it("an unknown CLI mode in a plan chat counts as plan mode", () => {
    expect(route(planModeWrite, "plan", { cliMode: undefined })).toMatchObject({ kind: "deny", reason: "plan_mode" });
  });
  it.each(["Edit", "Write", "MultiEdit", "Bash"])("preview changes: %s is asked with a preview", (tool) => {
    expect(route(req(tool, { file_path: "a.ts", command: "ls" }), "auto", { previewChanges: true })).toEqual({
      kind: "ask",
      row: 3,
      ask: "preview",
    });
  });
  it("preview changes: other tools are still allowed", () => {
    expect(route(req("Read", { file_path: "a.ts" }), "auto", { previewChanges: true })).toEqual({
      kind: "allow",
      row: 3,
    });
  });
  it("preview changes: skipped for the rest of a run whose plan was approved", () => {
    expect(route(bash, "plan", { previewChanges: true, planApprovedInRun: true, cliMode: "default" })).toEqual({
      kind: "allow",
      row: 3,
    });
  });
});

describe("row 4: prompting modes ask for everything", () => {
  it.each(prompting)("%s: Bash, Write and an unknown tool are asked", (mode) => {
    expect(route(bash, mode)).toEqual({ kind: "ask", row: 4, ask: "approval" });
    expect(route(req("Write", { file_path: "x", content: "y" }), mode)).toEqual({
      kind: "ask",
      row: 4,
      ask: "approval",
    });
    expect(route(req("mcp__thing__do", { a: 1 }), mode)).toEqual({ kind: "ask", row: 4, ask: "approval" });
  });
  it.each(prompting)("%s: ExitPlanMode gets the plan prompt, AskUserQuestion the questions", (mode) => {
    expect(route(exitPlan, mode, { cliMode: "plan" })).toEqual({ kind: "ask", row: 4, ask: "plan" });
    expect(route(question, mode)).toEqual({ kind: "ask", row: 4, ask: "question" });
  });
  it("questions off applies here too", () => {
    expect(route(question, "default", { questionsEnabled: false })).toMatchObject({
      kind: "deny",
      row: 4,
      reason: "questions_off",
    });
  });
});

describe("the outline gate routes ExitPlanMode in any mode that asks", () => {
  it("armed and no outline yet: denied at once with the brief instruction", () => {
    const r = route(exitPlan, "plan", { gate: armGate(String(exitPlan.input["plan"])) });
    expect(r).toMatchObject({ kind: "deny", reason: "outline_gate" });
    expect(r.kind === "deny" && r.message).toMatch(/outline.*visible text/);
  });
  it("armed with enough text since: held behind the post-outline prompt", () => {
    const gate = { armed: true as const, textChars: 200, pausedPlan: "" };
    expect(route(exitPlan, "plan", { gate })).toEqual({ kind: "ask", row: 3, ask: "plan_after_outline" });
    expect(route(exitPlan, "default", { gate, cliMode: "plan" })).toEqual({
      kind: "ask",
      row: 4,
      ask: "plan_after_outline",
    });
  });
});
