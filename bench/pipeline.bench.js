// bench/pipeline: the engine's own cost per line, with no process and no pipe. bench/engine's
// throughput is bounded by the machine (a second process, the kernel's pipe, wake-ups) and
// moves by ±10% from run to run on a shared machine; here an in-memory transport hands a
// Telecode session the recorded lines as strings, a chunk's worth per macrotask, and the baseline
// JSON.parses the same strings in the same batches. What is left between the two is what
// Telecode adds after decoding: decoder checks, translator, control requests, event delivery
// and the consumer's for-await. Interleaved rounds; the best round of each is the least disturbed.
import { performance } from "node:perf_hooks";
import process from "node:process";
import { setImmediate } from "node:timers";
import { allowAllController, createClaudeEngine } from "../dist/claude/index.js";
import { END, endLine, median, recordedStdout } from "./stand-in-stream.js";
import { printTable } from "./table.js";

const ROUNDS = 11;
const REPEAT = 100;
/** Lines per macrotask: about what one 64 KiB read of the recorded stream holds. */
const BATCH = 20;

const once = recordedStdout().split("\n");
const lines = [...Array.from({ length: REPEAT }, () => once).flat(), endLine];

/** Calls `each(line, seq)` for every line, BATCH per macrotask, from `from` on. */
function feed(each, from = 0) {
  const end = Math.min(from + BATCH, lines.length);
  for (let i = from; i < end; i++) if (each(lines[i], i + 1) === false) return;
  if (end < lines.length) setImmediate(feed, each, end);
}

/** A launcher whose one CLI answers control requests and, once the prompt is written, prints every line. */
function inMemoryLauncher() {
  return {
    probe: (command) => Promise.resolve({ path: command, version: "2.1.332", supportsHookEvents: true, probed: true }),
    launch() {
      let handlers;
      let exit;
      let markClosed = () => undefined;
      const closed = new Promise((resolve) => (markClosed = resolve));
      let seq = 0;
      const transport = {
        pid: 1,
        get exit() {
          return exit;
        },
        start(next) {
          handlers = next;
        },
        write(line) {
          // Answers to the CLI's permission requests need nothing back (and are not parsed here).
          if (line.startsWith('{"type":"control_response"')) return Promise.resolve({ ok: true });
          const message = JSON.parse(line);
          if (message.type === "control_request") {
            const response = { subtype: "success", request_id: message.request_id, response: { commands: [] } };
            setImmediate(() => handlers.onLine(JSON.stringify({ type: "control_response", response }), ++seq));
          } else if (message.type === "user" && seq < lines.length) {
            setImmediate(() => feed((line) => handlers.onLine(line, ++seq)));
          }
          return Promise.resolve({ ok: true });
        },
        closeStdin() {
          exit ??= { code: 0, signal: null };
          markClosed({ exit, stderrTail: "" });
        },
        pause() {},
        resume() {},
        shutdown() {
          transport.closeStdin();
          return closed;
        },
        closed,
      };
      return Promise.resolve(transport);
    },
  };
}

/** Milliseconds from the prompt to the end marker's text event, and how many events came. */
async function telecodeRun() {
  const engine = createClaudeEngine({ claudePath: "claude", env: {}, launcher: inMemoryLauncher(), timeZone: "UTC" });
  const session = engine.openSession({ cwd: "/", permissionMode: "default", idleMs: 0 }, allowAllController());
  const start = performance.now();
  await session.startRun("go");
  let events = 0;
  for await (const event of session.events()) {
    events += 1;
    if (event.type === "text" && event.text === END) break;
  }
  const ms = performance.now() - start;
  await session.close();
  return { ms, events };
}

/** The baseline: JSON.parse of the same lines in the same batches. */
function parseRun() {
  return new Promise((resolve) => {
    const start = performance.now();
    feed((line) => {
      const value = JSON.parse(line);
      if (value.type !== "assistant" || value.message.content[0]?.text !== END) return true;
      resolve({ ms: performance.now() - start });
      return false;
    });
  });
}

await telecodeRun(); // JIT
const runs = { parse: [], telecode: [] };
let events = 0;
for (let round = 0; round < ROUNDS; round++) {
  globalThis.gc?.();
  runs.parse.push((await parseRun()).ms);
  globalThis.gc?.();
  const run = await telecodeRun();
  runs.telecode.push(run.ms);
  events = run.events;
}
const best = (key) => Math.min(...runs[key]);
const perLine = (ms) => ((ms * 1000) / lines.length).toFixed(2);
const row = (variant, key) => ({
  variant,
  "best ms": best(key).toFixed(0),
  "median ms": median(runs[key]).toFixed(0),
  "µs per line (best)": perLine(best(key)),
  "÷ JSON.parse (best)": (best(key) / best("parse")).toFixed(2),
  "÷ JSON.parse (median)": (median(runs[key]) / median(runs.parse)).toFixed(2),
});
process.stdout.write(
  `${lines.length.toLocaleString("en-US")} recorded lines as strings, ${BATCH} per macrotask; ${ROUNDS} interleaved rounds; Telecode's ${events.toLocaleString("en-US")} events consumed with for-await\n\n`,
);
printTable([row("JSON.parse each line", "parse"), row("Telecode session → events", "telecode")]);
process.stdout.write(
  `Telecode adds ${perLine(best("telecode") - best("parse"))} µs per line after parsing (best rounds)\n`,
);
