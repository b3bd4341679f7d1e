// A newcomer's first commands in a clone (`git clone`, `npm install`): `npm start` without a
// config names the set-up command that works there, and that very command (npx telecode init)
// then works. Runs npm in this checkout with a fresh HOME (the built bin, no registry).
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/index.js";
import { startFakeBotApi, type FakeBotApi } from "../support/fake-bot-api/index.js";

const run = promisify(execFile);
const telecodeDir = resolve(import.meta.dirname, "../..");

let home: string;
let fake: FakeBotApi;
beforeEach(async () => {
  home = mkdtempSync(join(tmpdir(), "telecode-first-run-"));
  fake = await startFakeBotApi({ bot: { username: "tc_first_bot" } });
});
afterEach(async () => {
  await fake.close();
  rmSync(home, { recursive: true, force: true });
});

/** npm or npx in the checkout, as a person with no config and no terminal on stdin. */
async function inClone(
  program: "npm" | "npx",
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: home,
    npm_config_offline: "true",
    // npm's own cache stays where it is: a fresh one makes npx rebuild its view of the tree (~15 s).
    npm_config_cache: process.env["npm_config_cache"] ?? join(homedir(), ".npm"),
    npm_config_update_notifier: "false",
    TELECODE_CLAUDE_PATH: join(home, "no-claude"),
  };
  try {
    const { stdout, stderr } = await run(program, args, { cwd: telecodeDir, env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

describe("the first minutes in a clone", () => {
  it("npm start without a config names `npx telecode init`, and that command sets Telecode up", async () => {
    const started = await inClone("npm", ["start"]);
    expect(started.code).toBe(78);
    expect(started.stderr).toContain(
      "telecode: no config file found. Run `npx telecode init` to set up the bot token, your user id and a project.",
    );

    const project = join(home, "code", "app");
    mkdirSync(project, { recursive: true });
    const init = await inClone("npx", [
      "telecode",
      "init",
      "--bot-token",
      fake.token,
      "--api-root",
      fake.apiRoot,
      "--user-id",
      "42",
      "--project-dir",
      project,
    ]);
    expect(init.stderr).toBe("");
    expect(init.code).toBe(0);
    expect(init.stdout).toContain("then `npm start` (or `npx telecode`) to start the bridge");
    const { config } = loadConfig({ env: { HOME: home } });
    expect(config.telegram.allowedUserIds).toEqual([42]);
    expect(config.projects[0]?.path).toBe(project);
  });
});
