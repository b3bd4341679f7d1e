// What only a session's live process can do, with the in-memory CLI answering as Claude Code
// 2.1.337 does (its replies as observed with the real CLI; the whole flows with the real CLI are
// test/e2e/telegram-mcp-sign-in.test.ts and telegram-btw.test.ts). A sign-in to an MCP server:
// the page and where it ends, a sign-in Claude Code already had, its refusals in its own words,
// the server connected again afterwards. A side question: the answer, or Claude Code's words
// for why none came. Neither without a process.
import { afterEach, describe, expect, it } from "vitest";
import { allowAllController, createClaudeEngine, isClaudeError, type SessionHandle } from "../../src/claude/index.js";
import { line } from "../support/fake-claude/index.js";
import { createInMemoryLauncher, onEachStdin, type FakeCliEnd } from "../support/in-memory-cli.js";
import { collect, isRunCompleted } from "./harness.js";

type Json = Record<string, unknown>;

const handles: SessionHandle[] = [];
afterEach(async () => {
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

const PAGE =
  "https://mcp.tracker.example/authorize?response_type=code&client_id=c1&redirect_uri=http%3A%2F%2Flocalhost%3A53781%2Fcallback&state=s1";

/** A CLI that answers each control request by its subtype (`replies`: the payload, or an error's words). */
function cliAnswering(replies: Record<string, Json | string>): (cli: FakeCliEnd) => void {
  return (cli) => {
    onEachStdin(
      cli,
      (m) => m["type"] === "control_request",
      (m) => {
        const subtype = (m["request"] as Json)["subtype"] as string;
        const reply = subtype === "initialize" ? { commands: [] } : (replies[subtype] ?? {});
        const response =
          typeof reply === "string"
            ? { subtype: "error", request_id: m["request_id"], error: reply }
            : { subtype: "success", request_id: m["request_id"], response: reply };
        cli.print({ type: "control_response", response });
      },
    );
    onEachStdin(
      cli,
      (m) => m["type"] === "user",
      () => {
        cli.print(line.init());
        cli.print(line.result("Listed."));
      },
    );
  };
}

/** A session whose process has run one turn and idles, kept. */
async function liveSession(replies: Record<string, Json | string>) {
  const launcher = createInMemoryLauncher(cliAnswering(replies));
  const engine = createClaudeEngine({ env: {}, launcher });
  const handle = engine.openSession({ cwd: "/tmp", permissionMode: "default" }, allowAllController());
  handles.push(handle);
  const events = collect(handle);
  const runId = await handle.startRun("list the tickets");
  await events.waitFor((e) => isRunCompleted(e) && e.runId === runId);
  return { handle, cli: launcher.launched[0]! };
}

const requests = (cli: FakeCliEnd): Json[] =>
  cli.stdin.filter((m) => m["type"] === "control_request").map((m) => m["request"] as Json);

describe("an MCP sign-in", () => {
  it("gives the page and where it ends, then finishes with the address and connects the server", async () => {
    const { handle, cli } = await liveSession({
      mcp_authenticate: { authUrl: PAGE, requiresUserAction: true, callbackExpected: true, callbackPort: 53781 },
    });
    expect(await handle.mcpSignIn("tracker")).toEqual({
      kind: "open_link",
      url: PAGE,
      callbackPrefix: "http://localhost:53781/callback",
    });
    const address = "http://localhost:53781/callback?code=c0de&state=s1";
    expect(await handle.mcpSignInCallback("tracker", address)).toEqual({ connected: true });
    expect(requests(cli).slice(-3)).toEqual([
      { subtype: "mcp_authenticate", serverName: "tracker" },
      { subtype: "mcp_oauth_callback_url", serverName: "tracker", callbackUrl: address },
      { subtype: "mcp_reconnect", serverName: "tracker" },
    ]);
  });

  it("has nothing to pass on for a page whose end Claude Code does not wait for, or a sign-in it had", async () => {
    const connector = await liveSession({
      mcp_authenticate: { authUrl: "https://claude.ai/connect/x", requiresUserAction: true, callbackExpected: false },
    });
    expect(await connector.handle.mcpSignIn("drive")).toEqual({
      kind: "open_link",
      url: "https://claude.ai/connect/x",
      callbackPrefix: undefined,
    });
    const had = await liveSession({ mcp_authenticate: { requiresUserAction: false, callbackExpected: false } });
    expect(await had.handle.mcpSignIn("tracker")).toEqual({ kind: "signed_in" });
  });

  it("says Claude Code's refusals in its own words; a server that does not connect after is no failure", async () => {
    const refused = await liveSession({
      mcp_authenticate: "Server not found: nosuch",
      mcp_oauth_callback_url: "No active OAuth flow for server: tracker",
    });
    await expect(refused.handle.mcpSignIn("nosuch")).rejects.toThrow(/^Server not found: nosuch\.$/);
    await expect(refused.handle.mcpSignInCallback("tracker", "http://localhost:1/callback?code=x")).rejects.toThrow(
      /^No active OAuth flow for server: tracker\.$/,
    );
    const unreachable = await liveSession({ mcp_reconnect: "Connection closed" });
    expect(await unreachable.handle.mcpSignInCallback("tracker", "http://localhost:1/callback?code=x")).toEqual({
      connected: false,
      why: "Connection closed.",
    });
  });
});

describe("a side question", () => {
  it("is answered in the model's words, or in Claude Code's when no answer came or it refused; a follow-up carries the ones before", async () => {
    const { handle, cli } = await liveSession({ side_question: { response: "Renaming files.", synthetic: false } });
    expect(await handle.sideQuestion("what now?")).toEqual({ text: "Renaming files.", failed: false });
    expect(requests(cli).at(-1)).toEqual({ subtype: "side_question", question: "what now?" });
    // A follow-up carries the side questions before it and their answers.
    const before = [{ question: "what now?", response: "Renaming files." }];
    await handle.sideQuestion("which ones?", before);
    expect(requests(cli).at(-1)).toEqual({ subtype: "side_question", question: "which ones?", history: before });
    const synthetic = await liveSession({ side_question: { response: "API Error: 529 overloaded", synthetic: true } });
    expect(await synthetic.handle.sideQuestion("what now?")).toEqual({
      text: "API Error: 529 overloaded",
      failed: true,
    });
    const refused = await liveSession({ side_question: "Session is shutting down" });
    await expect(refused.handle.sideQuestion("what now?")).rejects.toThrow(/^Session is shutting down\.$/);
    const none = await liveSession({ side_question: { response: null } });
    await expect(none.handle.sideQuestion("what now?")).rejects.toThrow(
      "Claude Code gave no answer to the side question.",
    );
  });
});

it("needs the session's live process, and starts none", async () => {
  const launcher = createInMemoryLauncher(cliAnswering({}));
  const handle = createClaudeEngine({ env: {}, launcher }).openSession(
    { cwd: "/tmp", permissionMode: "default" },
    allowAllController(),
  );
  handles.push(handle);
  for (const asked of [handle.mcpSignIn("tracker"), handle.sideQuestion("what now?")]) {
    const error = await asked.catch((e: unknown) => e);
    expect(isClaudeError(error, "claude.no_process")).toBe(true);
  }
  expect(launcher.launched).toHaveLength(0);
});
