// A full disk under the log: Telecode's log file cannot be written, and the bridge goes on
// answering, saying on stderr that log lines are lost (the log says how many once it can).
// The real `telecode` as a process of its own, its log file a link to /dev/full.
import { existsSync } from "node:fs";
import { mkdir, symlink } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { reply } from "../support/fake-anthropic/index.js";
import { isAnswer } from "../telegram/bridge/rig.js";
import { USER_ID, useWorld } from "./helpers.js";

const newWorld = useWorld();

describe.runIf(existsSync("/dev/full"))("the log on a full disk", () => {
  it("the bridge still starts and answers, and says once that log lines are lost", async () => {
    const world = await newWorld([reply.text("Still here.")]);
    await world.writeConfig();
    world.tg.addUser({ id: USER_ID });
    const log = join(world.dataDir, "logs", "telecode.log");
    await mkdir(join(world.dataDir, "logs"), { recursive: true });
    await symlink("/dev/full", log);
    const serve = world.spawnTelecode(["--config", world.configPath]);
    await serve.started;
    world.tg.sendText(USER_ID, "Are you there?");
    await world.tg.waitForBotMessage(USER_ID, isAnswer("Still here."), { timeoutMs: 60_000 });
    serve.child.kill("SIGTERM");
    const exit = await serve.exited;
    expect(exit.code).toBe(0);
    const said = exit.stderr.split("\n").filter((line) => line.includes("log file"));
    expect(said).toEqual([
      `telecode: the log file ${log} cannot be written (ENOSPC: no space left on the device); its lines are lost until it can be.`,
    ]);
  }, 120_000);
});
