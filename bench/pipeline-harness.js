// What bench/pipeline and bench/instructions share: the recorded lines as strings, fed a
// chunk's worth per macrotask to a Telecode session behind an in-memory transport (no process,
// no pipe), and the baseline that JSON.parses the same strings in the same batches.
import { performance } from "node:perf_hooks";
import { setImmediate } from "node:timers";
import { allowAllController, createClaudeEngine } from "../dist/claude/index.js";
import { END, endLine, recordedStdout } from "./stand-in-stream.js";

/** Lines per macrotask: about what one 64 KiB read of the recorded stream holds. */
export const BATCH = 20;

/** Every recorded stdout line `repeat` times, then the end marker. */
export function pipelineLines(repeat) {
  const once = recordedStdout().split("\n");
  return [...Array.from({ length: repeat }, () => once).flat(), endLine];
}

/** Calls `each(line, seq)` for every line, BATCH per macrotask, from `from` on, until it returns false. */
function feed(lines, each, from = 0) {
  const end = Math.min(from + BATCH, lines.length);
  for (let i = from; i < end; i++) if (each(lines[i], i + 1) === false) return;
  if (end < lines.length) setImmediate(feed, lines, each, end);
}

/** A launcher whose one CLI answers control requests and, once the prompt is written, prints every line. */
function inMemoryLauncher(lines) {
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
            setImmediate(() => feed(lines, (line) => handlers.onLine(line, ++seq)));
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

/** A new engine's session reads `lines`: milliseconds from the prompt to the end marker's text event, and how many events came. */
export async function telecodeRun(lines) {
  const engine = createClaudeEngine({
    claudePath: "claude",
    env: {},
    launcher: inMemoryLauncher(lines),
    timeZone: "UTC",
  });
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
export function parseRun(lines) {
  return new Promise((resolve) => {
    const start = performance.now();
    feed(lines, (line) => {
      const value = JSON.parse(line);
      if (value.type !== "assistant" || value.message.content[0]?.text !== END) return true;
      resolve({ ms: performance.now() - start });
      return false;
    });
  });
}
