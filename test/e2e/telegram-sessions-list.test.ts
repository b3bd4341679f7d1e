// /sessions through the real bridge and the real CLI: the chat's recent sessions, named by the
// request that started each, the current one marked; a tap on another makes the next message
// continue it (Claude gets that conversation), a running task finishing in its own first.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

async function tap(chat: number, message: MessageView, label: string): Promise<string | undefined> {
  return (await rig.tg.waitForCallbackAnswer(rig.tg.tapButton(chat, message.messageId, label))).text;
}

/** Runs `request` to its answer; resolves with the answer's session (its first 8 characters). */
async function ask(chat: number, request: string, answer: string): Promise<string | undefined> {
  const marker = /\[[^\]]+\]/.exec(request)?.[0] ?? "";
  rig.script(marker, [reply.text(answer)]);
  rig.tg.sendText(chat, request);
  return sessionOf(await rig.botMessage(chat, isAnswer(answer)));
}

describe("/sessions", () => {
  it("lists the chat's sessions by their first request, and a tap makes the next message continue one", async () => {
    const chat = rig.user(1001);
    expect(await rig.command(chat, "sessions")).toBe("No sessions in app yet: the next message starts one.");
    const login = await ask(chat, "Fix the login bug on Android [login]", "Fixed the login.");
    await ask(chat, "And add a test for it [login-test]", "Added the test.");
    await rig.command(chat, "new");
    const search = await ask(chat, "Make the search faster [search]", "Search is faster.");
    expect(login).not.toBe(search);

    rig.tg.sendText(chat, "/sessions");
    const list = await rig.botMessage(chat, (m) => m.text.startsWith("Sessions in app"));
    const lines = list.text.split("\n");
    expect(lines[0]).toBe("Sessions in app");
    expect(lines[1]).toMatch(
      /^• Make the search faster \[search\] \(current\) — last used \d\d:\d\d today · \$0\.0008$/,
    );
    expect(lines[2]).toMatch(/^• Fix the login bug on Android \[login\] — last used \d\d:\d\d today · \$0\.0016$/);
    expect(list.buttons.map((b) => b.text)).toEqual(["▶️ Fix the login bug on Android [login]"]);

    expect(await tap(chat, list, "▶️ Fix the login bug on Android [login]")).toBe("Picked");
    await rig.botMessage(chat, "▶️ Your next message continues “Fix the login bug on Android [login]”.");
    const again = await ask(chat, "Does it still pass? [login-again]", "It still passes.");
    expect(again).toBe(login);
    // Claude has that conversation.
    const messages = JSON.stringify(rig.api.requests("[login-again]")[0]?.body["messages"]);
    expect(messages).toContain("Fix the login bug on Android [login]");
    expect(messages).not.toContain("Make the search faster");
    // And it is the current one now.
    const relisted = await rig.command(chat, "sessions");
    expect(relisted.split("\n")[1]).toMatch(/^• Fix the login bug on Android \[login\] \(current\)/);
  });

  it("lets a task running now finish in its own session; the one after continues the pick", async () => {
    const chat = rig.user(1002);
    const first = await ask(chat, "Draft the release notes [notes]", "Drafted them.");
    await rig.command(chat, "new");
    const held = gate();
    rig.script("[bump]", [reply.text("Bumped the version.", { until: held.until })]);
    rig.tg.sendText(chat, "Bump the version [bump]");
    // Listed once Claude Code has named its session.
    await rig.tg.waitFor(() => rig.app.store.sessions.current(chat, "app") ?? undefined, {
      what: "the bump's session",
    });
    rig.tg.sendText(chat, "/sessions");
    const list = await rig.botMessage(chat, (m) => m.text.startsWith("Sessions in app"));
    // The running one has no cost yet.
    expect(list.text.split("\n")[1]).toMatch(/^• Bump the version \[bump\] \(current\) — last used \d\d:\d\d today$/);
    expect(await tap(chat, list, "▶️ Draft the release notes [notes]")).toBe("Picked");
    await rig.botMessage(
      chat,
      "▶️ Your next message continues “Draft the release notes [notes]”. The task running now finishes in its own session first.",
    );
    held.open();
    const bumped = sessionOf(await rig.botMessage(chat, isAnswer("Bumped the version.")));
    expect(bumped).not.toBe(first);
    expect(await ask(chat, "Add the bump to them [notes-again]", "Added.")).toBe(first);
  });
});
