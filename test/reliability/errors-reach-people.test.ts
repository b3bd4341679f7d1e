// Issue 16, errors people read: a session the CLI cannot resume says so, in the terminal and
// in Telegram (not "error_during_execution") with a button that runs it in a new session, and
// the chat lets go of it (a plain message then starts a fresh session and says so); a config is checked in one pass
// (schema problems do not hide project checks); a duration past Node's timer limit is refused
// at load instead of firing at once.
import { readdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer, olderAndNewer, sessionOf, startRig, type Rig } from "../telegram/bridge/rig.js";
import { useWorld } from "./helpers.js";

const newWorld = useWorld();
const UNKNOWN_SESSION = "0b0e9a43-1111-4222-8333-944445555666";

describe("resuming a session the CLI does not have", () => {
  it("telecode run --resume says the session is gone", async () => {
    const world = await newWorld();
    await world.writeConfig();
    const run = await world.run(["--resume", UNKNOWN_SESSION, "--approve", "none", "Carry on"]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `error: Claude Code no longer has session ${UNKNOWN_SESSION.slice(0, 8)} on this computer (its transcript is gone), so the message was not run.`,
    );
    expect(world.api.requests()).toEqual([]);
  });

  describe("in Telegram", () => {
    let rig: Rig;
    beforeAll(async () => {
      rig = await startRig();
    });
    afterAll(async () => {
      await rig?.dispose();
    });

    it("a reply to an answer whose transcript is gone says so", async () => {
      const chat = rig.user(1001);
      rig.script("[first]", [reply.text("First answer.")]);
      rig.tg.sendText(chat, "Start something [first]");
      const answer = await rig.botMessage(chat, isAnswer("First answer."));
      await rig.app.stop();
      // The CLI's transcripts are gone (cleared by hand, another machine, `claude purge`).
      await rm(join(rig.ws.home, ".claude", "projects"), { recursive: true, force: true });
      await rig.startApp();
      rig.tg.sendText(chat, "Carry on [carry]", { replyTo: answer.messageId });
      const error = await rig.botMessage(chat, /^❌ /);
      expect(error.text).toMatch(
        /^❌ Claude Code no longer has session [0-9a-f]{8} on this computer \(its transcript is gone\), so the message was not run\./,
      );
      expect(error.text).not.toContain("error_during_execution");
      // It was the chat's current session: the chat lets go of it instead of failing every message.
      expect(error.text).toContain(
        "so the message was not run. Tap Run it in a new session to run it now. The next message starts a fresh session.",
      );
      // The message need not be typed again: a tap sends it into a new session.
      expect(error.buttons.map((b) => b.text)).toEqual(["▶️ Run it in a new session"]);
      const data = error.buttons[0]!.data!;
      rig.script("[carry]", [reply.text("Carried on afresh.")]);
      const tap = rig.tg.tapButton(chat, error.messageId, "▶️ Run it in a new session");
      expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Running it in a new session");
      const again = await rig.botMessage(chat, isAnswer("Carried on afresh."));
      expect(sessionOf(again)).toBeDefined();
      expect(sessionOf(again)).not.toBe(sessionOf(answer));
      const [request] = rig.api.requests("[carry]");
      expect(request!.lastPrompt).toBe("Carry on [carry]");
      expect(JSON.stringify(request!.body["messages"])).not.toContain("Start something");
      expect(rig.tg.message(chat, error.messageId)?.buttons).toEqual([]);
      // A second tap (from a client that still shows the button) runs nothing.
      const late = rig.tg.forgeCallback(chat, error.messageId, data);
      expect((await rig.tg.waitForCallbackAnswer(late)).text).toBe("Already sent again");
      rig.script("[after-lost]", [reply.text("A fresh start.")]);
      rig.tg.sendText(chat, "Start again [after-lost]");
      const fresh = await rig.botMessage(chat, isAnswer("A fresh start."));
      expect(sessionOf(fresh)).toBe(sessionOf(again));
      expect(rig.api.requests("[carry]")).toHaveLength(1);
    });

    it("a message in a chat whose session is gone starts a fresh one, and says so", async () => {
      const chat = rig.user(1003);
      rig.script("[month-ago]", [reply.text("Long ago.")]);
      rig.tg.sendText(chat, "Start something [month-ago]");
      const answer = await rig.botMessage(chat, isAnswer("Long ago."));
      await rig.app.stop();
      // The CLI deletes transcripts it has not used for a while (cleanupPeriodDays, 30 by default).
      const [lost] = (await readdir(rig.ws.transcripts)).filter((f) => f.startsWith(sessionOf(answer)!));
      await rm(join(rig.ws.transcripts, lost!));
      await rig.startApp();
      // A slow answer: the progress message is edited many times while the run works.
      rig.script("[back]", [reply.text("Starting over.", { delayMs: 1500 })]);
      rig.tg.sendText(chat, "Where were we? [back]");
      const notice = await rig.botMessage(chat, /^⚠️ /);
      expect(notice.text).toBe(
        `⚠️ Claude Code no longer has session ${sessionOf(answer)} on this computer (its transcript is gone), so this message starts a fresh session.`,
      );
      const fresh = await rig.botMessage(chat, isAnswer("Starting over."));
      // Said once, in its own message: the progress message does not repeat it.
      const saying = rig.tg
        .writeCalls(chat)
        .filter((c) => typeof c.params["text"] === "string" && c.params["text"].includes("no longer has session"));
      expect(saying.map((c) => c.method)).toEqual(["sendMessage"]);
      expect(sessionOf(fresh)).not.toBe(sessionOf(answer));
      expect(rig.tg.botMessages(chat).filter((m) => m.text.startsWith("❌"))).toEqual([]);
      const [request] = rig.api.requests("[back]");
      expect(JSON.stringify(request!.body["messages"])).not.toContain("Start something");
      // The fresh session is the chat's from now on.
      rig.script("[after]", [reply.text("Still fresh.")]);
      rig.tg.sendText(chat, "And then? [after]");
      expect(sessionOf(await rig.botMessage(chat, isAnswer("Still fresh.")))).toBe(sessionOf(fresh));
    });

    it("a reply to an older answer whose transcript is gone leaves the current session as it is", async () => {
      const chat = rig.user(1002);
      const { older, newer } = await olderAndNewer(rig, chat, "gone");
      await rig.app.stop();
      const [lost] = (await readdir(rig.ws.transcripts)).filter((f) => f.startsWith(sessionOf(older)!));
      await rm(join(rig.ws.transcripts, lost!));
      await rig.startApp();
      rig.tg.sendText(chat, "More on the old one", { replyTo: older.messageId });
      const error = await rig.botMessage(chat, /^❌ /);
      expect(error.text).toContain(
        "Tap Run it in a new session to run it now. That session can no longer be continued; other messages go on in the current one.",
      );
      rig.script("[still-newer]", [reply.text("Still in the newer one.")]);
      rig.tg.sendText(chat, "And the new topic? [still-newer]");
      const next = await rig.botMessage(chat, isAnswer("Still in the newer one."));
      expect(sessionOf(next)).toBe(sessionOf(newer));
    });
  });
});

describe("config problems", () => {
  it("are all reported in one pass; a project folder missing now is a warning, not one of them", async () => {
    const world = await newWorld();
    const gone = join(world.ws.root, "gone");
    await world.writeConfig({
      claude: ["use_api_billing = true", 'effort = "extreme"', "allowed_tools = [5]"],
      extra: ["[projects.gone]", `path = ${JSON.stringify(gone)}`],
    });
    const serve = await world.telecode(["--config", world.configPath]);
    expect(serve.code).toBe(78);
    expect(serve.err).toContain("has 2 problems");
    expect(serve.err).toContain("config.toml: claude.effort must be one of");
    expect(serve.err).toContain("config.toml: claude.allowed_tools[0] must be a string");
    expect(serve.err).not.toContain("projects.gone");
  });

  it("a project folder missing now does not keep `telecode run` elsewhere from running", async () => {
    const world = await newWorld([reply.text("Ran here.")]);
    const gone = join(world.ws.root, "gone");
    await world.writeConfig({ extra: ["[projects.gone]", `path = ${JSON.stringify(gone)}`] });
    const run = await world.run(["--approve", "none", "Hello"]);
    expect(run.code).toBe(0);
    expect(run.out).toContain("Ran here.");
    expect(run.err).toContain(
      `⚠ projects.gone.path: ${gone} is not an existing folder now, so messages for project gone fail (saying so) until there is one.`,
    );
  });

  it("a duration past Node's timer limit is refused with its key and maximum, before any run", async () => {
    const world = await newWorld([reply.bash("touch x", "Make a file"), reply.text("Done.")]);
    await world.writeConfig({ extra: ["[limits]", "approval_timeout_minutes = 40000"] });
    const run = await world.run(["--approve", "none", "Make a file"]);
    expect(run.code).toBe(2);
    expect(run.err).toContain("config.toml: limits.approval_timeout_minutes must be at most 10080 minutes (a week)");
    expect(world.api.requests()).toEqual([]);
    const serve = await world.telecode(["--config", world.configPath]);
    expect(serve.code).toBe(78);
    expect(serve.err).toContain("limits.approval_timeout_minutes must be at most 10080 minutes");
  });
});
