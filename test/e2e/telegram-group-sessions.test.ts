// telegram.group_sessions through the real bridge and the real CLI: with "per_person", each
// member of a group has a conversation of their own there (session, runs side by side, settings
// once they change one, /new), and a reply to a colleague's answer, or a tap on its buttons,
// goes to the conversation that answer is of, after a restart too. With "shared" (the default),
// the group is one conversation.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gate, reply } from "../support/fake-anthropic/index.js";
import type { Config } from "../../src/config/index.js";
import { isAnswer, sessionOf, startRig, withButton, withConfig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

const BOT = "@telecode_test_bot";

type Group = {
  id: number;
  /** Sends `words` as `from`, with the bot mentioned; returns the message's id. */
  say(from: number, words: string, options?: { replyTo?: number }): number;
  /** Scripts `answer` for `words` (ending in a [marker]), sends them as `from`, and waits for the answer. */
  ask(from: number, words: string, answer: string): Promise<{ asked: number; session: string | undefined }>;
};

/** A group of `members` with telegram.group_sessions set to `sessions` for the test. */
async function inGroup(
  id: number,
  members: readonly number[],
  sessions: "shared" | "per_person",
  test: (group: Group) => Promise<void>,
): Promise<void> {
  rig.tg.addGroup({ id, memberIds: [...members] });
  const say: Group["say"] = (from, words, options = {}) => rig.tg.sendText(id, `${BOT} ${words}`, { from, ...options });
  const ask: Group["ask"] = async (from, words, answer) => {
    rig.script(/\[[^\]]+\]$/.exec(words)![0], [reply.text(answer)]);
    const asked = say(from, words);
    const answered = await rig.botMessage(id, (m) => isAnswer(answer)(m) && m.replyToMessageId === asked);
    return { asked, session: sessionOf(answered) };
  };
  const change = (c: Config): Config => ({ ...c, telegram: { ...c.telegram, groupSessions: sessions } });
  await withConfig(rig, change, () => test({ id, say, ask }));
}

/** What /help says in `chat` to `from`. */
async function helpIn(chat: number, from: number): Promise<string> {
  const asked = rig.tg.sendCommand(chat, "help", "", { from });
  return (await rig.botMessage(chat, (m) => m.replyToMessageId === asked)).text;
}

describe('telegram.group_sessions = "per_person"', () => {
  it("gives each member their own conversation: runs side by side, and a follow-up continues one's own", async () => {
    const [ann, bob] = [rig.user(1001), rig.user(1002)];
    await inGroup(-100_7001, [ann, bob], "per_person", async (group) => {
      // Ann's turn goes on until Bob has his answer: were the group one queue, he never would.
      const bobAnswered = gate();
      rig.script("[gs-ann]", [reply.text("Ann's answer.", { until: bobAnswered.until })]);
      const annAsked = group.say(ann, "look at the login [gs-ann]");
      await rig.api.waitForRequests(1, "[gs-ann]");
      const bob1 = await group.ask(bob, "look at the signup [gs-bob]", "Bob's answer.");
      bobAnswered.open();
      const annAnswer = await rig.botMessage(group.id, isAnswer("Ann's answer."));
      // Each answer quotes the message it answers, so the group sees whose it is.
      expect(annAnswer.replyToMessageId).toBe(annAsked);
      expect(sessionOf(annAnswer)).toBeDefined();
      expect(bob1.session).toBeDefined();
      expect(bob1.session).not.toBe(sessionOf(annAnswer));

      const ann2 = await group.ask(ann, "and the logout [gs-ann-2]", "Ann's second answer.");
      const bob2 = await group.ask(bob, "and the reset [gs-bob-2]", "Bob's second answer.");
      expect([ann2.session, bob2.session]).toEqual([sessionOf(annAnswer), bob1.session]);
      // Claude saw Ann's conversation alone: nothing of Bob's.
      const annSaw = JSON.stringify(rig.api.requests("[gs-ann-2]").at(-1)?.body);
      expect(annSaw).toContain("look at the login");
      expect(annSaw).not.toContain("signup");
    });
  });

  it("a colleague's tap on an answer's buttons, and their reply to it, go to that conversation, after a restart too", async () => {
    const [ann, bob] = [rig.user(1003), rig.user(1004)];
    await inGroup(-100_7002, [ann, bob], "per_person", async (group) => {
      rig.script("[gs-tap]", [reply.bash("touch gs-tap.txt", "Create a file"), reply.text("Created it.")]);
      group.say(ann, "create the file [gs-tap]");
      const prompt = await rig.botMessage(group.id, withButton("✅ Allow"));
      expect(prompt.text).not.toContain("Only"); // group_approvals = "anyone": any member answers
      await rig.app.stop();
      await rig.startApp();
      const tap = rig.tg.tapButton(group.id, prompt.messageId, "✅ Allow", { from: bob });
      expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Approved");
      const answer = await rig.botMessage(group.id, isAnswer("Created it."));
      expect(existsSync(join(rig.ws.cwd, "gs-tap.txt"))).toBe(true);

      rig.script("[gs-reply]", [reply.text("Checked it for Bob.")]);
      const replied = group.say(bob, "is it empty? [gs-reply]", { replyTo: answer.messageId });
      const continued = await rig.botMessage(group.id, (m) => isAnswer("Checked it for Bob.")(m));
      expect(continued.replyToMessageId).toBe(replied);
      expect(sessionOf(continued)).toBe(sessionOf(answer));
      // Bob's own words, not a reply, are his own conversation.
      const own = await group.ask(bob, "something else [gs-bob-own]", "Bob's own answer.");
      expect(own.session).not.toBe(sessionOf(answer));
    });
  });

  it("/new starts afresh only the sender's conversation; a member's /model is theirs, the group's until then", async () => {
    const [ann, bob] = [rig.user(1005), rig.user(1006)];
    await inGroup(-100_7003, [ann, bob], "per_person", async (group) => {
      const ann1 = await group.ask(ann, "first [gs-new-ann]", "Ann's first.");
      const bob1 = await group.ask(bob, "first [gs-new-bob]", "Bob's first.");
      const cleared = rig.tg.sendCommand(group.id, "new", "", { from: bob });
      await rig.botMessage(group.id, (m) => m.replyToMessageId === cleared);
      const modelSet = rig.tg.sendCommand(group.id, "model", "haiku", { from: bob });
      expect((await rig.botMessage(group.id, (m) => m.replyToMessageId === modelSet)).text).toMatch(/haiku/i);

      const ann2 = await group.ask(ann, "again [gs-new-ann-2]", "Ann's second.");
      const bob2 = await group.ask(bob, "again [gs-new-bob-2]", "Bob's second.");
      expect(ann2.session).toBe(ann1.session);
      expect(bob2.session).not.toBe(bob1.session);
      expect(rig.api.requests("[gs-new-bob-2]")[0]?.model).toMatch(/haiku/);
      expect(rig.api.requests("[gs-new-ann-2]")[0]?.model).not.toMatch(/haiku/);
      expect(await helpIn(group.id, ann)).toContain("each of you has a conversation of your own");
    });
  });

  it("/listen is the group's: one member's /listen all has the others' plain words answered too", async () => {
    const [ann, bob] = [rig.user(1009), rig.user(1010)];
    await inGroup(-100_7005, [ann, bob], "per_person", async (group) => {
      const set = rig.tg.sendCommand(group.id, "listen", "all", { from: ann });
      expect((await rig.botMessage(group.id, (m) => m.replyToMessageId === set)).text).toBe(
        "I now answer every message in this chat.",
      );
      rig.script("[gs-listen]", [reply.text("Heard Bob.")]);
      const asked = rig.tg.sendText(group.id, "no mention here [gs-listen]", { from: bob });
      expect((await rig.botMessage(group.id, isAnswer("Heard Bob."))).replyToMessageId).toBe(asked);
    });
  });
});

describe('telegram.group_sessions = "shared" (the default)', () => {
  it("makes the group's main view one conversation: a member's words continue another's session", async () => {
    const [ann, bob] = [rig.user(1007), rig.user(1008)];
    expect(rig.config.telegram.groupSessions).toBe("shared");
    await inGroup(-100_7004, [ann, bob], "shared", async (group) => {
      const ann1 = await group.ask(ann, "first [gs-shared-ann]", "Ann's answer.");
      const bob1 = await group.ask(bob, "then [gs-shared-bob]", "Bob's answer.");
      expect(bob1.session).toBe(ann1.session);
      expect(await helpIn(group.id, bob)).not.toContain("each of you");
    });
  });
});
