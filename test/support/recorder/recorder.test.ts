// The recorder against the pinned real CLI: it reproduces that version's recordings in
// test/golden/fixtures (the events Telecode makes of them are the same once ids, times and paths
// are normalised) and writes nothing that names this machine.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixtureDir, PINNED_CLI_VERSION } from "../../wire/fixtures.js";
import { realClaudePath } from "../claude-workspace.js";
import { comparableEvents } from "./comparable-events.js";
import { recordScenarios, type ScenarioOutcome } from "./record.js";
import { selectScenarios } from "./scenarios.js";

// Permission answers (c), a reply built from the CLI's plan file (e), --resume across two runs (n).
const NAMES = ["c-control-bash-allow", "e-plan-exit-allow", "n-resume"];
let outDir: string;
let outcomes: ScenarioOutcome[];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), "telecode-recorder-"));
  outcomes = await recordScenarios(selectScenarios({ slow: false, only: NAMES }), {
    cliPath: realClaudePath,
    cliVersion: PINNED_CLI_VERSION,
    outDir,
    jobs: 3,
    log: () => undefined,
  });
}, 120_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

describe("fixture recorder with the pinned CLI", () => {
  it("plays every scenario and writes the shared recordings' layout", () => {
    expect(outcomes.map((o) => [o.name, o.failure])).toEqual(NAMES.map((name) => [name, undefined]));
    expect(readdirSync(outDir).sort()).toEqual(
      [
        ...["c-control-bash-allow", "e-plan-exit-allow", "n-resume"].flatMap((n) => [
          `${n}.api.jsonl`,
          `${n}.meta.json`,
          `${n}.stdout.jsonl`,
          `${n}.transcript.jsonl`,
        ]),
        "n-resume.first.stdout.jsonl",
        "n-resume.first.transcript.jsonl",
      ].sort(),
    );
  });

  for (const name of [...NAMES, "n-resume.first"]) {
    it(`${name}: Telecode makes the same events of it as of the recording kept for the version`, () => {
      const fresh = readFileSync(join(outDir, `${name}.stdout.jsonl`), "utf8");
      const kept = readFileSync(join(fixtureDir(PINNED_CLI_VERSION), `${name}.stdout.jsonl`), "utf8");
      expect(comparableEvents(fresh)).toBe(comparableEvents(kept));
    });
  }

  it("writes no machine path, port, pid or time that changes per run", () => {
    for (const file of readdirSync(outDir).filter((f) => !f.endsWith(".meta.json"))) {
      const text = readFileSync(join(outDir, file), "utf8");
      expect(text, file).not.toMatch(/telecode-test-|\/work\/|127\.0\.0\.1:\d/);
      expect(text, file).not.toMatch(/"pid":(?!10000\b)\d|"duration_ms":[1-9]/);
      const times = text.match(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g) ?? [];
      expect(
        times.filter((time) => time !== "2026-01-01T00:00:00.000Z"),
        file,
      ).toEqual([]);
    }
    // The resumed run found the first run's session: its --resume names the same placeholder.
    const meta = JSON.parse(readFileSync(join(outDir, "n-resume.meta.json"), "utf8")) as { runs: { args: string[] }[] };
    const first = readFileSync(join(outDir, "n-resume.first.stdout.jsonl"), "utf8");
    expect(first).toContain(`"session_id":"${meta.runs[1]?.args.at(-1)}"`);
  });
});
