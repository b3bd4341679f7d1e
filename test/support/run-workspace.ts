// The world a `telecode run` test needs: the fake Messages API with scripted replies, a fresh
// workspace for the real CLI, and a config file naming the pinned CLI (API billing with the
// workspace's test key). One `close()` removes it all.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { seedDataDir } from "./claude-probe.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "./claude-workspace.js";
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "./fake-anthropic/index.js";

export type RunWorkspace = {
  api: FakeAnthropic;
  ws: ClaudeWorkspace;
  /** Telecode's environment: the CLI's, plus config and data directories inside the workspace. */
  env: NodeJS.ProcessEnv;
  /** The config file (mode 0600). */
  config: string;
  /** The project directory (a git repository). */
  cwd: string;
  close(): Promise<void>;
};

export async function startRunWorkspace(replies: FakeReply[], extraEnv: NodeJS.ProcessEnv = {}): Promise<RunWorkspace> {
  const api = await startFakeAnthropic({ replies });
  const ws = await makeClaudeWorkspace(api.url, extraEnv);
  const config = join(ws.root, "config.toml");
  await writeFile(config, `[claude]\npath = ${JSON.stringify(realClaudePath)}\nuse_api_billing = true\n`, {
    mode: 0o600,
  });
  const env: NodeJS.ProcessEnv = {
    ...ws.env,
    XDG_CONFIG_HOME: join(ws.root, "config"),
    XDG_DATA_HOME: join(ws.root, "data"),
  };
  await seedDataDir(join(ws.root, "data", "telecode"));
  return {
    api,
    ws,
    env,
    config,
    cwd: ws.cwd,
    async close() {
      await api.close();
      await ws.cleanup();
    },
  };
}
