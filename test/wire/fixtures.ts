// Where the recorded Claude Code transcripts live in this repository (one folder per CLI
// version under test/golden/fixtures/), and helpers to list and read them (tests only).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURES_ROOT = fileURLToPath(new URL("../golden/fixtures/", import.meta.url));

/** The CLI version pinned in devDependencies: the one every test that starts Claude Code runs. */
export const PINNED_CLI_VERSION = pinnedVersion();

/**
 * The version of the shared recordings (../shared/fixtures, copied here and checked by hand
 * against PROTOCOL.md): tests that quote a recording's own ids, words or order read these.
 */
export const SHARED_CLI_VERSION = "2.1.332";

export const SHARED_FIXTURE_DIR = fixtureDir(SHARED_CLI_VERSION);

function pinnedVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
    devDependencies: Record<string, string>;
  };
  return pkg.devDependencies["@anthropic-ai/claude-code"] ?? "";
}

export function fixtureDir(version: string): string {
  return join(FIXTURES_ROOT, `claude-code-${version}`);
}

/** -1, 0 or 1 for dotted numeric versions ("2.1.9" < "2.1.10"). */
function compareDotted(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

/** Every CLI version with recordings, oldest first. */
export function listFixtureVersions(): string[] {
  return readdirSync(FIXTURES_ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name.startsWith("claude-code-"))
    .map((entry) => entry.name.slice("claude-code-".length))
    .sort(compareDotted);
}

/** Scenario names that have a stdout recording (n-resume.first and u2-cron-resume.run0 included). */
export function listStdoutFixtures(version = SHARED_CLI_VERSION): string[] {
  return readdirSync(fixtureDir(version))
    .filter((name) => name.endsWith(".stdout.jsonl"))
    .map((name) => name.slice(0, -".stdout.jsonl".length))
    .sort();
}

export function readStdoutFixture(name: string, version = SHARED_CLI_VERSION): Buffer {
  return readFileSync(join(fixtureDir(version), `${name}.stdout.jsonl`));
}

export function stdoutLines(name: string, version = SHARED_CLI_VERSION): string[] {
  return readStdoutFixture(name, version)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "");
}
