#!/usr/bin/env node
/* global process, setTimeout, Buffer */
// A stand-in `claude` for tests and benchmarks: answers --version/--help, refuses the flags in
// FAKE_CLAUDE_UNKNOWN_FLAGS, auto-acks initialize, plays the JSON script in FAKE_CLAUDE_SCRIPT,
// and logs its arguments and stdin lines (FAKE_CLAUDE_ARGS_LOG, FAKE_CLAUDE_STDIN_LOG).
import { appendFileSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";

const args = process.argv.slice(2);
if (process.env.FAKE_CLAUDE_ARGS_LOG) appendFileSync(process.env.FAKE_CLAUDE_ARGS_LOG, `${JSON.stringify(args)}\n`);
// Flags this stand-in plays an older CLI that does not know: refused like the CLI's parser does.
const unknownFlags = (process.env.FAKE_CLAUDE_UNKNOWN_FLAGS ?? "").split(",").filter((f) => f !== "");
if (args.includes("--version")) {
  process.stdout.write("2.1.332 (Claude Code)\n");
  process.exit(0);
}
if (args.includes("--help")) {
  const hookEvents = unknownFlags.includes("--include-hook-events")
    ? ""
    : "  --include-hook-events  Include hook events\n";
  process.stdout.write(`Usage: claude [options]\n${hookEvents}`);
  process.exit(0);
}
const refused = args.find((a) => unknownFlags.includes(a));
if (refused !== undefined) {
  process.stderr.write(`error: unknown option '${refused}'\n`);
  process.exit(1);
}

const script = JSON.parse(readFileSync(process.env.FAKE_CLAUDE_SCRIPT ?? "", "utf8"));
const logFile = process.env.FAKE_CLAUDE_STDIN_LOG;

/** Lines read from stdin, and waiters for a matching one. */
const seen = [];
let waiter;
const matches = (msg, want) =>
  Object.entries(want).every(
    ([k, v]) =>
      (k === "subtype"
        ? (msg.request?.subtype ?? msg.response?.subtype)
        : k === "request_id"
          ? (msg.request_id ?? msg.response?.request_id)
          : msg[k]) === v,
  );

createInterface({ input: process.stdin })
  .on("line", (line) => {
    if (logFile) appendFileSync(logFile, `${line}\n`);
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      process.stderr.write(`Error parsing streaming input line: ${line.slice(0, 20)}\n`);
      process.exit(1);
    }
    if (msg.type === "control_request" && msg.request?.subtype === "initialize") {
      write({
        type: "control_response",
        response: { subtype: "success", request_id: msg.request_id, response: { commands: [], pid: process.pid } },
      });
      return;
    }
    // Our requests the stand-in acknowledges at once (like the CLI), unless the script waits for them.
    if (
      msg.type === "control_request" &&
      (script.autoAck ?? ["interrupt", "set_permission_mode", "set_model"]).includes(msg.request?.subtype)
    ) {
      const { subtype, ...rest } = msg.request;
      write({
        type: "control_response",
        response: {
          subtype: "success",
          request_id: msg.request_id,
          response: subtype === "interrupt" ? { still_queued: [] } : rest,
        },
      });
    }
    if (waiter && matches(msg, waiter.want)) {
      const w = waiter;
      waiter = undefined;
      w.resolve(msg);
    } else {
      seen.push(msg);
    }
  })
  .on("close", () => {
    if (script.exitOnEof !== false) process.exit(0);
  });

function write(obj) {
  return new Promise((resolve) => {
    if (process.stdout.write(`${typeof obj === "string" ? obj : JSON.stringify(obj)}\n`)) resolve();
    else process.stdout.once("drain", resolve);
  });
}

function awaitIn(want) {
  const i = seen.findIndex((m) => matches(m, want));
  if (i >= 0) return Promise.resolve(seen.splice(i, 1)[0]);
  return new Promise((resolve) => {
    waiter = { want, resolve };
  });
}

/** Writes a file's lines `times` times, as fast as the pipe takes them (line-aligned ~64 KiB chunks built once). */
async function replay(file, times) {
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "");
  const chunks = [];
  let pending = [];
  let size = 0;
  for (const l of lines) {
    pending.push(l);
    size += l.length + 1;
    if (size >= 64 * 1024) {
      chunks.push(Buffer.from(`${pending.join("\n")}\n`));
      pending = [];
      size = 0;
    }
  }
  if (pending.length > 0) chunks.push(Buffer.from(`${pending.join("\n")}\n`));
  for (let t = 0; t < times; t++) {
    for (const chunk of chunks) {
      if (!process.stdout.write(chunk)) await new Promise((r) => process.stdout.once("drain", r));
    }
  }
}

/**
 * Writes `count` assistant text lines "T <ms on the host's monotonic clock>", one every
 * `intervalMs` (latency probes; the clock is the same in the reading process).
 */
async function timed(count, intervalMs) {
  for (let i = 0; i < count; i++) {
    const at = Number(process.hrtime.bigint()) / 1e6;
    await write({
      type: "assistant",
      message: {
        id: "msg_t",
        type: "message",
        role: "assistant",
        model: "claude-fake",
        content: [{ type: "text", text: `T ${at}` }],
      },
      parent_tool_use_id: null,
      session_id: "sess-bench",
    });
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

for (const step of script.steps) {
  if ("awaitIn" in step) await awaitIn(step.awaitIn);
  else if ("out" in step) await write(step.out);
  else if ("sleepMs" in step) await new Promise((r) => setTimeout(r, step.sleepMs));
  else if ("replay" in step) await replay(step.replay, step.times ?? 1);
  else if ("timed" in step) await timed(step.timed, step.intervalMs ?? 1);
  else if ("stderr" in step) process.stderr.write(`${step.stderr}\n`);
  else if ("exit" in step) process.exit(step.exit);
}
