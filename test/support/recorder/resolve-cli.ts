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

/**
 * The Agent SDK's package for this platform that may hold CLI `version` as its `claude` binary:
 * the SDK 0.3.N has shipped CLI 2.1.N, sometimes before @anthropic-ai/claude-code has it on npm.
 * Undefined for a version outside that pairing (a caller checks the binary's own version).
 */
export function sdkPlatformPackage(version: string, platform: string, arch: string): string | undefined {
  const patch = /^2\.1\.(\d+)$/.exec(version)?.[1];
  return patch === undefined ? undefined : `@anthropic-ai/claude-agent-sdk-${platform}-${arch}@0.3.${patch}`;
}

/** Installs `pkg` into `dir` with npm; returns why it could not (npm's last words), or undefined. */
async function npmInstall(dir: string, pkg: string): Promise<string | undefined> {
  try {
    await run("npm", ["install", "--prefix", dir, "--no-save", "--no-audit", "--no-fund", "--loglevel=error", pkg], {
      timeout: 600_000,
    });
    return undefined;
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    // "npm error code ETARGET", then what it means ("npm error notarget No matching version …").
    const said = (typeof stderr === "string" ? stderr : String(error))
      .split("\n")
      .find((l) => l.startsWith("npm error") && !l.startsWith("npm error code"));
    return (said ?? String(error).split("\n", 1)[0] ?? "npm failed")
      .replace(/^npm error\s*(\w+\s)?/, "")
      .replace(/\.$/, "");
  }
}

/**
 * `spec` is a path to a claude binary, or a version / dist-tag of @anthropic-ai/claude-code to
 * install. A version npm's @anthropic-ai/claude-code does not have yet is looked for in the
 * Agent SDK's platform package (see sdkPlatformPackage), and used only if its binary says it is
 * that version.
 */
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
  const why = await npmInstall(dir, `@anthropic-ai/claude-code@${spec}`);
  let path = join(dir, "node_modules", ".bin", "claude");
  if (why !== undefined) {
    const sdk = sdkPlatformPackage(spec, process.platform, process.arch);
    const sdkWhy = sdk === undefined ? "no Agent SDK package pairs with it" : await tryingSdk(dir, sdk, log);
    if (sdkWhy !== undefined) {
      await cleanup();
      throw new CliNotUsable(
        `npm could not install @anthropic-ai/claude-code@${spec}: ${why}; ${sdk ?? "the Agent SDK"}: ${sdkWhy}. Check the version and the registry.`,
      );
    }
    path = join(dir, "node_modules", ...(sdk ?? "").replace(/@[^@]*$/, "").split("/"), "claude");
  }
  try {
    const version = await cliVersion(path);
    if (why !== undefined && version !== spec)
      throw new CliNotUsable(`the Agent SDK's binary is Claude Code ${version}, not ${spec}.`);
    return { path, version, cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function tryingSdk(dir: string, sdk: string, log: (line: string) => void): Promise<string | undefined> {
  log(`not on npm as @anthropic-ai/claude-code; trying the Agent SDK's ${sdk} …`);
  return npmInstall(dir, sdk);
}
