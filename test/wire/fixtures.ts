// Where the recorded Claude Code 2.1.332 transcripts live in this repository, and helpers
// to list and read them (tests only).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const FIXTURE_DIR = fileURLToPath(new URL("../golden/fixtures/claude-code-2.1.332/", import.meta.url));

/** Scenario names that have a stdout recording (n-resume.first included). */
export function listStdoutFixtures(): string[] {
  return readdirSync(FIXTURE_DIR)
    .filter((name) => name.endsWith(".stdout.jsonl"))
    .map((name) => name.slice(0, -".stdout.jsonl".length))
    .sort();
}

export function readStdoutFixture(name: string): Buffer {
  return readFileSync(join(FIXTURE_DIR, `${name}.stdout.jsonl`));
}

export function stdoutLines(name: string): string[] {
  return readStdoutFixture(name)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "");
}
