// Claude Code keeps its own record of each permission decision and who made it (the `source` of
// its OpenTelemetry `tool_decision` event, which teams collect to see how their agents are
// supervised). Telecode tells it who decided: a person once, a person for the rest of the
// session, a person's no, or the chat's settings with no one asked. Claude Code's telemetry is on here, exported to a local collector
// through `claude.env_allow`, as docs/configuration.md shows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { startOtelCollector, type OtelCollector } from "../support/otel-collector.js";
import { isAnswer, runPlanAuto, startRig, type Rig, withButton } from "../telegram/bridge/rig.js";

let rig: Rig;
let otel: OtelCollector;
beforeAll(async () => {
  otel = await startOtelCollector();
  rig = await startRig({
    env: otel.env,
    claude: [`env_allow = ${JSON.stringify(Object.keys(otel.env).filter((name) => name.startsWith("OTEL_")))}`],
  });
});
afterAll(async () => {
  await rig?.dispose();
  await otel?.close();
});

/** Runs a Bash call to its answer, tapping `label` on its approval; returns Claude Code's record of the decision. */
async function decide(chat: number, tag: string, label: string) {
  rig.script(`[${tag}]`, [reply.bash(`touch ${tag}.txt`, "Create a file"), reply.text(`Answered ${tag}.`)]);
  rig.tg.sendText(chat, `Create the file [${tag}]`);
  const prompt = await rig.botMessage(chat, withButton(label));
  rig.tg.tapButton(chat, prompt.messageId, label);
  await rig.botMessage(chat, isAnswer(`Answered ${tag}.`));
  return recordOf(tag);
}

/** Claude Code's record of the decision on the one tool call of the run tagged `tag`. */
function recordOf(tag: string) {
  const toolUseId = rig.api.requests(`[${tag}]`)[1]?.toolResults[0]?.toolUseId;
  expect(toolUseId).toBeDefined();
  return rig.tg.waitFor(() => otel.toolDecisions().find((d) => d.toolUseId === toolUseId), {
    what: `Claude Code's tool_decision for [${tag}]`,
  });
}

describe("Claude Code's record of who decided", () => {
  it("reads a person's Allow as allowed once", async () => {
    const record = await decide(rig.user(1001), "record-once", "✅ Allow");
    expect(record).toMatchObject({ toolName: "Bash", decision: "accept", source: "user_temporary" });
  });

  it("reads a person's Always allow as allowed for good, though its rule lasts the session", async () => {
    // Left to itself, Claude Code reads a rule kept for the session only as "temporary".
    const record = await decide(rig.user(1002), "record-always", "Always allow in this session");
    expect(record).toMatchObject({ toolName: "Bash", decision: "accept", source: "user_permanent" });
  });

  it("reads a person's Deny as the person's no", async () => {
    const record = await decide(rig.user(1003), "record-deny", "❌ Deny");
    expect(record).toMatchObject({ toolName: "Bash", decision: "reject", source: "user_reject" });
  });

  it("reads what the chat's settings decided, with no one asked, as configuration", async () => {
    // plan-auto approves the plan itself; Claude Code before 2.1.337 wrote that down as a person's yes.
    await runPlanAuto(rig, rig.user(1004), "[record-config]", "Answered record-config.");
    expect(await recordOf("record-config")).toMatchObject({
      toolName: "ExitPlanMode",
      decision: "accept",
      source: "config",
    });
  });
});
