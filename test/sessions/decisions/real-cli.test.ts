// The decision driver as the engine's controller, against the real CLI and the fake Messages
// API: plan approval and re-arm, Pause & Outline with the gate, questions answered by tap and by
// typed text, an approval withdrawn by an interrupt, an unattended run denied without waiting.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { SessionController } from "../../../src/claude/index.js";
import { createSystemClock } from "../../../src/ports/index.js";
import type { TelecodeEvent } from "../../../src/domain/events.js";
import type { DecisionSettings, PersonAnswer } from "../../../src/policy/index.js";
import {
  createDecisionDriver,
  createDecisionRegistry,
  type DecisionRegistry,
  type PendingDecisionView,
} from "../../../src/sessions/decisions/index.js";
import { COLOR_QUESTION, reply, type FakeReply } from "../../support/fake-anthropic/index.js";
import { makeHarness, type Harness } from "../../claude/harness.js";
import { lane, recordingPort } from "./fakes.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

/**
 * A session whose person answers each prompt with `person(view)` (asynchronously, like a tap
 * arriving later); undefined leaves the prompt open. `log` records, in order, the re-arm's
 * set_permission_mode, its ack, and each turn_finished the engine delivers.
 */
async function open(
  replies: FakeReply[],
  settings: Partial<DecisionSettings>,
  person: (view: PendingDecisionView, registry: DecisionRegistry) => PersonAnswer | undefined,
) {
  h = await makeHarness({ replies });
  const registry = createDecisionRegistry();
  const port = recordingPort((view) => {
    const answer = person(view, registry);
    if (answer) queueMicrotask(() => registry.answer(view.decisionId, answer));
  });
  const driver = createDecisionDriver({ lane: lane("chat"), settings, port, registry, clock: createSystemClock() });
  const log: string[] = [];
  const controller: SessionController = {
    observe(event) {
      if (event.type === "turn_finished") log.push("turn_finished");
      driver.observe(event);
    },
    decide: (request, ctx) => driver.decide(request, ctx),
    beforeTurnFinished: (ctx) =>
      driver.beforeTurnFinished({
        turn: ctx.turn,
        session: {
          async setPermissionMode(mode) {
            log.push(`set ${mode}`);
            await ctx.session.setPermissionMode(mode);
            log.push(`ack ${mode}`);
          },
        },
      }),
  };
  const { session, events } = h.open(
    { permissionMode: settings.mode === "plan-auto" ? "plan" : (settings.mode ?? "default") },
    controller,
  );
  return { harness: h, session, events, port, registry, driver, log };
}

const modes = (events: readonly TelecodeEvent[]): string[] =>
  events.flatMap((e) => (e.type === "mode_changed" ? [e.mode] : []));
const tap = (choiceId: string): PersonAnswer => ({ kind: "choice", choiceId, by: "ann" });
const outline = `Outline of the plan: ${"first I read app.js and find the log line, then I change it to print v2, then I run node app.js to check the output. ".repeat(2)}`;

describe("plan mode with the real CLI", () => {
  it("approve → the CLI switches to default → re-armed to plan before the turn closes; plan mode holds in the next run", async () => {
    const { harness, session, events, port, log } = await open(
      [
        reply.tool("ExitPlanMode", {}, "Here is my plan."),
        reply.text("Plan approved; starting."),
        reply.tool("Write", { file_path: "notes.md", content: "x\n" }),
        reply.text("Still planning."),
      ],
      { mode: "plan" },
      (view) => (view.prompt.kind === "plan" ? tap("approve") : undefined),
    );
    const first = await harness.run(session, events, "Plan a change");
    expect(first.ok).toBe(true);
    expect(port.outcomes.map((o) => o.outcome.summary)).toEqual(["Plan approved"]);
    // The approval put the CLI in default; the re-arm was acked before the turn was reported closed,
    // and the CLI's status line confirms plan mode.
    expect(log).toEqual(["set plan", "ack plan", "turn_finished"]);
    await events.waitFor((e) => e.type === "mode_changed" && e.mode === "plan");
    expect(modes(events.events)).toEqual(["default", "plan"]);

    await harness.run(session, events, "Next request");
    expect(harness.api.requests().at(-1)?.toolResults[0]?.text).toContain("You are still in plan mode");
    expect(existsSync(join(harness.ws.cwd, "notes.md"))).toBe(false);
  });

  it("Pause & Outline → a short text is auto-denied → a written outline is held → Approve Plan", async () => {
    const { harness, session, events, port } = await open(
      [
        reply.tool("ExitPlanMode", {}),
        reply.tool("ExitPlanMode", {}, "Short outline."),
        {
          kind: "message",
          blocks: [
            { type: "text", text: outline },
            { type: "tool_use", name: "ExitPlanMode", input: {} },
          ],
        },
        reply.text("Approved, working."),
      ],
      { mode: "plan" },
      (view) =>
        view.prompt.choices.some((c) => c.id === "outline")
          ? tap("outline")
          : view.prompt.kind === "plan"
            ? tap("approve")
            : undefined,
    );
    const done = await harness.run(session, events, "Plan a change");
    expect(done).toMatchObject({ ok: true, answer: "Approved, working." });
    expect(port.asks.map((a) => a.prompt.choices.map((c) => c.label).join("/"))).toEqual([
      "Approve/Deny/Pause & Outline",
      "Approve Plan/Deny/Let's discuss",
    ]);
    expect(port.infos.map((i) => i.info.kind)).toContain("auto_denied");
    const results = harness.api.requests().map((r) => r.toolResults[0]?.text ?? "");
    expect(results[1]).toContain("step-by-step outline");
    expect(results[2]).toContain("Write the step-by-step outline of your plan as visible text");
    expect(results[3]).toContain("User has approved");
  });
});

describe("questions with the real CLI", () => {
  const ask = reply.tool("AskUserQuestion", COLOR_QUESTION);

  it("an option tapped reaches the model as the answer", async () => {
    const { harness, session, events } = await open([ask, reply.text("Green it is.")], { mode: "default" }, () =>
      tap("q0:opt1"),
    );
    await harness.run(session, events, "Make a button");
    const result = harness.api.requests()[1]?.toolResults[0];
    expect(result).toMatchObject({ isError: false });
    expect(result?.text).toContain('"Which color should the button be?"="Green"');
  });

  it("a typed answer reaches the model the same way", async () => {
    const s = await open([ask, reply.text("Teal it is.")], { mode: "auto" }, (view, registry) => {
      if (!view.awaitingText) return tap("q0:type");
      queueMicrotask(() => registry.answerByText(lane("chat"), "teal, like the logo"));
      return undefined;
    });
    await s.harness.run(s.session, s.events, "Make a button");
    expect(s.harness.api.requests()[1]?.toolResults[0]?.text).toContain(
      '"Which color should the button be?"="teal, like the logo"',
    );
  });
});

describe("approvals with the real CLI", () => {
  it("'Always allow in this session' adds the CLI's rule for this session: the same command is not asked again", async () => {
    const { harness, session, events, port } = await open(
      [reply.bash("touch a.txt", "Create a"), reply.bash("touch a.txt", "Create a again"), reply.text("Done twice.")],
      { mode: "default" },
      () => tap("always"),
    );
    const done = await harness.run(session, events, "Create a twice");
    expect(done).toMatchObject({ ok: true, answer: "Done twice." });
    expect(port.asks).toHaveLength(1);
    expect(
      harness.api
        .requests()
        .slice(1)
        .map((r) => r.toolResults[0]?.isError),
    ).toEqual([false, false]);
    expect(existsSync(join(harness.ws.cwd, "a.txt"))).toBe(true);
    // The rule stayed in the session: nothing was written to the project's settings.
    expect(existsSync(join(harness.ws.cwd, ".claude", "settings.local.json"))).toBe(false);
  });
});

describe("withdrawal and unattended runs with the real CLI", () => {
  it("an interrupt withdraws the pending approval: the prompt settles and a late tap is 'no longer pending'", async () => {
    const { harness, session, events, port, registry } = await open(
      [reply.bash("touch should-not-exist.txt", "Create a file")],
      { mode: "default" },
      () => undefined,
    );
    const runId = await session.startRun("Create a file");
    await events.waitFor((e) => e.type === "approval_requested");
    const [view] = registry.pendingFor(lane("chat"));
    if (!view) throw new Error("the approval was not shown");
    await session.cancelRun(runId);
    await events.waitFor((e) => e.type === "run_completed");
    expect(port.outcomes).toEqual([
      {
        decisionId: view.decisionId,
        outcome: expect.objectContaining({ decision: "none", reason: "withdrawn" }) as unknown,
      },
    ]);
    expect(registry.answer(view.decisionId, tap("allow"))).toBe("no_longer_pending");
    expect(existsSync(join(harness.ws.cwd, "should-not-exist.txt"))).toBe(false);
  });

  it("an approval nobody answers is denied by the timeout while the CLI waits, and the model reads why", async () => {
    const { harness, session, events, port } = await open(
      [reply.bash("touch late.txt", "Create a file"), reply.text("Nobody answered, so I stopped.")],
      { mode: "default", approvalTimeoutMs: 300 },
      () => undefined,
    );
    const done = await harness.run(session, events, "Create a file");
    expect(done).toMatchObject({ ok: true, answer: "Nobody answered, so I stopped." });
    expect(port.asks).toHaveLength(1);
    expect(port.outcomes).toEqual([
      {
        decisionId: port.asks[0]?.decisionId,
        outcome: expect.objectContaining({ decision: "deny", reason: "timeout" }) as unknown,
      },
    ]);
    expect(harness.api.requests()[1]?.toolResults[0]).toMatchObject({
      isError: true,
      text: expect.stringContaining("did not answer in time") as unknown,
    });
    expect(existsSync(join(harness.ws.cwd, "late.txt"))).toBe(false);
  });

  it("an unattended run is denied without waiting for anyone", async () => {
    const { harness, session, events, port } = await open(
      [reply.bash("touch created.txt", "Create a file"), reply.text("Could not, nobody approved.")],
      { mode: "default" },
      () => tap("allow"),
    );
    const runId = await session.startRun("Create a file", { unattended: true });
    const done = await events.waitFor((e) => e.type === "run_completed" && e.runId === runId);
    expect(done).toMatchObject({ ok: true });
    expect(port.asks).toEqual([]);
    expect(harness.api.requests()[1]?.toolResults[0]).toMatchObject({
      isError: true,
      text: expect.stringContaining("unattended run") as unknown,
    });
    expect(existsSync(join(harness.ws.cwd, "created.txt"))).toBe(false);
  });
});
