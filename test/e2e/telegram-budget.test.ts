// [budget] through the real bridge and the real CLI: a run is stopped while it works once it,
// its chat's day or all chats' day reaches a cap, and the chat is told once as spending nears
// one; a request a day's cap refuses is kept, with Retry, and runs at a tap once the cap is
// raised (read live from the config); /usage says where the caps stand. The fake Messages API
// reports each call's tokens; Telecode prices them as Claude Code does.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { estimateStepCostUsd, localDay } from "../../src/domain/index.js";
import { reply, type FakeMessageReply } from "../support/fake-anthropic/index.js";
import type { MessageView } from "../support/fake-bot-api/index.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

/** The model Claude Code answers with here (its default), whose list prices the estimates use. */
const MODEL = "claude-opus-5-5";
const PER_INPUT_TOKEN =
  estimateStepCostUsd({
    model: MODEL,
    inputTokens: 1_000_000,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: 0,
  }) / 1_000_000;
/** A reply whose call costs about `usd` (its input tokens; its few output tokens add a hundredth of a cent). */
const costing = (usd: number, reply: FakeMessageReply): FakeMessageReply => ({
  ...reply,
  inputTokens: Math.round(usd / PER_INPUT_TOKEN),
});
describe("[budget]", () => {
  let rig: Rig;
  let original: string;
  beforeAll(async () => {
    rig = await startRig();
    original = await readFile(rig.configPath, "utf8");
    await writeFile(join(rig.ws.cwd, "notes.md"), "# Notes\n");
  });
  afterAll(async () => {
    await rig?.dispose();
  });

  /** Rewrites the config's [budget] table and reloads it, as a person editing the file does. */
  async function setBudget(...lines: string[]): Promise<void> {
    await writeFile(rig.configPath, `${original}\n[budget]\n${lines.join("\n")}\n`);
    rig.config = loadConfig({ configPath: rig.configPath, env: { HOME: rig.ws.home } }).config;
    await rig.app.configChanged();
  }

  /** A call that reads a file of the project (no approval asked) and costs about `usd`. */
  const looking = (usd: number): FakeMessageReply =>
    costing(usd, reply.tool("Read", { file_path: join(rig.ws.cwd, "notes.md") }, "Looking."));
  const buttonsOf = (chat: number, message: MessageView): string[] =>
    (rig.tg.message(chat, message.messageId)?.buttons ?? []).map((b) => b.text);
  const todaySpent = (): number => rig.app.store.usage.forDay(localDay(new Date())).costUsd;

  it("stops a run that reaches per_run_usd while it works, after warning once at warn_percent", async () => {
    await setBudget("per_run_usd = 1", "warn_percent = 50");
    const chat = rig.user(1001);
    rig.script("[run-cap]", [looking(0.6), looking(0.6), reply.text("RUN-CAP-NEVER", { delayMs: 20_000 })]);
    rig.tg.sendText(chat, "Survey the docs [run-cap]");

    const warned = await rig.botMessage(chat, "This run has cost about");
    expect(warned.text).toMatch(
      /^⚠️ This run has cost about \$0\.60\d*, 60% of the \$1\.00 a run that \[budget\] per_run_usd allows; it is stopped there\.$/,
    );
    const stopped = await rig.botMessage(chat, "Stopped this run");
    expect(stopped.text).toMatch(
      /^⏹ Stopped this run: it had cost about \$1\.20, against the \$1\.00 a run that \[budget\] per_run_usd allows\. Raise per_run_usd in the config \(no restart needed\) to let runs go further\.$/,
    );
    await rig.botMessage(chat, (m) => m.text.includes("⏹ Cancelled"));
    expect(rig.tg.botMessages(chat).some(isAnswer("RUN-CAP-NEVER"))).toBe(false);
    // Warned once, though the second call was past the warning share too.
    expect(rig.tg.botMessages(chat).filter((m) => m.text.includes("This run has cost about"))).toHaveLength(1);
  }, 90_000);

  it("stops a chat's run at per_chat_usd, keeps its next request with Retry, and runs it once the cap is raised", async () => {
    await setBudget("per_chat_usd = 2", "warn_percent = 50");
    const chat = rig.user(1002);
    rig.script("[chat-cap]", [
      costing(1.2, reply.text("CHAT-CAP-FIRST")),
      looking(1.2),
      reply.text("NEVER", { delayMs: 20_000 }),
    ]);
    rig.tg.sendText(chat, "First look [chat-cap]");
    await rig.botMessage(chat, isAnswer("CHAT-CAP-FIRST"));
    const warned = await rig.botMessage(chat, "This chat's runs have cost about");
    expect(warned.text).toMatch(
      /^⚠️ This chat's runs have cost about \$1\.20 today, 60% of the \$2\.00 a chat a day that \[budget\] per_chat_usd allows; there the running ones stop, and new messages wait for midnight\.$/,
    );

    rig.tg.sendText(chat, "Go on");
    const stopped = await rig.botMessage(chat, "Stopped this run");
    expect(stopped.text).toMatch(
      /^⏹ Stopped this run: this chat's runs had cost about \$2\.40 today, against the \$2\.00 a chat a day that \[budget\] per_chat_usd allows\. Until midnight on this computer new messages do not run \(each gets a Retry button\); raising the cap in the config \(no restart needed\) lifts that\.$/,
    );
    await rig.botMessage(chat, (m) => m.text.includes("⏹ Cancelled"));

    // Another chat is under its own cap.
    const other = rig.user(1003);
    rig.script("[other-chat]", [reply.text("OTHER-CHAT-ANSWER")]);
    rig.tg.sendText(other, "Meanwhile [other-chat]");
    await rig.botMessage(other, isAnswer("OTHER-CHAT-ANSWER"));

    const asked = rig.tg.sendText(chat, "Write the summary [chat-cap-kept]");
    const refused = await rig.botMessage(chat, (m) => m.text.includes("Not run:"));
    expect(refused.text).toMatch(
      /^⚠️ Not run: this chat's runs have cost \$2\.4\d* today, against the \$2\.00 a chat a day that \[budget\] per_chat_usd allows\. Raise the cap in the config \(no restart needed\) and tap Retry, or tap it after midnight\.$/,
    );
    expect(refused.replyToMessageId).toBe(asked);
    await rig.tg.waitFor(() => (buttonsOf(chat, refused).length > 0 ? true : undefined), { what: "Retry" });
    expect(buttonsOf(chat, refused)).toEqual(["🔁 Retry"]);
    expect(rig.api.requests("[chat-cap-kept]")).toHaveLength(0);
    expect(await rig.command(chat, "usage")).toMatch(/Budget: this chat \$2\.40? today \(cap \$2\.00\)/);

    await setBudget("per_chat_usd = 10");
    rig.script("[chat-cap-kept]", [reply.text("KEPT-REQUEST-ANSWER")]);
    const tapped = rig.tg.tapButton(chat, refused.messageId, "🔁 Retry");
    expect((await rig.tg.waitForCallbackAnswer(tapped)).text).toBe("Running it now");
    await rig.botMessage(chat, isAnswer("KEPT-REQUEST-ANSWER"));
    expect(rig.api.requests("[chat-cap-kept]").at(-1)?.lastPrompt).toContain("Write the summary [chat-cap-kept]");
  }, 120_000);

  it("stops every chat's runs at per_day_usd and says where the caps stand in /usage", async () => {
    const chat = rig.user(1004);
    const capUsd = Math.ceil((todaySpent() + 0.5) * 100) / 100;
    await setBudget(`per_day_usd = ${capUsd}`, "per_run_usd = 50", "warn_percent = 0");
    rig.script("[day-cap]", [looking(1), reply.text("NEVER", { delayMs: 20_000 })]);
    rig.tg.sendText(chat, "Dig in [day-cap]");
    const stopped = await rig.botMessage(chat, "Stopped this run");
    expect(stopped.text).toContain("all chats' runs had cost about $");
    expect(stopped.text).toContain(`against the $${capUsd.toFixed(2)} a day that [budget] per_day_usd allows.`);
    await rig.botMessage(chat, (m) => m.text.includes("⏹ Cancelled"));
    // warn_percent = 0: no warning.
    expect(rig.tg.botMessages(chat).some((m) => m.text.startsWith("⚠️"))).toBe(false);

    const elsewhere = rig.user(1005);
    rig.tg.sendText(elsewhere, "Anything [day-cap-other]");
    const refused = await rig.botMessage(elsewhere, (m) => m.text.includes("Not run:"));
    expect(refused.text).toContain("⚠️ Not run: all chats' runs have cost $");
    expect(rig.api.requests("[day-cap-other]")).toHaveLength(0);
    const usage = await rig.command(elsewhere, "usage");
    expect(usage).toMatch(
      new RegExp(
        `Budget: \\$50\\.00 a run · all chats \\$\\d+\\.\\d+ today \\(cap \\$${capUsd.toFixed(2).replace(".", "\\.")}\\)`,
      ),
    );
  }, 90_000);
});
