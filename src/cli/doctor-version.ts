// The installed Claude CLI's version against the range Telecode is tested with: the versions
// that have recorded fixtures (doctor-tested-range.ts, generated). Outside the range is worth a
// warning, never a refusal: `telecode doctor` shows it, and `telecode` logs it at start.
import type { Env } from "../config/index.js";
import type { ClaudeVersionCheck, VersionVerdict } from "../domain/index.js";
import type { Logger } from "../ports/index.js";
import { compareVersions, probeClaude, type ClaudeProbe } from "./doctor-probes.js";
import { PINNED_CLAUDE_VERSION, TESTED_CLAUDE_VERSIONS } from "./doctor-tested-range.js";

export type TestedRange = Readonly<{ oldest: string; newest: string }>;

/** The oldest and newest recorded versions (`versions` sorted oldest first, as generated). */
export function testedRange(versions: readonly string[] = TESTED_CLAUDE_VERSIONS): TestedRange {
  return { oldest: versions[0] ?? "unknown", newest: versions.at(-1) ?? "unknown" };
}

export function describeRange(range: TestedRange): string {
  return range.oldest === range.newest ? range.oldest : `${range.oldest} – ${range.newest}`;
}

/** How `version` relates to the tested range, in the words doctor prints after "Claude CLI". */
export function judgeClaudeVersion(version: string, range: TestedRange = testedRange()): VersionVerdict {
  const tested = `the tested range (${describeRange(range)})`;
  const install = `npm i -g @anthropic-ai/claude-code@${PINNED_CLAUDE_VERSION}`;
  if (compareVersions(version, range.oldest) < 0)
    return { status: "warn", detail: `${version} is older than ${tested}`, fix: `update it: ${install}` };
  if (compareVersions(version, range.newest) > 0)
    return {
      status: "warn",
      detail: `${version} is newer than ${tested}; lines it prints that Telecode does not know yet are left out (the log names their types)`,
      fix: `if something misbehaves: ${install}`,
    };
  return { status: "ok", detail: `${version}, within ${tested}` };
}

/**
 * Probes the CLI once at start and logs `claude.version` with the same words as doctor: info
 * inside the tested range, warn outside it or when the CLI cannot be run. Never throws. With
 * `cacheFile`, a binary already probed (by an earlier start) is read from it, not run. Resolves
 * with the verdict (its `detail` follows "Claude CLI"), or why there is none, which /status shows.
 */
export async function logClaudeVersion(options: {
  command: string;
  env: Env;
  logger: Logger;
  cacheFile?: string;
}): Promise<ClaudeVersionCheck> {
  const range = describeRange(testedRange());
  const probe = await probeClaude(options.command, options.env, options.cacheFile).catch(
    (error: unknown): ClaudeProbe => ({
      found: false,
      description: `${options.command} could not be asked its version (${error instanceof Error ? error.message : String(error)})`,
    }),
  );
  if (!probe.found) {
    options.logger.event("claude.version", { found: false, detail: probe.description, tested: range }, "warn");
    return { found: false, status: "warn", detail: probe.description };
  }
  const verdict = judgeClaudeVersion(probe.version);
  options.logger.event(
    "claude.version",
    { version: probe.version, tested: range, detail: `Claude CLI ${verdict.detail}` },
    verdict.status === "ok" ? "info" : "warn",
  );
  return { found: true, ...verdict };
}
