// Signing in to an MCP server from the chat, through the real bridge and the real CLI: an HTTP
// MCP server wanting an OAuth sign-in (test/support/fake-mcp/sign-in-server.ts). The run says so
// with a button; a tap has the chat's Claude Code begin the sign-in and sends its page; the page
// ends at an address on the computer, which the person (on a phone, where it does not load)
// sends back; Claude Code finishes the sign-in with it and connects the server, whose tool then
// works. A wrong address is said and the sign-in still waits; an address no sign-in waits for
// goes nowhere, least of all to Claude.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { startSignInServer, TICKETS, type SignInServer } from "../support/fake-mcp/sign-in-server.js";
import { isAnswer, startRig, withButton, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
let tracker: SignInServer;
beforeAll(async () => {
  rig = await startRig();
  tracker = await startSignInServer();
  writeFileSync(
    join(rig.ws.cwd, ".mcp.json"),
    JSON.stringify({ mcpServers: { tracker: { type: "http", url: tracker.url } } }),
  );
  mkdirSync(join(rig.ws.cwd, ".claude"), { recursive: true });
  writeFileSync(join(rig.ws.cwd, ".claude/settings.json"), JSON.stringify({ enableAllProjectMcpServers: true }));
});
afterAll(async () => {
  await rig?.dispose();
  await tracker?.close();
});

const OFFER = "🔑 MCP server tracker needs a sign-in; Claude works without its tools until then.";

async function tap(chat: number, message: MessageView, label: string): Promise<string | undefined> {
  return (await rig.tg.waitForCallbackAnswer(rig.tg.tapButton(chat, message.messageId, label))).text;
}

/** A run in `chat` whose Claude Code finds the tracker waiting for a sign-in; resolves with the offer. */
async function runOffering(chat: number, marker: string): Promise<MessageView> {
  rig.script(marker, [reply.text("Listed without the tracker.")]);
  rig.tg.sendText(chat, `List my tickets ${marker}`);
  const offer = await rig.botMessage(chat, (m) => m.text === OFFER);
  await rig.botMessage(chat, isAnswer("Listed without the tracker."));
  return offer;
}

describe("signing in to an MCP server from the chat", () => {
  it("asks for a message first once the chat's Claude Code has ended; the button then works again", async () => {
    const chat = rig.user(1003);
    const offer = await runOffering(chat, "[tickets-3]");
    expect(await tap(chat, offer, "🔑 Sign in to tracker")).toBe("Starting the sign-in to tracker…");
    const page = await rig.botMessage(chat, withButton("🔗 Open the sign-in page"));
    // The sign-in waits in that Claude Code, which /new ends.
    await rig.command(chat, "new");
    rig.tg.sendText(chat, tracker.signIn(page.buttons[0]?.url ?? ""));
    const gone = "Claude Code is no longer running in this chat. Send a message, then tap 🔑 Sign in again.";
    await rig.botMessage(chat, `The sign-in to tracker did not finish: ${gone}`);
    expect(await tap(chat, offer, "🔑 Sign in to tracker")).toBe("Starting the sign-in to tracker…");
    await rig.botMessage(chat, `Could not start the sign-in to tracker: ${gone}`);
    // A message starts a Claude Code (offered minutes ago, the server is named in its summary only)…
    rig.script("[tickets-3b]", [reply.text("Still without the tracker.")]);
    rig.tg.sendText(chat, "And now? [tickets-3b]");
    await rig.botMessage(chat, isAnswer("Still without the tracker."));
    // …and the same button begins the sign-in in it.
    expect(await tap(chat, offer, "🔑 Sign in to tracker")).toBe("Starting the sign-in to tracker…");
    await rig.tg.waitFor(() => {
      const pages = rig.tg.botMessages(chat).filter(withButton("🔗 Open the sign-in page"));
      return pages.length === 2 ? pages : undefined;
    });
  });

  it("offers once a while: a later Claude Code in the chat names the server in its summary", async () => {
    const chat = rig.user(1005);
    await runOffering(chat, "[tickets-5]");
    await rig.command(chat, "new");
    rig.script("[tickets-5b]", [reply.text("Still without the tracker.")]);
    const asked = rig.tg.sendText(chat, "And the closed ones? [tickets-5b]");
    await rig.botMessage(chat, isAnswer("Still without the tracker."));
    const summary = await rig.botMessage(chat, (m) => m.replyToMessageId === asked && m.text.startsWith("✅ Done"));
    expect(summary.text.split("\n\n").at(-1)).toBe(
      "⚠️ MCP server tracker needs a sign-in; Claude works without its tools. On the computer: run `claude` in the project, then /mcp.",
    );
    expect(rig.tg.botMessages(chat).filter((m) => m.text === OFFER)).toHaveLength(1);
  });

  it("in a group, while the task goes on, takes the address as a reply to the page, the only message there the bot reads", async () => {
    const person = rig.user(1004);
    const group = -4004;
    rig.tg.addGroup({ id: group, type: "group", memberIds: [person] });
    // The sign-in goes on beside a task that is still running.
    const held = gate();
    rig.script("[tickets-4]", [reply.text("Listed without the tracker.", { until: held.until })]);
    rig.tg.sendText(group, "@telecode_test_bot List my tickets [tickets-4]", { from: person });
    const offer = await rig.botMessage(group, (m) => m.text === OFFER);
    rig.tg.tapButton(group, offer.messageId, "🔑 Sign in to tracker", { from: person });
    const page = await rig.botMessage(group, withButton("🔗 Open the sign-in page"));
    expect(page.text).toContain("copy that address from the browser and send it here as a reply to this message.");
    const address = tracker.signIn(page.buttons[0]?.url ?? "").replace(/state=[^&]+/, "state=another-attempt");
    rig.tg.sendText(group, address, { from: person, replyTo: page.messageId });
    await rig.botMessage(group, (m) =>
      m.text.startsWith("The sign-in to tracker did not finish: Callback URL not accepted"),
    );
    expect(rig.tg.botMessages(group).some(isAnswer("Listed without the tracker."))).toBe(false);
    held.open();
    await rig.botMessage(group, isAnswer("Listed without the tracker."));
  });

  it("begins with a tap, finishes with the address the page ends at, and the server's tool works", async () => {
    const chat = rig.user(1001);
    const offer = await runOffering(chat, "[tickets-1]");
    expect(offer.buttons.map((b) => b.text)).toEqual(["🔑 Sign in to tracker"]);
    // Said apart, with its button: the run's summary does not repeat it.
    const summary = await rig.botMessage(chat, (m) => m.text.startsWith("✅ Done"));
    expect(summary.text).not.toContain("sign-in");

    expect(await tap(chat, offer, "🔑 Sign in to tracker")).toBe("Starting the sign-in to tracker…");
    const page = await rig.botMessage(chat, withButton("🔗 Open the sign-in page"));
    const pageUrl = page.buttons[0]?.url ?? "";
    expect(pageUrl.startsWith(`${tracker.pageUrl}?`)).toBe(true);
    const callback = /^http:\/\/localhost:\d+\/callback/.exec(new URL(pageUrl).searchParams.get("redirect_uri") ?? "");
    expect(page.text).toBe(
      [
        "🔑 Sign in to tracker: open the page and sign in.",
        `The page then sends your browser to ${callback?.[0]}?…, an address only the computer running Telecode can open. On a phone it will not load: copy that address from the browser and send it here.`,
        "",
        `${tracker.pageUrl}?…`,
      ].join("\n"),
    );

    // The person signs in on the phone; the browser lands on an address it cannot load.
    const address = tracker.signIn(pageUrl);
    const requests = rig.api.requests().length;
    // One from another attempt first: said, and the sign-in still waits.
    rig.tg.sendText(chat, address.replace(/state=[^&]+/, "state=another-attempt"));
    const wrong = await rig.botMessage(chat, (m) => m.text.startsWith("The sign-in to tracker did not finish"));
    expect(wrong.text).toBe(
      "The sign-in to tracker did not finish: Callback URL not accepted: it belongs to a different sign-in attempt (OAuth state mismatch) or carries no authorization code. The sign-in in progress is still waiting; submit the redirect URL from its own browser page. Tap 🔑 Sign in to tracker to start over.",
    );
    rig.tg.sendText(chat, address);
    await rig.botMessage(chat, "✅ Signed in to tracker: Claude can use its tools from your next message.");
    // Neither address went to Claude.
    expect(rig.api.requests()).toHaveLength(requests);

    rig.script("[tickets-2]", [reply.tool("mcp__tracker__tickets", {}), reply.text("Three tickets are open.")]);
    rig.tg.sendText(chat, "And now? [tickets-2]");
    const approval = await rig.botMessage(
      chat,
      (m) => m.text.startsWith("🔐 tracker · tickets") && m.buttons.length > 0,
    );
    expect(await tap(chat, approval, "✅ Allow")).toBe("Approved");
    await rig.botMessage(chat, isAnswer("Three tickets are open."));
    expect(tracker.calls).toHaveLength(1);
    expect(rig.api.requests("[tickets-2]")[1]?.toolResults[0]?.text).toBe(TICKETS);
  });

  it("says so, and sends nothing to Claude, for an address no sign-in waits for", async () => {
    const chat = rig.user(1002);
    const requests = rig.api.requests().length;
    rig.tg.sendText(chat, "http://localhost:40123/callback?code=4f1c&state=Zq9");
    await rig.botMessage(
      chat,
      "No sign-in waits for this address: it belongs to one that has finished, or to one begun before Telecode or Claude Code restarted. Tap 🔑 Sign in again to start over.",
    );
    expect(rig.api.requests()).toHaveLength(requests);
    // A link to the computer that is no sign-in's return is a task like any other.
    rig.tg.sendText(chat, "http://localhost:3000/?page=2");
    await rig.botMessage(chat, isAnswer("(the fake API has no scripted reply left)"));
    expect(
      rig.api
        .requests()
        .slice(requests)
        .map((r) => r.lastPrompt),
    ).toEqual(["http://localhost:3000/?page=2"]);
  });
});
