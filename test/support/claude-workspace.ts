// A fresh HOME, TMPDIR and git repository per real-CLI test, plus the offline environment the
// CLI needs to talk to the fake Messages API. Removes everything on cleanup.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { vi } from "vitest";

const run = promisify(execFile);

/** The pinned real CLI from node_modules. */
export const realClaudePath = resolve(import.meta.dirname, "../../node_modules/.bin/claude");

export type ClaudeWorkspace = {
  root: string;
  home: string;
  /** A fresh git repository with no commits: the project the CLI works in. */
  cwd: string;
  /** The environment for the CLI: offline, fake API, test key, fresh HOME. */
  env: NodeJS.ProcessEnv;
  /** Where the CLI keeps the project's session transcripts, one `<session id>.jsonl` each. */
  transcripts: string;
  cleanup(): Promise<void>;
};

export async function makeClaudeWorkspace(apiUrl: string, extraEnv: NodeJS.ProcessEnv = {}): Promise<ClaudeWorkspace> {
  const root = await realpath(await mkdtemp(join(tmpdir(), "telecode-test-")));
  const home = join(root, "home");
  const cwd = join(root, "project");
  const tmp = join(root, "tmp");
  await Promise.all([mkdir(home), mkdir(cwd), mkdir(tmp)]);
  await run("git", ["init", "-q"], { cwd });
  const env: NodeJS.ProcessEnv = {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: home,
    TMPDIR: tmp,
    LANG: "C.UTF-8",
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: "test-key",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_AUTOUPDATER: "1",
    ...extraEnv,
  };
  return {
    root,
    home,
    cwd,
    env,
    transcripts: join(home, ".claude", "projects", cwd.replace(/[^A-Za-z0-9]/g, "-")),
    cleanup: () => rm(root, { recursive: true, force: true, maxRetries: 3 }),
  };
}

/**
 * Rewrites a workspace's machine paths the way the shared fixtures do (project →
 * /home/user/project, HOME → /home/user, other temp paths → /tmp/claude-XXXX), for recording.
 */
export function anonymizeWorkspacePaths(text: string, w: ClaudeWorkspace): string {
  const slug = w.cwd.replace(/[^A-Za-z0-9]/g, "-");
  return text
    .split(w.cwd)
    .join("/home/user/project")
    .split(w.home)
    .join("/home/user")
    .split(slug)
    .join("-home-user-project")
    .split(w.root)
    .join("/tmp/claude-XXXX");
}

/**
 * The transcript (its path) that holds `text` in a whole line, once the CLI has written it: the
 * CLI writes its transcript in batches, so it may send a request before the line is on disk.
 */
export async function transcriptHolding(ws: ClaudeWorkspace, text: string): Promise<string> {
  return vi.waitFor(
    async () => {
      const files = (await readdir(ws.transcripts).catch(() => [] as string[])).filter((f) => f.endsWith(".jsonl"));
      for (const f of files) {
        const path = join(ws.transcripts, f);
        const lines = (await readFile(path, "utf8")).split("\n");
        // The last piece has no newline yet: it may be a line cut mid-write.
        if (lines.slice(0, -1).some((line) => line.includes(text))) return path;
      }
      throw new Error(`no transcript holds ${JSON.stringify(text)} yet`);
    },
    { timeout: 30_000, interval: 20 },
  );
}
