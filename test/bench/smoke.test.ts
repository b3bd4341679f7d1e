// Every benchmark in bench/, run end to end at smoke size (TELECODE_BENCH_SMOKE=1: seconds each)
// the way `npm run bench` runs them at full size. A change that breaks one (an export it imports
// renamed, a recording its stream cannot take, a stand-in that no longer answers, a report that
// throws) fails here the day it lands instead of at the next measurement. What a smoke run
// measures means nothing and is not checked; that each benchmark ran to its report is.
import { spawn } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath, URL } from "node:url";
import { describe, expect, it } from "vitest";

const benchDir = fileURLToPath(new URL("../../bench/", import.meta.url));
const benchmarks = readdirSync(benchDir)
  .filter((name) => name.endsWith(".bench.js"))
  .map((name) => name.replace(/\.bench\.js$/, ""))
  .sort();

function runAllSmall(): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--expose-gc", "run.js"], {
      cwd: benchDir,
      env: { ...process.env, TELECODE_BENCH_SMOKE: "1" },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** What one benchmark printed: from its "## name" header to the next. */
const sectionOf = (stdout: string, name: string) => stdout.split(/^## /m).find((s) => s.startsWith(`${name}\n`)) ?? "";

describe("the benchmarks, at smoke size", () => {
  it("each runs to its report", { timeout: 300_000 }, async () => {
    expect(benchmarks).toEqual(expect.arrayContaining(["engine", "keeper", "pipeline", "telegram"]));
    const run = await runAllSmall();
    expect(run.code, `a benchmark failed:\n${run.stderr.slice(-3000)}`).toBe(0);
    for (const name of benchmarks) {
      const section = sectionOf(run.stdout, name);
      // A table's rule line, or (bench/instructions without valgrind) the line saying it was skipped.
      expect(section, `bench/${name} printed no report`).toMatch(/\n\|-+\||skipped/);
    }
    // bench/engine's last part, the bridge's start: the benchmark ran to its end.
    expect(sectionOf(run.stdout, "engine")).toContain("Telecode ÷ a bare bot that only spawns the CLI");
  });
});
