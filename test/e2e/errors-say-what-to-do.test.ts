// Errors that say what to do: a CLI that is not where the config says is explained on the phone
// and in the terminal with where Telecode looked; with the real CLI, one that is not logged in is explained on the
// phone and in the terminal (how to fix it on the host, never the CLI's "/login" or "send the
// message again"), and both `telecode` and `telecode run` warn at start when API billing is on
// without an API key. A project whose folder has gone is said to be gone, never recreated empty
// for Claude to work in, nor blamed on the CLI; a file sent there or asked for says the same. A
// database that fails under the bridge is said to have failed, to a command and to a tap, never
// met with silence or a success that did not happen.
import { existsSync } from "node:fs";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { useWorld } from "../reliability/helpers.js";
import { startRig } from "../telegram/bridge/rig.js";

const newWorld = useWorld();

/** The workspace's environment without the test API key. */
function withoutKey(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ANTHROPIC_API_KEY: _key, ...rest } = env;
  return rest;
}

describe("a Claude Code that is not there", () => {
  it("in Telegram: says where Telecode looked for the CLI, and how to fix it on the host; /status says it too", async () => {
    const missing = "/nonexistent/telecode-test/claude";
    const rig = await startRig({ claudePath: missing });
    try {
      const chat = rig.user(1001);
      const asked = rig.tg.sendText(chat, "Hello?");
      const error = await rig.botMessage(chat, /^❌ /);
      expect(error.text).toMatch(
        new RegExp(
          `^❌ Claude Code CLI not found \\(looked for: ${missing}\\)\\. On the computer running Telecode, install it with \`npm i -g @anthropic-ai/claude-code\`, or set claude\\.path to its full path \\(\`which claude\` there prints it\\); until then every message fails the same way\\. \\(incident [0-9a-f]+\\)$`,
        ),
      );
      // The request's progress says it failed; nothing reached the API.
      await rig.botMessage(chat, (m) => m.replyToMessageId === asked && m.text === "❌ Not started");
      expect(rig.api.requests()).toEqual([]);
      const status = rig.tg.sendCommand(chat, "status", "");
      expect((await rig.botMessage(chat, (m) => m.replyToMessageId === status)).text).toContain(
        `\n⚠️ Claude Code CLI not found (looked for: ${missing}).\n`,
      );
    } finally {
      await rig.dispose();
    }
  });

  it("telecode run: says where it looked and how to fix it in this terminal", async () => {
    const world = await newWorld();
    const missing = "/nonexistent/telecode-test/claude";
    const config = join(world.ws.root, "missing-cli.toml");
    await writeFile(config, `[claude]\npath = ${JSON.stringify(missing)}\nuse_api_billing = true\n`);
    const run = await world.telecode(["run", "--cwd", world.ws.cwd, "--config", config, "Hello?"]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `error: Claude Code CLI not found (looked for: ${missing}). Install it with \`npm i -g @anthropic-ai/claude-code\`, or set claude.path in the config to its full path (\`which claude\` prints it).\n`,
    );
    expect(world.api.requests()).toEqual([]);
  });
});

describe("a project whose folder has gone", () => {
  it("says the folder is gone and how to fix it on the host; makes no empty folder in its place", async () => {
    const rig = await startRig();
    try {
      const chat = rig.user(1001);
      await rm(rig.ws.cwd, { recursive: true, force: true });
      const asked = rig.tg.sendText(chat, "Hello?");
      const error = await rig.botMessage(chat, /^❌ /);
      expect(error.text).toMatch(
        new RegExp(
          `^❌ The project's folder ${rig.ws.cwd} does not exist, so Claude Code was not started there\\. On the computer running Telecode, put the folder back, or point the project's path in the config at where it is now \\(/project switches to another\\); until then every message in this project fails the same way\\. \\(incident [0-9a-f]+\\)$`,
        ),
      );
      await rig.botMessage(chat, (m) => m.replyToMessageId === asked && m.text === "❌ Not started");
      // A photo for the same project is refused with the same reason, not saved into a new folder.
      const photo = rig.tg.sendDocument(
        chat,
        { content: Buffer.from("ERROR boom\n"), fileName: "server.log", mimeType: "text/plain" },
        { caption: "why does it fail?" },
      );
      const refused = await rig.botMessage(chat, (m) => m.replyToMessageId === photo);
      expect(refused.text).toBe(
        `The project's folder ${rig.ws.cwd} does not exist, so nothing was saved. On the computer running Telecode, put the folder back, or point the project's path in the config at where it is now.`,
      );
      expect(await rig.command(chat, "status")).toContain(
        `Project: app — ${rig.ws.cwd} ⚠️ no folder there now: its messages fail until there is one`,
      );
      // And /file get says so too, rather than failing with an unexpected error.
      expect(await rig.command(chat, "file", "get notes.md")).toBe(
        `The project's folder ${rig.ws.cwd} does not exist, so nothing was sent. On the computer running Telecode, put the folder back, or point the project's path in the config at where it is now.`,
      );
      expect(existsSync(rig.ws.cwd)).toBe(false);
      expect(rig.api.requests()).toEqual([]);
    } finally {
      await rig.dispose();
    }
  });
});

describe("a Claude Code that is not logged in", () => {
  it("in Telegram: says the CLI on the host is not logged in and how to fix it there", async () => {
    const rig = await startRig({ apiBilling: false });
    try {
      const chat = rig.user(1001);
      rig.tg.sendText(chat, "Hello?");
      const error = await rig.botMessage(chat, /^❌ /);
      expect(error.text).toContain(
        "Claude Code is not logged in. On the computer running Telecode, run `claude auth login` in a terminal",
      );
      expect(error.text).toContain("claude.use_api_billing = true");
      expect(error.text).not.toContain("Please run /login");
      expect(error.text).not.toMatch(/send the message again/i);
      expect(rig.api.requests()).toEqual([]);
    } finally {
      await rig.dispose();
    }
  });

  it("telecode run warns at start that API billing has no key, and its failure says how to fix it", async () => {
    const world = await newWorld();
    await world.writeConfig();
    const run = await world.run(["--approve", "none", "Hello?"], withoutKey(world.ws.env));
    expect(run.code).toBe(1);
    expect(run.err).toContain("⚠ claude.use_api_billing is on, but ANTHROPIC_API_KEY is not set");
    // At the terminal the person is at that computer: no "On the computer running Telecode".
    expect(run.err).toContain(
      "error: Claude Code is not logged in. Run `claude auth login`, or set ANTHROPIC_API_KEY and claude.use_api_billing = true in the config.\n",
    );
    expect(run.err).not.toContain("Please run /login");
  });

  it("telecode warns at start that API billing has no key", async () => {
    const world = await newWorld();
    await world.writeConfig();
    const serve = world.spawnTelecode(["--config", world.configPath], withoutKey(world.ws.env));
    await serve.started;
    expect(serve.stderr()).toContain(
      "telecode: warning: claude.use_api_billing is on, but ANTHROPIC_API_KEY is not set",
    );
  });
});

describe("a Claude Code that refuses to start", () => {
  it("in Telegram: names the settings file that is not JSON and how to mend it there; the next message runs once it is mended", async () => {
    const rig = await startRig();
    try {
      const settings = join(rig.ws.env["HOME"] as string, ".claude.json");
      await writeFile(settings, "{ broken");
      const chat = rig.user(1001);
      const asked = rig.tg.sendText(chat, "Hello?");
      const error = await rig.botMessage(chat, /^❌ /);
      expect(error.text).toMatch(
        new RegExp(
          `^❌ Claude Code would not start: Configuration error in ${settings}: JSON Parse error: Expected '\\}'\\. On the computer running Telecode, fix the JSON in ${settings}, or move the file aside to start Claude Code with default settings; until then every message fails the same way\\. \\(incident [0-9a-f]+\\)$`,
        ),
      );
      await rig.botMessage(chat, (m) => m.replyToMessageId === asked && m.text === "❌ Not started");
      // Nothing else: no crash report for the exit that followed, no button to send it again.
      expect(rig.tg.botMessages(chat).map((m) => m.text)).toHaveLength(2);
      expect(rig.api.requests()).toEqual([]);

      await rm(settings);
      rig.script("mended", [reply.text("Running again.")]);
      rig.tg.sendText(chat, "Settings mended?");
      await rig.botMessage(chat, (m) => m.text.includes("Running again."));
      // The refusing process's exit, which comes after its result, was never reported as a crash.
      expect(rig.tg.botMessages(chat).filter((m) => /exited unexpectedly|no longer has session/.test(m.text))).toEqual(
        [],
      );
    } finally {
      await rig.dispose();
    }
  });

  it("telecode run: says how to mend the settings file in this terminal", async () => {
    const world = await newWorld();
    await world.writeConfig();
    const settings = join(world.ws.env["HOME"] as string, ".claude.json");
    await writeFile(settings, "{ broken");
    const run = await world.run(["--approve", "none", "Hello?"]);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `error: Claude Code would not start: Configuration error in ${settings}: JSON Parse error: Expected '}'. Fix the JSON in ${settings}, or move the file aside to start Claude Code with default settings; until then every run fails the same way.\n`,
    );
  });
});

describe("a database that fails under the bridge", () => {
  it("a command and a tap are told it failed and what to do; a tap that failed can be tapped again", async () => {
    const rig = await startRig();
    // Another connection to the same file, as a damaged or tampered-with database would be.
    const other = new Database(rig.app.store.path);
    try {
      const chat = rig.user(1001);
      const asked = rig.tg.sendCommand(chat, "mode");
      const menu = await rig.botMessage(chat, (m) => m.replyToMessageId === asked);

      other.exec("ALTER TABLE usage_daily RENAME TO usage_daily_away");
      const usage = rig.tg.sendCommand(chat, "usage");
      const failed = await rig.botMessage(chat, (m) => m.replyToMessageId === usage);
      expect(failed.text).toBe(
        "⚠️ Telecode could not finish handling this message: its database failed (no such table: usage_daily). Run `telecode doctor` on the computer running Telecode, then send the message again.",
      );
      other.exec("ALTER TABLE usage_daily_away RENAME TO usage_daily");

      for (const when of ["INSERT", "UPDATE"])
        other.exec(
          `CREATE TRIGGER refuse_${when} BEFORE ${when} ON chats BEGIN SELECT RAISE(ABORT, 'disk I/O error'); END`,
        );
      const tap = rig.tg.tapButton(chat, menu.messageId, "acceptEdits · edits without asking");
      expect(await rig.tg.waitForCallbackAnswer(tap)).toMatchObject({
        text: "That did not work: Telecode's database failed. Run telecode doctor on the computer running it, then tap again.",
        showAlert: true,
      });
      // Not stored, so not said to be: the menu is as it was, and the mode too.
      expect(rig.tg.message(chat, menu.messageId)!.text).toBe("Mode is default. Choose another:");
      expect(rig.app.store.chats.get(chat).mode).toBeNull();

      other.exec("DROP TRIGGER refuse_INSERT; DROP TRIGGER refuse_UPDATE");
      const again = rig.tg.tapButton(chat, menu.messageId, "acceptEdits · edits without asking");
      expect((await rig.tg.waitForCallbackAnswer(again)).text).toBe("Mode: acceptEdits");
      expect(rig.app.store.chats.get(chat).mode).toBe("acceptEdits");
    } finally {
      other.close();
      await rig.dispose();
    }
  });
});
