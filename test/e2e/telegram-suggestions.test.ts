// Claude Code's guess at the next message, through the real bridge and the real CLI: after an
// answer (not the first of a conversation), the button under it sends the guess as the person's
// next message in that answer's session; a turn starting in the chat takes the button away. The
// fake Messages API reports a warm prompt cache, as the real one does: Claude Code makes no
// guess on a cold one. With `claude.prompt_suggestions = false` none is asked for.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply, suggestionsFor, type FakeMessageReply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";

/** A reply as the real API gives it mid-conversation: most of the prompt read from the cache. */
const warm = (text: string): FakeMessageReply => reply.text(text, { cacheReadTokens: 4000 });

type Turn = { ask: string; answer: string };

/** Claude Code's next guess in the conversation under `marker` (the fake keeps guesses apart from its replies). */
const guess = (rig: Rig, marker: string, text: string): void => rig.script(suggestionsFor(marker), [warm(text)]);

describe("a suggested next message", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.dispose();
  });

  const buttonsOf = (chat: number, message: MessageView): string[] =>
    (rig.tg.message(chat, message.messageId)?.buttons ?? []).map((b) => b.text);
  /** Resolves once the message shows a button (the guess comes a moment after the answer). */
  const aButton = (chat: number, message: MessageView): Promise<unknown> =>
    rig.tg.waitFor(() => (buttonsOf(chat, message).length > 0 ? true : undefined), { what: "the guess's button" });
  /** Resolves once the message's buttons are gone (an edit queued after what the chat shows). */
  const noButtons = (chat: number, message: MessageView): Promise<unknown> =>
    rig.tg.waitFor(() => (buttonsOf(chat, message).length === 0 ? true : undefined), { what: "no buttons" });

  /**
   * A conversation of two requests under `marker` (the first carries it); resolves with both
   * answers once Claude Code's guess, `guessed`, is a button under the second.
   */
  async function twoTurns(
    chat: number,
    marker: string,
    turns: readonly [Turn, Turn],
    guessed: string,
  ): Promise<[MessageView, MessageView]> {
    rig.script(marker, [warm(turns[0].answer), warm(turns[1].answer)]);
    guess(rig, marker, guessed);
    const answerTo = async (text: string, { answer }: Turn): Promise<MessageView> => {
      rig.tg.sendText(chat, text);
      return rig.botMessage(chat, isAnswer(answer));
    };
    const first = await answerTo(`${turns[0].ask} ${marker}`, turns[0]);
    const second = await answerTo(turns[1].ask, turns[1]);
    await aButton(chat, second);
    return [first, second];
  }

  it("is a button under the answer that sends it in that answer's session; the next turn takes it away", async () => {
    const chat = rig.user(1001);
    const [first, fixed] = await twoTurns(
      chat,
      "[parser]",
      [
        {
          ask: "Why does the parser lose lines?",
          answer: "The parser drops the last line when the file has no trailing newline.",
        },
        { ask: "Fix it", answer: "Fixed: the parser keeps a last line without a newline." },
      ],
      "run the tests",
    );
    expect(buttonsOf(chat, fixed)).toEqual(["💬 run the tests"]);
    // None under the first: Claude Code guesses once the conversation holds two of Claude's messages.
    expect(buttonsOf(chat, first)).toEqual([]);

    rig.script("[parser]", [warm("All 48 tests pass.")]);
    guess(rig, "[parser]", "commit the fix");
    const tapped = rig.tg.tapButton(chat, fixed.messageId, "💬 run the tests");
    expect((await rig.tg.waitForCallbackAnswer(tapped)).text).toBe("Sending it");
    const answer = await rig.botMessage(chat, isAnswer("All 48 tests pass."));
    expect(sessionOf(answer)).toBe(sessionOf(fixed));
    const asked = rig.api.requests("[parser]");
    expect(asked.at(-1)?.lastPrompt).toBe("run the tests");
    expect(JSON.stringify(asked.at(-1)?.body["messages"])).toContain("Why does the parser lose lines?");
    // The run says what was sent, above its progress and on its summary.
    const summary = rig.tg.botMessages(chat).find((m) => m.text.startsWith("💬 run the tests\n"));
    expect(summary?.replyToMessageId).toBe(fixed.messageId);
    await noButtons(chat, fixed);

    // The new answer has its own; a message of the person's takes it away, and it no longer runs.
    await aButton(chat, answer);
    expect(buttonsOf(chat, answer)).toEqual(["💬 commit the fix"]);
    rig.script("[parser]", [warm("Yes: `parseLine()` is the only caller.")]);
    rig.tg.sendText(chat, "Is parseLine the only caller?");
    await rig.botMessage(chat, isAnswer("Yes: parseLine() is the only caller."));
    await noButtons(chat, answer);
  });

  it("a tap on a guess the conversation has moved past runs nothing", async () => {
    const chat = rig.user(1002);
    const [, added] = await twoTurns(
      chat,
      "[docs]",
      [
        { ask: "How many commands does the README list?", answer: "The README lists 9 commands." },
        { ask: "Add /sessions", answer: "Added /sessions to the list." },
      ],
      "show me the diff",
    );
    const data = rig.tg.message(chat, added.messageId)?.buttons[0]?.data ?? "";

    rig.script("[docs]", [warm("Done.")]);
    rig.tg.sendText(chat, "Also /btw");
    await rig.botMessage(chat, isAnswer("Done."));
    await noButtons(chat, added);
    const requests = rig.api.requests("[docs]").length;
    // A tap Telegram still delivers (from a copy of the message shown before) runs nothing.
    const stale = rig.tg.forgeCallback(chat, added.messageId, data);
    expect((await rig.tg.waitForCallbackAnswer(stale)).text).toBe(
      "No longer offered: send it as a message if you still want it",
    );
    expect(rig.api.requests("[docs]").length).toBe(requests);
  });

  it("a guess offered before a restart of Telecode goes away when tapped after it", async () => {
    const chat = rig.user(1003);
    const [, faster] = await twoTurns(
      chat,
      "[build]",
      [
        { ask: "How long does the build take?", answer: "The build takes 40 s." },
        { ask: "Make it faster", answer: "Cached the dependencies: 12 s now." },
      ],
      "push it",
    );

    await rig.app.stop();
    await rig.startApp();
    const tapped = rig.tg.tapButton(chat, faster.messageId, "💬 push it");
    expect((await rig.tg.waitForCallbackAnswer(tapped)).text).toBe(
      "No longer offered: send it as a message if you still want it",
    );
    await noButtons(chat, faster);
    expect(rig.api.requests("[build]")).toHaveLength(2);
  });
});

describe("with claude.prompt_suggestions = false", () => {
  let rig: Rig;
  beforeAll(async () => {
    rig = await startRig({ claude: ["prompt_suggestions = false"] });
  });
  afterAll(async () => {
    await rig?.dispose();
  });

  it("Claude Code is not asked for a guess, and /help does not offer one", async () => {
    const chat = rig.user(1001);
    rig.script("[off]", [warm("Looked at it."), warm("Fixed it."), warm("Checked again.")]);
    guess(rig, "[off]", "run the tests");
    rig.tg.sendText(chat, "Look at the bug [off]");
    await rig.botMessage(chat, isAnswer("Looked at it."));
    rig.tg.sendText(chat, "Fix it");
    const fixed = await rig.botMessage(chat, isAnswer("Fixed it."));
    rig.tg.sendText(chat, "Check again");
    await rig.botMessage(chat, isAnswer("Checked again."));
    expect(rig.api.guesses()).toEqual([]);
    // And /help does not promise the button.
    expect(await rig.command(chat, "help")).not.toContain("💬");
    expect(rig.tg.message(chat, fixed.messageId)?.buttons ?? []).toEqual([]);
  });
});
