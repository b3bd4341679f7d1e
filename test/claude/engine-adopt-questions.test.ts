// A kept process taken in after a restart, with the in-memory pair standing in for the CLI: an
// MCP server's question among the lines it printed before the re-attach still waits in the CLI,
// which (2.1.321–2.1.337) does not list such questions in its initialize reply. The question is
// asked again unless the previous Telecode settled it, and its answer reaches the CLI; one the CLI
// withdrew is not, and where the CLI does list them, its list alone counts.
import { afterEach, describe, expect, it } from "vitest";
import { askController, createClaudeEngine, type RecordedRequest, type SessionHandle } from "../../src/claude/index.js";
import { ELICITATION_TOOL, type ApprovalRequest } from "../../src/domain/index.js";
import { line } from "../support/fake-claude/index.js";
import { createInMemoryLauncher, createInMemoryTransportPair, onEachStdin } from "../support/in-memory-cli.js";

const handles: SessionHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

/** The `elicitation` control request Claude Code prints for an MCP server's question. */
function question(requestId: string) {
  return {
    type: "control_request",
    request_id: requestId,
    request: {
      subtype: "elicitation",
      mcp_server_name: "ops",
      message: `Question ${requestId}?`,
      mode: "form",
      requested_schema: { type: "object", properties: { target: { type: "string", enum: ["staging"] } } },
    },
  };
}

/**
 * The backlog: the previous Telecode saw lines 1–4 (three questions), lines 5–8 came while it
 * was down (two questions, one of them withdrawn by the CLI, and one the ledger settled anyway).
 */
const BACKLOG = [
  line.init(),
  question("q-open"),
  question("q-settled"),
  question("q-policy"),
  question("q-new"),
  question("q-withdrawn"),
  { type: "control_cancel_request", request_id: "q-withdrawn" },
  question("q-new-settled"),
];
const SEEN_THROUGH = 4;

/** What the previous Telecode's ledger holds: a person still to answer one, and two settled. */
const LEDGER: Record<string, RecordedRequest> = {
  "q-open": "open",
  "q-settled": "settled",
  "q-new-settled": "settled",
};

/** Takes in a kept CLI that printed BACKLOG; its initialize reply carries `beside` next to its payload. */
async function takeIn(beside: Record<string, unknown> = {}) {
  const request = { file: "claude", args: [], cwd: "/tmp", env: {} };
  const [transport, cli] = createInMemoryTransportPair(request, 91_000);
  for (const printed of BACKLOG) cli.print(printed);
  onEachStdin(
    cli,
    (m) => m["type"] === "control_request",
    (m) =>
      cli.print({
        type: "control_response",
        response: { subtype: "success", request_id: m["request_id"], response: { commands: [] }, ...beside },
      }),
  );
  const asked: ApprovalRequest[] = [];
  const controller = askController((approval) => {
    asked.push(approval);
    return Promise.resolve({ behavior: "allow", updatedInput: { action: "accept", content: { target: "staging" } } });
  });
  const engine = createClaudeEngine({ env: {}, launcher: createInMemoryLauncher() });
  const { handle, reconciled } = engine.adoptSession({ cwd: "/tmp", permissionMode: "default" }, controller, {
    transport,
    run: { id: "run-kept", startedAtMs: 0, startSeq: 0 },
    backlogThroughSeq: BACKLOG.length,
    seenThroughSeq: SEEN_THROUGH,
    recordedRequest: (requestId) => LEDGER[requestId],
  });
  handles.push(handle);
  return { waiting: await reconciled, asked, cli };
}

describe("an MCP server's question across a re-attach", () => {
  it("is asked again when still open or never seen, and the answer reaches the CLI", async () => {
    const { waiting, asked, cli } = await takeIn();
    expect(waiting).toEqual(["q-open", "q-new"]);
    expect(asked.map((a) => [a.toolName, a.requestId])).toEqual([
      [ELICITATION_TOOL, "q-open"],
      [ELICITATION_TOOL, "q-new"],
    ]);
    for (const requestId of ["q-open", "q-new"]) {
      const answer = await cli.nextStdin((m) => m["type"] === "control_response" && hasRequestId(m, requestId));
      expect(answer).toMatchObject({
        response: { subtype: "success", response: { action: "accept", content: { target: "staging" } } },
      });
    }
  });

  it("is taken only from the CLI's own list when its reply has one", async () => {
    const { waiting, asked } = await takeIn({ pending_elicitation_requests: [question("q-new")] });
    expect(waiting).toEqual(["q-new"]);
    expect(asked.map((a) => a.requestId)).toEqual(["q-new"]);
    expect((await takeIn({ pending_elicitation_requests: [] })).waiting).toEqual([]);
  });
});

function hasRequestId(message: Record<string, unknown>, requestId: string): boolean {
  return (message["response"] as Record<string, unknown> | undefined)?.["request_id"] === requestId;
}
