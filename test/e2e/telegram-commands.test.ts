// The bot's commands through the real bridge: registered at start, help, settings that stick
// (mode by buttons, model, effort, project, previews, listening in groups), status, usage,
// near-misses that run nothing, one-message directives, and /continue.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PINNED_CLAUDE_VERSION } from "../../src/cli/doctor-tested-range.js";
import { describeRange, testedRange } from "../../src/cli/doctor-version.js";
import { ANONYMOUS_ADMIN_TEXT, sentAsChannelText } from "../../src/telegram/bridge/access.js";
import { COMMANDS } from "../../src/telegram/index.js";
import { reply } from "../support/fake-anthropic/index.js";
import { fiveHourHeaders, GATEWAY_TOKEN } from "../support/fake-anthropic/usage-limits.js";
import { isAnswer, startRig, type Rig } from "../telegram/bridge/rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
});
afterAll(async () => {
  await rig?.dispose();
});

const command = (chat: number, name: string, args = ""): Promise<string> => rig.command(chat, name, args);

describe("commands", () => {
  it("are registered with setMyCommands at start, and /help lists them", async () => {
    await rig.tg.waitFor(() => rig.tg.commands().length > 0, { what: "setMyCommands" });
    expect(rig.tg.commands().map((c) => c.command)).toEqual(COMMANDS.map((c) => c.command));
    const chat = rig.user(1001);
    const help = await command(chat, "help");
    expect(help).toContain("Telecode runs Claude Code on your computer");
    expect(help).toContain("reply to anyone else's message (a log, a screenshot, a voice note)");
    expect(help).toContain("A 💬 button under an answer sends Claude Code's guess at your next message.");
    for (const { command: name } of COMMANDS.filter((c) => c.command !== "start")) expect(help).toContain(`/${name}`);
  });

  it("change the chat's settings, which /status shows and the store keeps", async () => {
    const chat = rig.user(1002);
    const id = rig.tg.sendCommand(chat, "mode");
    const picker = await rig.botMessage(chat, (m) => m.replyToMessageId === id);
    expect(picker.buttons.map((b) => b.text)).toEqual([
      "• default · asks before changes",
      "acceptEdits · edits without asking",
      "plan · plans, changes nothing",
      "plan-auto · plans, then does it",
      "auto · acts without asking",
      "dontAsk · only pre-approved tools",
    ]);
    const query = rig.tg.tapButton(chat, picker.messageId, "acceptEdits · edits without asking");
    expect((await rig.tg.waitForCallbackAnswer(query)).text).toBe("Mode: acceptEdits");
    await rig.tg.waitFor(() => rig.tg.message(chat, picker.messageId)?.text.includes("Mode is now acceptEdits"), {
      what: "the picker settled",
    });
    expect(rig.tg.message(chat, picker.messageId)?.buttons).toEqual([]);

    // No session has started in this Telecode yet: the CLI checks the name at the next message.
    expect(await command(chat, "model", "claude-test-model")).toContain(
      "Model is now claude-test-model from the next message. Claude Code checks the name then",
    );
    expect(await command(chat, "effort", "high")).toContain("Effort is now high");
    expect(await command(chat, "effort", "enormous")).toContain("Unknown effort");
    expect(await command(chat, "preview", "on")).toContain("Previews are now on");
    expect(await command(chat, "project", "app")).toContain("Project is now app");
    expect(await command(chat, "project", "nope")).toContain("No project “nope”");
    expect(await command(chat, "planmode", "auto")).toContain("mode is now plan-auto");
    expect(await command(chat, "planmode")).toContain("Plan mode is auto");

    const status = await command(chat, "status");
    expect(status).toContain("Project: app");
    expect(status).toContain("Mode: plan-auto · Model: claude-test-model · Effort: high");
    expect(status).toContain("Previews: on");
    expect(status).toContain(
      `\nClaude Code: ${PINNED_CLAUDE_VERSION}, within the tested range (${describeRange(testedRange())})\n`,
    );
    expect(rig.app.store.chats.get(chat)).toMatchObject({
      mode: "plan-auto",
      model: "claude-test-model",
      effort: "high",
      project: "app",
      preview: true,
    });

    expect(await command(chat, "model", "default")).toContain("the CLI's default");
    expect(rig.app.store.chats.get(chat).model).toBeNull();
  });

  it("a word a command does not take gets its usage and changes nothing", async () => {
    const chat = rig.user(1007);
    expect(await command(chat, "planmode", "maybe")).toBe(
      "/planmode does not take “maybe”, so nothing changed. Use /planmode on, auto, off or show.",
    );
    expect(await command(chat, "preview", "yes")).toContain("/preview does not take “yes”");
    expect(await command(chat, "listen", "everyone")).toContain("/listen does not take “everyone”");
    expect(rig.app.store.chats.get(chat)).toMatchObject({ mode: null, preview: false, listenToAll: false });
    expect(await command(chat, "planmode", "show")).toContain("Plan mode is off");
  });

  it("near-misses and unknown commands get a hint and run nothing", async () => {
    const chat = rig.user(1003);
    expect(await command(chat, "neww")).toContain("Did you mean /new?");
    expect(await command(chat, "frobnicate")).toContain("I don't know the command /frobnicate");
    const id = rig.tg.sendText(chat, ".new");
    expect((await rig.botMessage(chat, (m) => m.replyToMessageId === id)).text).toContain(
      "Commands start with a slash: did you mean /new?",
    );
    expect(rig.app.store.runs.recent(chat)).toEqual([]);
    expect(rig.app.bridge.sessions.status(chat)).toEqual([]);
  });

  it("in a group, the bot answers only when addressed, unless told to /listen all", async () => {
    const chat = rig.user(1004);
    const group = -100_300;
    rig.tg.addGroup({ id: group, memberIds: [chat] });
    rig.tg.sendText(group, "just chatting among ourselves", { from: chat });
    const listen = await command(group, "listen", "all");
    expect(listen).toContain("every message");
    expect(rig.app.store.chats.get(group).listenToAll).toBe(true);
    expect(rig.tg.botMessages(group)).toHaveLength(1);
    expect(rig.app.store.runs.recent(group)).toEqual([]);
  });

  it("in a group, a task sent as the group (an anonymous admin) or as a channel is answered with how to send it as yourself", async () => {
    const person = rig.user(1020);
    const group = -100_320;
    rig.tg.addGroup({ id: group, memberIds: [person] });
    rig.tg.sendText(group, "we are anonymous here", { from: person, sentAs: "group" });
    const anonymous = rig.tg.sendText(group, "@telecode_test_bot fix the build", { from: person, sentAs: "group" });
    expect((await rig.botMessage(group, (m) => m.replyToMessageId === anonymous)).text).toBe(ANONYMOUS_ADMIN_TEXT);
    const channel = { channelId: -100_999, title: "Ann's <dev> notes" };
    const asChannel = rig.tg.sendText(group, "/status", { from: person, sentAs: channel });
    expect((await rig.botMessage(group, (m) => m.replyToMessageId === asChannel)).text).toBe(
      sentAsChannelText("Ann's <dev> notes"),
    );
    // The first, not addressed to the bot, got nothing; nothing ran.
    expect(rig.tg.botMessages(group)).toHaveLength(2);
    expect(rig.app.store.runs.recent(group)).toEqual([]);
  });

  it("/usage reports the session's and today's cost", async () => {
    const chat = rig.user(1005);
    // Before any session: nothing to count yet, said so rather than as $0.00.
    const before = (await command(chat, "usage")).split("\n");
    expect(before[1]).toBe("This session: none yet (the next message starts one)");
    expect(before[2]).toMatch(/^Today \(all chats\): (no runs yet|\$\d+\.\d+ over \d+ runs?)$/);
    rig.script("[usage]", [reply.text("Counted.")]);
    rig.tg.sendText(chat, "Cost something [usage]");
    await rig.botMessage(chat, isAnswer("Counted."));
    const usage = await command(chat, "usage");
    expect(usage).toMatch(/This session: \$0\.\d{4}/);
    expect(usage).toMatch(/Today \(all chats\): \$\d+\.\d+ over \d+ runs?/);
    expect(usage).not.toMatch(/This session: \$0\.00(?!\d)/);
    // An API key: no usage limits to report, and the amounts are what it is billed.
    expect(usage.split("\n")).toHaveLength(3);
  });

  it("/new with words starts a fresh session with them at once", async () => {
    const chat = rig.user(1009);
    rig.script("[fresh-1]", [reply.text("Old session.")]);
    rig.tg.sendText(chat, "Something old [fresh-1]");
    await rig.botMessage(chat, isAnswer("Old session."));
    rig.script("[fresh-2]", [reply.text("Fresh start.")]);
    rig.tg.sendCommand(chat, "new", "Something new [fresh-2]");
    await rig.botMessage(chat, isAnswer("Fresh start."));
    const history = JSON.stringify(rig.api.requests("[fresh-2]")[0]?.body["messages"]);
    expect(history).toContain("Something new [fresh-2]");
    expect(history).not.toContain("Something old");
  });

  it("/model offers Claude Code's models as buttons and refuses a name it does not offer, once a session has started", async () => {
    const chat = rig.user(1008);
    rig.script("[models]", [reply.text("Listed.")]);
    rig.tg.sendText(chat, "Start a session [models]");
    await rig.botMessage(chat, isAnswer("Listed."));
    // Once Claude Code has listed its models, /status says which one "default" is.
    expect(await command(chat, "status")).toContain("· Model: default (claude-opus-5-5) ·");
    const refused = await command(chat, "model", "gpt-5");
    expect(refused).toMatch(
      /^Claude Code does not offer “gpt-5”, so the model stays the CLI's default\. Choose one of /,
    );
    expect(refused).toContain("opus (claude-opus-5-5)");
    expect(refused).toContain("sonnet (claude-sonnet-5-5)");
    expect(rig.app.store.chats.get(chat).model).toBeNull();
    expect(await command(chat, "model", "Sonnet")).toContain("Model is now sonnet from the next message.");
    expect(await command(chat, "model", "claude-haiku-5-5")).toContain("Model is now claude-haiku-5-5");
    // Without a name: what each model is and costs, as Claude Code describes it, and a button each.
    const ask = rig.tg.sendCommand(chat, "model");
    const picker = await rig.botMessage(chat, (m) => m.replyToMessageId === ask);
    expect(picker.text).toContain("Model: claude-haiku-5-5. Claude Code offers:");
    expect(picker.text).toContain("• opus — Opus 5.5 · Best for everyday, complex tasks · $4/$20 per Mtok");
    expect(picker.buttons.map((b) => b.text)).toEqual(["default", "opus", "fable", "sonnet", "• haiku"]);
    expect(await command(chat, "status")).toContain("· Model: claude-haiku-5-5 ·");
    const tap = rig.tg.tapButton(chat, picker.messageId, "sonnet");
    expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Model: sonnet");
    await rig.tg.waitFor(() => rig.tg.message(chat, picker.messageId)?.text.startsWith("Model is now sonnet"), {
      what: "the picker saying what was chosen",
    });
    expect(rig.app.store.chats.get(chat).model).toBe("sonnet");
    expect(await command(chat, "status")).toContain("· Model: sonnet (claude-sonnet-5-5) ·");
    const again = rig.tg.sendCommand(chat, "model");
    const back = await rig.botMessage(chat, (m) => m.replyToMessageId === again);
    rig.tg.tapButton(chat, back.messageId, "default");
    await rig.tg.waitFor(() => rig.app.store.chats.get(chat).model === null || undefined, {
      what: "the CLI's default chosen again",
    });
  });

  it("a directive line picks the mode for one message; /continue resumes the latest conversation in the project", async () => {
    const chat = rig.user(1006);
    rig.script("[directive]", [reply.text("Planned only.")]);
    rig.tg.sendText(chat, "/plan think about it [directive]");
    await rig.botMessage(chat, isAnswer("Planned only."));
    expect(rig.api.requests("[directive]")[0]?.lastPrompt).toBe("think about it [directive]");
    expect(rig.tg.botMessages(chat)[0]?.revisions.some((r) => /· plan\b/.test(r.text))).toBe(true);
    expect(rig.app.store.chats.get(chat).mode).toBeNull();

    await command(chat, "new");
    rig.script("[continued]", [reply.text("Continued the latest one.")]);
    rig.tg.sendCommand(chat, "continue", "and then? [continued]");
    await rig.botMessage(chat, isAnswer("Continued the latest one."));
    const history = JSON.stringify(rig.api.requests("[continued]")[0]?.body["messages"]);
    expect(history).toContain("think about it [directive]");
  });
});

describe("/usage with a token Claude Code reports usage limits for", () => {
  let limited: Rig;
  beforeAll(async () => {
    limited = await startRig({ env: { ANTHROPIC_AUTH_TOKEN: GATEWAY_TOKEN }, unsetEnv: ["ANTHROPIC_API_KEY"] });
  });
  afterAll(async () => {
    await limited?.dispose();
  });

  it("says where the limit stands, and with a subscription login what the amounts mean", async () => {
    const chat = limited.user(1001);
    const nearly = {
      ...fiveHourHeaders("allowed_warning", "0.91"),
      "anthropic-ratelimit-unified-5h-surpassed-threshold": "0.9",
    };
    limited.script("[limit]", [reply.text("Nearly out.", { headers: nearly })]);
    limited.tg.sendText(chat, "Use some [limit]");
    await limited.botMessage(chat, isAnswer("Nearly out."));
    const usage = (await limited.command(chat, "usage")).split("\n");
    // The reset is years ahead, so it carries the date (in this machine's zone).
    expect(usage.slice(3)).toEqual([
      expect.stringMatching(/^5h limit: 91% used, resets \d\d:\d\d on 1[78] March 2030$/),
    ]);

    const config = limited.config;
    limited.config = { ...config, claude: { ...config.claude, useApiBilling: false } };
    const subscription = (await limited.command(chat, "usage")).split("\n");
    limited.config = config;
    expect(subscription.slice(3)).toEqual([
      usage[3],
      "The amounts are what the same tokens would cost on the API; your Claude subscription covers them, up to its usage limits.",
    ]);

    // The latest report of a limit is the one shown.
    limited.script("[eased]", [reply.text("Fine again.", { headers: fiveHourHeaders("allowed", "0.2") })]);
    limited.tg.sendText(chat, "Use a little [eased]");
    await limited.botMessage(chat, isAnswer("Fine again."));
    expect((await limited.command(chat, "usage")).split("\n")[3]).toMatch(
      /^5h limit: below its warning level, resets \d\d:\d\d on 1[78] March 2030$/,
    );

    const rejected = reply.error(429, {
      errorType: "rate_limit_error",
      headers: { ...fiveHourHeaders("rejected", "1.0"), "retry-after": "1" },
    });
    limited.script("[spent]", [rejected, rejected]);
    limited.tg.sendText(chat, "Use more [spent]");
    await limited.botMessage(chat, /^❌ API error 429/);
    expect((await limited.command(chat, "usage")).split("\n")[3]).toMatch(
      /^5h limit: reached, resets \d\d:\d\d on 1[78] March 2030$/,
    );
    // A restart does not forget it: no run needs to meet the limit again to show it.
    await limited.app.stop();
    await limited.startApp();
    expect((await limited.command(chat, "usage")).split("\n")[3]).toMatch(
      /^5h limit: reached, resets \d\d:\d\d on 1[78] March 2030$/,
    );
  });
});

describe("with claude.dangerously_skip_permissions = true and a Claude Code newer than tested", () => {
  it("/status warns that every tool runs without asking, and what a newer Claude Code means", async () => {
    const newer = join(await mkdtemp(join(tmpdir(), "telecode-newer-cli-")), "claude");
    await writeFile(newer, '#!/bin/sh\necho "2.1.400 (Claude Code)"\n', { mode: 0o755 });
    const risky = await startRig({ claude: ["dangerously_skip_permissions = true"], claudePath: newer });
    try {
      const chat = risky.user(1001);
      const id = risky.tg.sendCommand(chat, "status", "");
      const status = (await risky.botMessage(chat, (m) => m.replyToMessageId === id)).text;
      expect(status).toContain("claude.dangerously_skip_permissions is on");
      expect(status).toContain(
        `\n⚠️ Claude Code: 2.1.400 is newer than the tested range (${describeRange(testedRange())}); ` +
          "lines it prints that Telecode does not know yet are left out (the log names their types)\n",
      );
    } finally {
      await risky.dispose();
      await rm(dirname(newer), { recursive: true, force: true });
    }
  });
});
