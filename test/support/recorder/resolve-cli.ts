// Finds the `claude` binary a recording runs: a path as given, or a version (or dist-tag such
// as latest) installed from the npm registry into a temp dir that `cleanup` removes again.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export type ResolvedCli = { path: string; version: string; cleanup(): Promise<void> };

export class CliNotUsable extends Error {
  readonly code = "recorder.cli_not_usable";
}

/** `claude --version` → "2.1.332". Throws CliNotUsable when it prints no version. */
export async function cliVersion(path: string): Promise<string> {
  let stdout: string;
  try {
    ({ stdout } = await run(path, ["--version"], {
      timeout: 30_000,
      env: { ...process.env, DISABLE_AUTOUPDATER: "1" },
    }));
  } catch (error) {
    throw new CliNotUsable(
      `${path} --version failed (${error instanceof Error ? error.message.split("\n", 1)[0] : String(error)}). Pass the path of a Claude Code \`claude\` binary, or a version to install.`,
    );
  }
  const version = /\d+\.\d+\.\d+\S*/.exec(stdout)?.[0];
  if (version === undefined)
    throw new CliNotUsable(
      `${path} --version printed no version ("${stdout.trim().split("\n", 1)[0]?.slice(0, 80) ?? ""}"); is it the Claude Code CLI?`,
    );
  return version;
}

const looksLikeVersion = (spec: string): boolean => /^(\d+\.\d+\.\d+\S*|latest|next|stable)$/.test(spec);

/** `spec` is a path to a claude binary, or a version / dist-tag of @anthropic-ai/claude-code to install. */
export async function resolveCli(spec: string, log: (line: string) => void): Promise<ResolvedCli> {
  if (!looksLikeVersion(spec) || existsSync(spec)) {
    const path = resolve(spec);
    if (!existsSync(path))
      throw new CliNotUsable(
        `${path} does not exist. Pass the path of a \`claude\` binary, or a version such as 2.1.332.`,
      );
    return { path, version: await cliVersion(path), cleanup: () => Promise.resolve() };
  }
  const dir = await mkdtemp(join(tmpdir(), "telecode-claude-"));
  const cleanup = () => rm(dir, { recursive: true, force: true });
  log(`installing @anthropic-ai/claude-code@${spec} into ${dir} …`);
  try {
    await run(
      "npm",
      [
        "install",
        "--prefix",
        dir,
        "--no-save",
        "--no-audit",
        "--no-fund",
        "--loglevel=error",
        `@anthropic-ai/claude-code@${spec}`,
      ],
      { timeout: 600_000 },
    );
  } catch (error) {
    await cleanup();
    const why = error instanceof Error ? error.message.split("\n").slice(0, 3).join(" ") : String(error);
    throw new CliNotUsable(
      `npm could not install @anthropic-ai/claude-code@${spec}: ${why}. Check the version and the registry.`,
    );
  }
  const path = join(dir, "node_modules", ".bin", "claude");
  try {
    return { path, version: await cliVersion(path), cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}
