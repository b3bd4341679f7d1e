// Sessions and their numbers through the real bridge and the real CLI: what a turn costs after a
// restart, /continue saying when there is nothing to continue and picking the conversation last active in the project (also one a person had
// with plain `claude` in a terminal), /usage adding up runs' own costs, and /status naming the
// session a reply continued.
import { execFile } from "node:child_process";
import { readdir } from "node:fs/promises";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localDay } from "../../src/domain/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { realClaudePath } from "../support/claude-workspace.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, olderAndNewer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

const run = promisify(execFile);

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

/** The cost in an answer's footer ("$0.0008 · 1 turn · …"). */
function costOf(answer: MessageView): string | undefined {
  return /(\$\d+\.\d+) · \d+ turns?/.exec(answer.text)?.[1];
}

/** Plain `claude -p` in the project, as a person at a terminal would run it. */
async function terminalClaude(prompt: string): Promise<string> {
  const { stdout } = await run(realClaudePath, ["-p", "--output-format", "json", "--", prompt], {
    cwd: rig.ws.cwd,
    env: rig.ws.env,
  });
  return (JSON.parse(stdout) as { session_id: string }).session_id;
}

describe("sessions and their numbers", () => {
  // First in the file: the project has no conversation yet.
  it("/continue in a project with no conversation yet says so, and answers in a fresh session", async () => {
    expect(await readdir(rig.ws.transcripts).catch(() => [])).toEqual([]);
    const chat = rig.user(1004);
    rig.script("[nothing-yet]", [reply.text("Fresh, then.")]);
    const asked = rig.tg.sendCommand(chat, "continue", "where were we? [nothing-yet]");
    const note = await rig.botMessage(chat, (m) => m.replyToMessageId === asked && m.text.startsWith("⚠️"));
    expect(note.text).toBe(
      "⚠️ There is no earlier Claude Code session in this project to continue, so this message starts a fresh one.",
    );
    await rig.botMessage(chat, isAnswer("Fresh, then."));
  });

  it("after a restart, the next answer costs what its own turn cost, and /usage today adds it", async () => {
    const chat = rig.user(1001);
    rig.script("[r1]", [reply.text("Before the restart.")]);
    rig.tg.sendText(chat, "First [r1]");
    const before = await rig.botMessage(chat, isAnswer("Before the restart."));
    expect(costOf(before)).toBe("$0.0008");
    await rig.app.stop();
    await rig.startApp();
    const today = () => rig.app.store.usage.forDay(localDay(new Date()));
    const spentBefore = today().costUsd;
    rig.script("[r2]", [reply.text("After the restart.")]);
    rig.tg.sendText(chat, "Second [r2]");
    const after = await rig.botMessage(chat, isAnswer("After the restart."));
    expect(sessionOf(after)).toBe(sessionOf(before));
    expect(JSON.stringify(rig.api.requests("[r2]")[0]?.body["messages"])).toContain("First [r1]");
    // The CLI's running total is now $0.0016; this turn cost $0.0008.
    expect(costOf(after)).toBe("$0.0008");
    expect(today().costUsd - spentBefore).toBeCloseTo(0.0008, 6);
    const usage = await rig.command(chat, "usage");
    expect(usage).toContain("This session: $0.0016");
  });

  it("/continue picks the conversation last active in the project, a newer terminal one over the chat's live one", async () => {
    const chat = rig.user(1002);
    rig.script("[chat-1]", [reply.text("The chat's answer.")]);
    rig.tg.sendText(chat, "Chat work [chat-1]");
    const first = await rig.botMessage(chat, isAnswer("The chat's answer."));
    expect(rig.app.bridge.sessions.status(chat)[0]?.pid).toBeDefined();

    rig.script("[terminal]", [reply.text("Terminal answer.")]);
    const terminalSession = await terminalClaude("Terminal work [terminal]");

    rig.script("[continued]", [reply.text("Continued the terminal one.")]);
    rig.tg.sendCommand(chat, "continue", "and then? [continued]");
    const continued = await rig.botMessage(chat, isAnswer("Continued the terminal one."));
    expect(sessionOf(continued)).toBe(terminalSession.slice(0, 8));
    expect(sessionOf(continued)).not.toBe(sessionOf(first));
    const history = JSON.stringify(rig.api.requests("[continued]")[0]?.body["messages"]);
    expect(history).toContain("Terminal work [terminal]");
    expect(history).not.toContain("Chat work [chat-1]");
    expect(costOf(continued)).toBe("$0.0008");
  });

  it("/status after a reply to an older answer names the session that reply continued", async () => {
    const chat = rig.user(1003);
    const { older, newer } = await olderAndNewer(rig, chat, "status");
    expect(sessionOf(newer)).not.toBe(sessionOf(older));

    rig.script("[back]", [reply.text("Back on the old topic.")]);
    rig.tg.sendText(chat, "Back to it [back]", { replyTo: older.messageId });
    const back = await rig.botMessage(chat, isAnswer("Back on the old topic."));
    expect(sessionOf(back)).toBe(sessionOf(older));
    expect(await rig.command(chat, "status")).toContain(`Session: ${sessionOf(older)!}`);
  });
});
