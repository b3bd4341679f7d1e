// MCP servers Claude Code could not connect, through the real bridge and the real CLI: one whose
// program is missing, and one over HTTP that wants a sign-in (test/support/fake-mcp). The run
// goes on without their tools, and the chat says which servers are missing, why (as Claude
// Code's mcp_status tells it) and what to do, once a Claude Code process: a later message in the
// same process does not say it again.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import { startSignInServer, type SignInServer } from "../support/fake-mcp/sign-in-server.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
let signIn: SignInServer;
const program = () => join(rig.ws.root, "no-such-server");
beforeAll(async () => {
  rig = await startRig();
  signIn = await startSignInServer();
  const servers = {
    builds: { command: join(rig.ws.root, "no-such-server") },
    tracker: { type: "http", url: signIn.url },
  };
  writeFileSync(join(rig.ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: servers }));
  mkdirSync(join(rig.ws.cwd, ".claude"), { recursive: true });
  writeFileSync(join(rig.ws.cwd, ".claude/settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
});
afterAll(async () => {
  await rig?.dispose();
  await signIn?.close();
});

/**
 * What the run's summary says of the server that did not connect: its note came again with its
 * reason; `program` is the missing program's path. The one waiting for a sign-in is said apart,
 * with a button (telegram-mcp-sign-in.test.ts).
 */
const missing = (program: string) => [
  `⚠️ MCP server builds (ENOENT: no such file or directory, posix_spawn '${program}') did not connect; Claude works without its tools.`,
];

describe("MCP servers that did not connect", () => {
  it("are named in the run's progress, with what to do, once a process", async () => {
    const chat = rig.user(1001);
    // The turn goes on until the reasons are in: they come from a request of Telecode's own.
    const explained = gate();
    rig.script("[mcp-missing]", [reply.text("Checked without the tracker.", { until: explained.until })]);
    rig.tg.sendText(chat, "Check the open tickets [mcp-missing]");
    await rig.tg.waitFor(() => rig.tg.botMessages(chat).find((m) => m.text.includes("(ENOENT")));
    explained.open();
    const answer = await rig.botMessage(chat, isAnswer("Checked without the tracker."));
    const progress = await rig.tg.waitFor(() => {
      const m = rig.tg.message(chat, answer.replyToMessageId ?? rig.tg.botMessages(chat)[0]!.messageId);
      return m !== undefined && m.text.startsWith("✅ Done") ? m : undefined;
    });
    // The summary keeps it: a person should not miss it.
    expect(progress.text.split("\n\n").at(-1)?.split("\n")).toEqual(missing(program()));
    // The model was sent no tool of either server.
    const tools = (rig.api.requests("[mcp-missing]")[0]?.body["tools"] ?? []) as { name: string }[];
    expect(tools.map((t) => t.name).filter((name) => name.startsWith("mcp__"))).toEqual([]);

    rig.script("[mcp-again]", [reply.text("Still without it.")]);
    rig.tg.sendText(chat, "And the closed ones? [mcp-again]");
    await rig.botMessage(chat, isAnswer("Still without it."));
    const saying = rig.tg.botMessages(chat).filter((m) => m.text.includes("did not connect"));
    expect(saying.map((m) => m.messageId)).toEqual([progress.messageId]);
    const signIn = rig.tg.botMessages(chat).filter((m) => m.text.includes("needs a sign-in"));
    expect(signIn.map((m) => [m.text, m.buttons.map((b) => b.text)])).toEqual([
      ["🔑 MCP server tracker needs a sign-in; Claude works without its tools until then.", ["🔑 Sign in to tracker"]],
    ]);
  });
});
