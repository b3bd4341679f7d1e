// An MCP server's question through the engine and the real CLI: a project MCP server
// (test/support/fake-mcp) asks before its tool acts; Claude Code sends an `elicitation` control
// request, which reaches the controller as a decision under the name no tool has, and its answer
// goes back to the server: the values, a no, or, when nobody could say, a cancel.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { allowAllController, askController } from "../../src/claude/index.js";
import { elicitationAnswer } from "../../src/claude/incoming-requests.js";
import { ELICITATION_TOOL, type ApprovalRequest } from "../../src/domain/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { makeHarness, type Harness } from "./harness.js";

let h: Harness | undefined;
afterEach(async () => {
  await h?.dispose();
  h = undefined;
});

const ASK = {
  message: "Which environment?",
  requestedSchema: { type: "object", properties: { target: { type: "string", enum: ["staging", "production"] } } },
};

/** A harness whose project runs the asking MCP server as `ops`. */
async function withAskingServer(): Promise<Harness> {
  const harness = await makeHarness();
  const server = { command: process.execPath, args: [resolve("test/support/fake-mcp/asking-server.js")] };
  writeFileSync(join(harness.ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { ops: server } }));
  mkdirSync(join(harness.ws.cwd, ".claude"));
  writeFileSync(join(harness.ws.cwd, ".claude/settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
  harness.api.script([reply.tool("mcp__ops__deploy", { ask: ASK }), reply.text("done")], "[ask]");
  return harness;
}

/** What the MCP server got back, as its tool returned it to the model. */
const serverGot = (harness: Harness): unknown =>
  JSON.parse(harness.api.requests("[ask]")[1]?.toolResults[0]?.text ?? "null");

describe("an MCP server's question", () => {
  it("reaches the controller as a decision, and the values it gives reach the server", async () => {
    h = await withAskingServer();
    const seen: ApprovalRequest[] = [];
    const controller = askController((request) => {
      seen.push(request);
      if (request.toolName !== ELICITATION_TOOL)
        return Promise.resolve({ behavior: "allow", updatedInput: { ...request.input } });
      return Promise.resolve({ behavior: "allow", updatedInput: { action: "accept", content: { target: "staging" } } });
    });
    const { session, events } = h.open({}, controller);
    const done = await h.run(session, events, "Deploy [ask]");
    expect(done).toMatchObject({ ok: true, answer: "done" });
    const question = seen.find((r) => r.toolName === ELICITATION_TOOL);
    expect(question?.input).toMatchObject({ mcp_server_name: "ops", message: "Which environment?", mode: "form" });
    expect(question?.input["requested_schema"]).toEqual(ASK.requestedSchema);
    expect(serverGot(h)).toEqual({ action: "accept", content: { target: "staging" } });
    expect(events.events).toContainEqual({
      type: "approval_resolved",
      requestId: question?.requestId,
      decision: "allow",
      by: "controller",
    });
  });

  it("is cancelled, not answered with made-up values, by a controller that allows everything", async () => {
    h = await withAskingServer();
    const { session, events } = h.open({}, allowAllController());
    await h.run(session, events, "Deploy [ask]");
    expect(serverGot(h)).toEqual({ action: "cancel" });
  });
});

describe("elicitationAnswer", () => {
  it("accepts only what says so; a person's no declines; anything else cancels", () => {
    expect(elicitationAnswer({ behavior: "allow", updatedInput: { action: "accept", content: { n: 2 } } })).toEqual({
      action: "accept",
      content: { n: 2 },
    });
    expect(elicitationAnswer({ behavior: "allow", updatedInput: { action: "accept" } })).toEqual({ action: "accept" });
    expect(elicitationAnswer({ behavior: "allow", updatedInput: { mcp_server_name: "ops" } })).toEqual({
      action: "cancel",
    });
    expect(elicitationAnswer({ behavior: "deny", message: "no", declined: true })).toEqual({ action: "decline" });
    expect(elicitationAnswer({ behavior: "deny", message: "nobody there", by: "timeout" })).toEqual({
      action: "cancel",
    });
  });
});
