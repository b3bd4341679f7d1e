// What the engine and keeper benchmarks share: the recorded fixtures repeated into one stdout
// stream for the stand-in CLI to replay, the line that marks its end, scripts for the stand-in,
// and the statistics both report.
import { Buffer } from "node:buffer";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
export const FIXTURES = join(root, "test/golden/fixtures/claude-code-2.1.332");
export const STAND_IN = join(root, "test/support/fake-claude/fake-claude.js");
export const END = "BENCH-END";

/** The assistant line (text END) that tells a consumer the stream is over. */
export const endLine = JSON.stringify({
  type: "assistant",
  message: { id: "msg_end", type: "message", role: "assistant", content: [{ type: "text", text: END }] },
  parent_tool_use_id: null,
  session_id: "sess-bench",
});

/** Epoch milliseconds with sub-millisecond precision, within this process. */
export const wall = () => performance.timeOrigin + performance.now();
/**
 * How long ago the stand-in wrote a timed line ("T <ms>"): both read the host's monotonic clock,
 * the same in every process (each process's `performance.timeOrigin` may be a few ms off).
 */
export const sinceWritten = (text) => Number(process.hrtime.bigint()) / 1e6 - Number(text.slice(2));
export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
export const percentile = (xs, p) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];

/**
 * Every recorded stdout as one text, without a final newline. Left out: r2's 1 MiB lines, empty
 * recordings, and those of a CLI that refused to start (its one result names why): such a line
 * only ever comes alone from a process about to exit, and Telecode ends the process on it, so in
 * the middle of a replay it would end the stream for Telecode alone.
 */
export function recordedStdout() {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(".stdout.jsonl") && !name.startsWith("r2-"))
    .sort()
    .map((name) => readFileSync(join(FIXTURES, name), "utf8").trimEnd())
    .filter((text) => text !== "" && !text.includes('"startup_failure_reason"'))
    .join("\n");
}

/** Every fixture's stdout once (r2's 1 MiB lines left out) in `work`, and how often to replay it for `minLines`. */
export function buildStreamFile(work, minLines) {
  const once = recordedStdout();
  const linesOnce = once.split("\n").length;
  const times = Math.ceil(minLines / linesOnce);
  const file = join(work, "stream.jsonl");
  writeFileSync(file, `${once}\n`);
  return { file, times, lines: linesOnce * times + 1, bytes: (Buffer.byteLength(once) + 1) * times };
}

/** A stand-in script in `work` (`options` such as exitOnEof beside its steps); returns its path. */
export function writeScript(work, name, steps, options = {}) {
  const file = join(work, `${name}.json`);
  writeFileSync(file, JSON.stringify({ steps, ...options }));
  return file;
}

/** The stand-in's environment: PATH, a HOME in `work`, its script. */
export const standInEnv = (work, script) => ({ PATH: process.env.PATH, HOME: work, FAKE_CLAUDE_SCRIPT: script });

/** p50 and p99 of one round's latencies (ms), its first 100 (warm-up) left out. */
export const latencyPercentiles = (xs) => ({ p50: percentile(xs.slice(100), 50), p99: percentile(xs.slice(100), 99) });

/** A latency table row over rounds of `lines` timed lines each. */
export const latencyRow = (variant, lines, ps) => ({
  variant,
  "lines × rounds": `${lines - 100} × ${ps.length}`,
  "p50 ms": median(ps.map((p) => p.p50)).toFixed(3),
  "p99 ms (median of rounds)": median(ps.map((p) => p.p99)).toFixed(3),
  "p99 ms (best round)": Math.min(...ps.map((p) => p.p99)).toFixed(3),
});
