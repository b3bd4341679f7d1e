// An MCP server's questions (MCP elicitation) through the real bridge: the real CLI runs a
// project MCP server (test/support/fake-mcp) whose tool asks before it acts; Claude Code passes
// the question on as an `elicitation` control request, and the person answers it in Telegram:
// a form's fields one by one (a tap, a typed value), Decline, or a link to open (and the server's
// word that the link's task is done). What the server gets back is what the tool returns to the
// model, so the fake Messages API's next request shows it.
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, type FakeReply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, keeperLogged, startRig, type Rig, withButton } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
  const server = { command: process.execPath, args: [resolve("test/support/fake-mcp/asking-server.js")] };
  writeFileSync(join(rig.ws.cwd, ".mcp.json"), JSON.stringify({ mcpServers: { ops: server } }));
  mkdirSync(join(rig.ws.cwd, ".claude"), { recursive: true });
  writeFileSync(join(rig.ws.cwd, ".claude/settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
});
afterAll(async () => {
  await rig?.dispose();
});

async function tap(chat: number, message: MessageView, label: string): Promise<string | undefined> {
  return (await rig.tg.waitForCallbackAnswer(rig.tg.tapButton(chat, message.messageId, label))).text;
}

/**
 * The person asks for a deploy (`marker` names the run), Claude calls the server's tool with
 * `ask`, and the person allows the tool: the server then asks its question (after `waitMs`, when
 * given). Claude's answer after the tool is `answer`.
 */
async function deployAsking(chat: number, marker: string, ask: object, answer: FakeReply, waitMs?: number) {
  rig.script(marker, [
    reply.tool("mcp__ops__deploy", waitMs === undefined ? { ask } : { ask, wait_ms: waitMs }),
    answer,
  ]);
  rig.tg.sendText(chat, `Deploy v2.3 ${marker}`);
  const approval = await rig.botMessage(chat, (m) => m.text.startsWith("🔐 ops · deploy") && m.buttons.length > 0);
  expect(await tap(chat, approval, "✅ Allow")).toBe("Approved");
}

/** As deployAsking, with a link to open (`link`) for the server's question; resolves with the question. */
async function linkAsked(
  chat: number,
  marker: string,
  link: { message: string; url: string; elicitationId: string },
  answer: FakeReply,
): Promise<MessageView> {
  await deployAsking(chat, marker, { mode: "url", ...link }, answer);
  return rig.botMessage(chat, withButton("✅ Continue"));
}

/** What the MCP server got back, as its tool returned it to the model. */
const serverGot = (marker: string): unknown => JSON.parse(rig.api.requests(marker)[1]?.toolResults[0]?.text ?? "null");

const DEPLOY_FORM = {
  message: "Where should I deploy v2.3?",
  requestedSchema: {
    type: "object",
    properties: {
      target: {
        type: "string",
        title: "Environment",
        enum: ["staging", "production"],
        enumNames: ["Staging", "Production"],
      },
      replicas: { type: "integer", title: "Replicas", minimum: 1, maximum: 10 },
      notes: { type: "string", title: "Release notes" },
    },
    required: ["target", "replicas"],
  },
};

describe("an MCP server's form", () => {
  it("is asked field by field: a tap, a typed number (a wrong one said), Skip; the server gets the values", async () => {
    const chat = rig.user(1001);
    await deployAsking(chat, "[mcp-form]", DEPLOY_FORM, reply.text("Deployed to staging."));
    const asked = await rig.botMessage(chat, withButton("Staging"));
    expect(asked.text).toBe(
      [
        "❓ ops asks · 1 of 3",
        "",
        "Where should I deploy v2.3?",
        "",
        "Environment",
        "",
        "A typed reply answers this question.",
      ].join("\n"),
    );
    expect(asked.buttons.map((b) => b.text)).toEqual(["Staging", "Production", "❌ Decline"]);
    expect(await tap(chat, asked, "Staging")).toBe("✓ Staging");
    const replicas = await rig.tg.waitFor(() => {
      const m = rig.tg.message(chat, asked.messageId);
      return m?.text.includes("2 of 3") === true ? m : undefined;
    });
    expect(replicas.text).toContain("Replicas (a whole number from 1 to 10)");
    expect(replicas.buttons.map((b) => b.text)).toEqual(["Type an answer", "❌ Decline"]);
    rig.tg.sendText(chat, "twelve");
    await rig.tg.waitFor(() => rig.tg.message(chat, asked.messageId)?.text.includes("Replicas needs a number."));
    rig.tg.sendText(chat, "12");
    await rig.tg.waitFor(() =>
      rig.tg.message(chat, asked.messageId)?.text.includes("Replicas needs a number of at most 10."),
    );
    rig.tg.sendText(chat, "3");
    const notes = await rig.tg.waitFor(() => {
      const m = rig.tg.message(chat, asked.messageId);
      return m?.text.includes("3 of 3") === true ? m : undefined;
    });
    expect(notes.text).toContain("Release notes (optional)");
    expect(notes.buttons.map((b) => b.text)).toEqual(["Type an answer", "Skip", "❌ Decline"]);
    expect(await tap(chat, notes, "Skip")).toBe("✓ Skip");
    await rig.botMessage(chat, isAnswer("Deployed to staging."));
    expect(serverGot("[mcp-form]")).toEqual({ action: "accept", content: { target: "staging", replicas: 3 } });
    const settled = await rig.tg.waitFor(() => {
      const m = rig.tg.message(chat, asked.messageId);
      return m?.buttons.length === 0 ? m : undefined;
    });
    expect(settled.text).toMatch(/✅ Sent Environment: Staging · Replicas: 3 · Release notes: — \(Ann1001\)$/);
  });

  it("Decline tells the server the person said no", async () => {
    const chat = rig.user(1002);
    await deployAsking(chat, "[mcp-no]", DEPLOY_FORM, reply.text("Not deployed."));
    const asked = await rig.botMessage(chat, withButton("❌ Decline"));
    expect(await tap(chat, asked, "❌ Decline")).toBe("Declined");
    await rig.botMessage(chat, isAnswer("Not deployed."));
    expect(serverGot("[mcp-no]")).toEqual({ action: "decline" });
    const settled = await rig.tg.waitFor(() => {
      const m = rig.tg.message(chat, asked.messageId);
      return m?.buttons.length === 0 ? m : undefined;
    });
    expect(settled.text).toMatch(/❌ Declined \(Ann1002\)$/);
  });
});

describe("an MCP server's link", () => {
  it("is shown with Continue and Decline; Continue tells the server to go on, and its word that it is done is shown", async () => {
    const chat = rig.user(1003);
    const link = {
      message: "Sign in to Acme Cloud so I can deploy.",
      url: "https://auth.acme.example/device?code=WXYZ-1234",
      elicitationId: "sign-in-1",
    };
    // Slow enough that the progress message shows what came meanwhile.
    const asked = await linkAsked(chat, "[mcp-link]", link, reply.text("Signed in and deployed.", { delayMs: 1500 }));
    expect(asked.text).toBe(
      [
        "❓ ops asks you to open a link",
        "",
        "Sign in to Acme Cloud so I can deploy.",
        "",
        "https://auth.acme.example/device?code=WXYZ-1234",
        "",
        "Open the link to do what ops asks there, then tap Continue.",
        "",
        "Tap Continue or Decline to answer.",
      ].join("\n"),
    );
    // The link is a button that opens it too, above the answers.
    expect(asked.buttons.map((b) => b.url ?? b.text)).toEqual([
      "https://auth.acme.example/device?code=WXYZ-1234",
      "✅ Continue",
      "❌ Decline",
    ]);
    expect(asked.buttons[0]?.text).toBe("🔗 Open the link");
    expect(await tap(chat, asked, "✅ Continue")).toBe("✓ Continue");
    await rig.botMessage(chat, isAnswer("Signed in and deployed."));
    expect(serverGot("[mcp-link]")).toEqual({ action: "accept" });
    // The server said the link's task is done (notifications/elicitation/complete): a line of the progress.
    const progress = rig.tg.botMessages(chat)[0]!;
    expect(progress.revisions.some((r) => r.text.includes("ℹ️ ops: done with the link you opened."))).toBe(true);
  });

  it("is a link to this computer: says to open it there, with no button the phone could not follow", async () => {
    const chat = rig.user(1006);
    const link = {
      message: "Approve the deploy in the local console.",
      url: "http://localhost:8765/approve?id=7",
      elicitationId: "local-1",
    };
    const asked = await linkAsked(chat, "[mcp-local-link]", link, reply.text("Approved locally and deployed."));
    expect(asked.text).toContain(
      "http://localhost:8765/approve?id=7\n\nThe link opens on the computer Telecode runs on, not on a phone: open it there to do what ops asks, then tap Continue.",
    );
    expect(asked.buttons.map((b) => b.text)).toEqual(["✅ Continue", "❌ Decline"]);
    expect(await tap(chat, asked, "✅ Continue")).toBe("✓ Continue");
    await rig.botMessage(chat, isAnswer("Approved locally and deployed."));
    expect(serverGot("[mcp-local-link]")).toEqual({ action: "accept" });
  });
});

describe("an MCP server's question across a restart", () => {
  const SIGN_IN = {
    message: "Sign in to Acme Cloud so I can deploy.",
    url: "https://auth.acme.example/device?code=RSTR-0001",
    elicitationId: "sign-in-restart",
  };

  it("keeps its message and buttons; the answer tapped after the restart reaches the server", async () => {
    const chat = rig.user(1004);
    const asked = await linkAsked(chat, "[mcp-restart]", SIGN_IN, reply.text("Deployed after the restart."));
    await rig.app.stop();
    await rig.startApp();
    expect(await tap(chat, asked, "✅ Continue")).toBe("✓ Continue");
    await rig.botMessage(chat, isAnswer("Deployed after the restart."));
    expect(serverGot("[mcp-restart]")).toEqual({ action: "accept" });
    expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("❓ ops asks"))).toHaveLength(1);
  });

  it("asks one the server sent while Telecode was down once it is back", async () => {
    const chat = rig.user(1005);
    const answer = reply.text("Deployed, asked while you were away.");
    const signIn = {
      mode: "url",
      ...SIGN_IN,
      url: "https://auth.acme.example/device?code=DOWN-0002",
      elicitationId: "sign-in-down",
    };
    await deployAsking(chat, "[mcp-down]", signIn, answer, 3000);
    // The server works for a while and asks only once this Telecode is gone: the keeper keeps the line.
    await rig.app.stop();
    expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("❓ ops asks"))).toEqual([]);
    // The question's own line (the tool call's input names it as elicitationId).
    await keeperLogged(rig.dataDir, '"elicitation_id":"sign-in-down"');
    await rig.startApp();
    const asked = await rig.botMessage(chat, withButton("✅ Continue"));
    expect(asked.text).toContain("https://auth.acme.example/device?code=DOWN-0002");
    expect(await tap(chat, asked, "✅ Continue")).toBe("✓ Continue");
    await rig.botMessage(chat, isAnswer("Deployed, asked while you were away."));
    expect(serverGot("[mcp-down]")).toEqual({ action: "accept" });
  });
});
