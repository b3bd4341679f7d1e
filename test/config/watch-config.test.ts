// Hot reload: a saved change to a live key takes effect, a change to a start-up key is
// reported as needing a restart, and a broken edit is reported while the old config stays.
import { renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig, watchConfig, type ConfigReload, type ConfigWatcher } from "../../src/config/index.js";
import { TOKEN, useTempHome } from "./helpers.js";

const tempHome = useTempHome();
const watchers: ConfigWatcher[] = [];
afterEach(() => {
  for (const w of watchers.splice(0)) w.close();
});

/** Starts watching and returns a function that resolves with the next reload report. */
function watch(path: string, env: Record<string, string>): () => Promise<ConfigReload> {
  const reports: ConfigReload[] = [];
  const waiting: ((r: ConfigReload) => void)[] = [];
  const initial = loadConfig({ configPath: path, env }).config;
  watchers.push(
    watchConfig(
      path,
      (reload) => {
        const next = waiting.shift();
        if (next) next(reload);
        else reports.push(reload);
      },
      { initial, env, debounceMs: 20 },
    ),
  );
  return () => {
    const ready = reports.shift();
    return ready ? Promise.resolve(ready) : new Promise((resolve) => waiting.push(resolve));
  };
}

const base = (users: string, extra = ""): string =>
  `[telegram]\nbot_token = "${TOKEN}"\nallowed_user_ids = [${users}]\n${extra}`;

describe("watchConfig", () => {
  it("applies new allowed users, modes, models, the suggestions switch and limits at once", async () => {
    const t = tempHome();
    const path = t.writeConfig(base("1"));
    const next = watch(path, { HOME: t.home });
    writeFileSync(
      path,
      base(
        "1, 2",
        `[claude]\npermission_mode = "plan"\nmodel = "sonnet"\nprompt_suggestions = false\n[limits]\ndrain_seconds = 5\n`,
      ),
    );
    const reload = await next();
    if (!reload.ok) throw reload.error;
    expect(reload.appliedKeys).toEqual([
      "telegram.allowed_user_ids",
      "claude.permission_mode",
      "claude.model",
      "claude.prompt_suggestions",
      "limits",
    ]);
    expect(reload.restartKeys).toEqual([]);
    expect(reload.config.telegram.allowedUserIds).toEqual([1, 2]);
    expect(reload.config.claude).toMatchObject({ permissionMode: "plan", model: "sonnet", promptSuggestions: false });
    expect(reload.config.limits.drainSeconds).toBe(5);
    expect(Object.isFrozen(reload.config)).toBe(true);
  });

  it("keeps the old token, API root and data dir and says a restart is needed", async () => {
    const t = tempHome();
    const path = t.writeConfig(base("1"));
    const next = watch(path, { HOME: t.home });
    const newToken = "555:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw0";
    writeFileSync(
      path,
      `[telegram]\nbot_token = "${newToken}"\nallowed_user_ids = [3]\napi_root = "http://127.0.0.1:1"\n[state]\ndir = "/elsewhere"\n`,
    );
    const reload = await next();
    if (!reload.ok) throw reload.error;
    expect(reload.appliedKeys).toEqual(["telegram.allowed_user_ids"]);
    expect(reload.restartKeys).toEqual(["telegram.bot_token", "telegram.api_root", "state.dir"]);
    expect(reload.config.telegram).toMatchObject({
      botToken: TOKEN,
      apiRoot: "https://api.telegram.org",
      allowedUserIds: [3],
    });
    expect(reload.config.state.dir).toBe(join(t.home, ".local", "share", "telecode"));
  });

  it("reports a broken edit with its problems, then picks up the fix", async () => {
    const t = tempHome();
    const path = t.writeConfig(base("1"));
    const next = watch(path, { HOME: t.home });
    writeFileSync(path, base('"me"'));
    const broken = await next();
    expect(broken.ok).toBe(false);
    if (broken.ok) return;
    expect(broken.error.problems).toEqual([
      "config.toml: telegram.allowed_user_ids must be a non-empty list of numeric user ids",
    ]);
    writeFileSync(path, base("9"));
    const fixed = await next();
    if (!fixed.ok) throw fixed.error;
    expect(fixed.config.telegram.allowedUserIds).toEqual([9]);
  });

  it("sees a file replaced the way editors save (write elsewhere, rename over)", async () => {
    const t = tempHome();
    const path = t.writeConfig(base("1"));
    const next = watch(path, { HOME: t.home });
    const temporary = `${path}.swp`;
    writeFileSync(temporary, base("4"));
    renameSync(temporary, path);
    const reload = await next();
    if (!reload.ok) throw reload.error;
    expect(reload.config.telegram.allowedUserIds).toEqual([4]);
    // A second edit after the rename is still seen (the watch is on the directory).
    writeFileSync(path, base("5"));
    const again = await next();
    if (!again.ok) throw again.error;
    expect(again.config.telegram.allowedUserIds).toEqual([5]);
  });
});
