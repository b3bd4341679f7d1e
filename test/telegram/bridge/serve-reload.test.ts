// Hot reload in a running `telecode` process: a saved config applies new allowed users, mode
// and model at once, and a new bot token is kept for the restart, said on the terminal, and
// never printed or logged. Also the start-up warning for a config others can read.
import { chmod, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { NOT_AUTHORISED_TEXT } from "../../../src/telegram/bridge/access.js";
import { spawnServe, startRig, STRANGER_ID, type Rig } from "./rig.js";

let rig: Rig;
beforeAll(async () => {
  rig = await startRig();
  await rig.app.stop();
});
afterAll(async () => {
  await rig?.dispose();
});

/** Resolves once `text` has appeared on the child's stderr. */
function stderrShows(child: ReturnType<typeof spawnServe>["child"], text: string): Promise<void> {
  return new Promise((resolve) => {
    let seen = "";
    const onData = (chunk: string): void => {
      seen += chunk;
      if (!seen.includes(text)) return;
      child.stderr?.off("data", onData);
      resolve();
    };
    child.stderr?.on("data", onData);
  });
}

/**
 * A rig of its own (the first test leaves a token in its file this process may not use), served
 * by a `telecode` process: its chat 1002 and the config file as it was.
 */
async function servingRig() {
  const rig = await startRig();
  await rig.app.stop();
  onTestFinished(() => rig.dispose());
  const serve = spawnServe(rig);
  await serve.started;
  return { rig, serve, chat: rig.user(1002), original: await readFile(rig.configPath, "utf8") };
}

describe("telecode (serve) hot reload", () => {
  it("warns about a readable file, applies allowed users, mode and model from a saved file, and keeps a new token for the restart", async () => {
    await chmod(rig.configPath, 0o644);
    const serve = spawnServe(rig);
    await serve.started;
    const stranger = rig.user(STRANGER_ID);
    rig.tg.sendCommand(stranger, "status");
    await rig.botMessage(stranger, NOT_AUTHORISED_TEXT);

    const newToken = `424242:${"N".repeat(35)}`;
    const original = await readFile(rig.configPath, "utf8");
    const edited = original
      .replace(/allowed_user_ids = \[/, `allowed_user_ids = [${STRANGER_ID}, `)
      .replace(/permission_mode = "default"/, 'permission_mode = "plan"\nmodel = "opus"')
      .replace(/bot_token = "[^"]*"/, `bot_token = "${newToken}"`);
    expect(edited).not.toBe(original);
    const restartNote = stderrShows(serve.child, "telegram.bot_token take effect after a restart");
    await writeFile(rig.configPath, edited, { mode: 0o600 });
    await restartNote;

    // Still polling with the old token, and the stranger is now allowed, in the new defaults.
    rig.tg.sendCommand(stranger, "status");
    const status = await rig.botMessage(stranger, /Telecode status/);
    expect(status.text).toContain("Mode: plan · Model: opus");

    serve.child.kill("SIGTERM");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    expect(exit.stderr).toContain(
      `warning: ${rig.configPath} is readable by other users and may hold your bot token; run \`chmod 600 ${rig.configPath}\`.`,
    );
    const log = await readFile(join(rig.dataDir, "logs", "telecode.log"), "utf8");
    const reloaded = log
      .split("\n")
      .filter((line) => line.includes('"config.reloaded"'))
      .map((line) => JSON.parse(line) as { applied: string[]; needRestart: string[] });
    expect(reloaded.at(-1)).toMatchObject({
      applied: ["telegram.allowed_user_ids", "claude.permission_mode", "claude.model"],
      needRestart: ["telegram.bot_token"],
    });
    expect(exit.stderr + log).not.toContain("N".repeat(35));
    expect(exit.stderr + log).not.toContain(rig.tg.token.split(":")[1]);
  });

  it("takes [[schedules]] added to a saved file at once: /loops lists the new schedule", async () => {
    const { rig, serve, chat, original } = await servingRig();
    // A key that needs a restart rides along, so the terminal says when the reload was handled.
    const edited =
      original.replace("use_api_billing = true", 'use_api_billing = true\nallowed_tools = ["Read"]') +
      [
        "[[schedules]]",
        'id = "morning-review"',
        'cron = "0 9 * * 1-5"',
        'timezone = "Europe/Berlin"',
        'prompt = "Review yesterday\'s commits and list risky ones."',
        `chat_id = ${chat}`,
        "",
      ].join("\n");
    const handled = stderrShows(serve.child, "claude.allowed_tools take effect after a restart");
    await writeFile(rig.configPath, edited, { mode: 0o600 });
    await handled;
    const ask = rig.tg.sendCommand(chat, "loops");
    const list = await rig.botMessage(chat, (m) => m.replyToMessageId === ask);
    expect(list.text).toContain("schedule morning-review · at 09:00 on weekdays, Europe/Berlin · next at 09:00");
    expect(list.text).toContain("Review yesterday's commits and list risky ones.");
    expect(list.buttons.map((b) => b.text)).toEqual(["⏸ Pause"]);
    serve.child.kill("SIGTERM");
    expect((await serve.exited).code).toBe(0);
  });

  it("says on the terminal that a saved file it cannot read changes nothing, and after /restart tells the chat", async () => {
    const { rig, serve, chat, original } = await servingRig();
    const told = stderrShows(serve.child, "could not be read, so the settings before the change stay in use");
    // A mistake that quotes what was typed, here the bot token pasted in the wrong place.
    const pasted = ["[[webhooks]]", 'id = "leak"', 'path = "/hooks/leak"', 'auth = "none"', 'prompt = "x"'];
    const broken = [...pasted, `project = "${rig.tg.token}"`].join("\n");
    await writeFile(rig.configPath, `${original}\n${broken}\n`, { mode: 0o600 });
    await told;

    rig.tg.sendCommand(chat, "restart");
    await rig.botMessage(chat, "🔄 Restarting.");
    await serve.restarted;
    const back = await rig.botMessage(chat, "🟢 Telecode restarted");
    expect(back.text.split("\n")[0]).toBe("🟢 Telecode restarted and is back online.");
    expect(back.text).toContain(
      "⚠️ The config file could not be read, so the settings from before the restart stay in use:",
    );
    expect(back.text).toContain(
      "Fix it on the computer running Telecode (`telecode doctor` checks it), then /restart again.",
    );
    // The problem is told, the token it quotes is not.
    expect(back.text).toContain("is not a [projects.NAME] table");
    expect(back.text).not.toContain(rig.tg.token.split(":")[1]);

    // Mended: the next /restart says only that it is back.
    await writeFile(rig.configPath, original, { mode: 0o600 });
    rig.tg.sendCommand(chat, "restart");
    await rig.tg.waitFor(
      () => rig.tg.botMessages(chat).filter((m) => m.text.startsWith("🟢 Telecode restarted")).length === 2,
      { what: "the second restart's note", timeoutMs: 60_000 },
    );
    expect(rig.tg.botMessages(chat).at(-1)?.text).toBe("🟢 Telecode restarted and is back online.");
    serve.child.kill("SIGTERM");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    // Nor on the terminal, when the file changed or at the restart.
    expect(exit.stderr).toContain("is not a [projects.NAME] table");
    expect(exit.stderr).not.toContain(rig.tg.token.split(":")[1]);
  });
});
