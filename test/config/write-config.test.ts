// The file `telecode init` writes: private (0600), valid, and loading back to what was asked.
import { statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig, projectNameFor, renderConfigFile, writeConfigFile } from "../../src/config/index.js";
import { TOKEN, useTempHome } from "./helpers.js";

const tempHome = useTempHome();

describe("writeConfigFile", () => {
  it("writes a 0600 file in a 0700 directory that loads back to the answers", () => {
    const t = tempHome();
    const project = t.mkdir("code/my app");
    const path = join(t.home, ".config", "telecode", "config.toml");
    writeConfigFile(
      path,
      renderConfigFile({
        botToken: TOKEN,
        allowedUserIds: [42],
        apiRoot: "http://127.0.0.1:9",
        project: { name: projectNameFor(project), path: project },
        permissionMode: "acceptEdits",
      }),
    );
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(t.home, ".config", "telecode")).mode & 0o777).toBe(0o700);
    const { config, warnings } = loadConfig({ env: { HOME: t.home } });
    expect(warnings).toEqual([]);
    expect(config.telegram).toMatchObject({ botToken: TOKEN, allowedUserIds: [42], apiRoot: "http://127.0.0.1:9" });
    expect(config.claude.permissionMode).toBe("acceptEdits");
    expect(config.projects).toEqual([
      { name: "my-app", path: project, isDefault: true, worktreesDir: null, worktreeBase: null },
    ]);
  });

  it("leaves the token out when it comes from the environment, and replaces an old file", () => {
    const t = tempHome();
    const project = t.mkdir("p");
    const path = t.writeConfig("[telegram]\nallowed_user_ids = [1]\n");
    const text = renderConfigFile({
      botToken: null,
      allowedUserIds: [7],
      apiRoot: "https://api.telegram.org",
      project: { name: "p", path: project },
      permissionMode: "default",
    });
    expect(text).not.toMatch(/^bot_token/m);
    expect(text).not.toContain("api_root");
    writeConfigFile(path, text);
    expect(loadConfig({ env: { HOME: t.home } }).config.telegram).toMatchObject({
      botToken: null,
      allowedUserIds: [7],
    });
  });

  it("derives usable project names from directory names", () => {
    expect(projectNameFor("/x/my app")).toBe("my-app");
    expect(projectNameFor("/x/.hidden")).toBe("hidden");
    expect(projectNameFor("/")).toBe("project");
    expect(projectNameFor(`/x/${"a".repeat(40)}`)).toHaveLength(32);
  });
});
