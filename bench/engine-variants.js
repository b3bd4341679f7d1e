// The three consumers bench/engine compares, each fed by the same stand-in CLI replaying the
// same recorded stream: (a) the floor, a bare pipe + split + JSON.parse; (b) Telecode's engine
// (spawn → framer → decoder → translator → events); (c) the Agent SDK's query() with
// pathToClaudeCodeExecutable pointing at the stand-in. Plus the stream and the stand-in's scripts.
import { spawn } from "node:child_process";
import { copyFileSync, mkdtempSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { setImmediate } from "node:timers";
import { fileURLToPath, URL } from "node:url";
import { query } from "@anthropic-ai/claude-agent-sdk";
import { allowAllController, createClaudeEngine } from "../dist/claude/index.js";
import { splitByteLines } from "./byte-lines.js";
import { scaled } from "./scale.js";
import { buildStreamFile, END, endLine, STAND_IN, standInEnv, writeScript } from "./stand-in-stream.js";

export { endLine, FIXTURES } from "./stand-in-stream.js";
export const REAL_CLI = fileURLToPath(new URL("../node_modules/.bin/claude", import.meta.url));
export const MiB = 1024 * 1024;
const MIN_LINES = scaled(200_000, 2000);
/** Timed lines per latency run; the stand-in writes one a millisecond. */
export const LATENCY_LINES = scaled(2000, 300);

export const rssMiB = () => process.memoryUsage.rss() / MiB;
/** CPU seconds this process (the consumer) has used since `since` (a process.cpuUsage() reading). */
const cpuSince = (since) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1e6;
};

/**
 * The work dir (a new one, or the given one again) with the stream (every recorded stdout but
 * r2's 1 MB lines, repeated to ≥ 200k lines) and the scripts.
 */
export function prepareWork(work = mkdtempSync(join(tmpdir(), "telecode-bench-"))) {
  const stream = buildStreamFile(work, MIN_LINES);
  // The SDK closes the CLI's stdin after the first result it reads; the stand-in keeps replaying.
  const script = (name, steps) => writeScript(work, name, steps, { exitOnEof: false });
  return {
    work,
    stream: { lines: stream.lines, bytes: stream.bytes },
    script,
    /** A tenth of the stream: what each measured run consumes first, so its code runs optimized. */
    warmScript: script("warm", [
      { awaitIn: { type: "user" } },
      { replay: stream.file, times: Math.ceil(stream.times / 10) },
      { out: endLine },
    ]),
    replayScript: script("replay", [
      { awaitIn: { type: "user" } },
      { replay: stream.file, times: stream.times },
      { out: endLine },
    ]),
  };
}

/** The text of an assistant line or SDK message, if it has one. */
const textOf = (message) => message.message?.content?.[0]?.text;

/** (a) The floor: spawn the stand-in, split its stdout on "\n", JSON.parse each line. */
export function runFloor(work, script, onText) {
  return new Promise((resolve) => {
    const start = performance.now();
    const cpu = process.cpuUsage();
    const child = spawn(STAND_IN, [], { env: standInEnv(work, script), stdio: ["pipe", "pipe", "inherit"] });
    child.stdin.write(`${JSON.stringify({ type: "user", message: { role: "user", content: "go" } })}\n`);
    let count = 0;
    let done = false;
    const lines = splitByteLines((text) => {
      if (done) return;
      const value = JSON.parse(text);
      count += 1;
      if (value.type !== "assistant") return;
      const t = textOf(value);
      if (t === END) {
        done = true;
        const seconds = (performance.now() - start) / 1000;
        const cpuSeconds = cpuSince(cpu);
        child.stdin.end();
        child.once("close", () => resolve({ seconds, cpuSeconds, lines: count }));
      } else if (onText !== undefined && typeof t === "string") onText(t);
    });
    child.stdout.on("data", (chunk) => {
      if (!done) lines.push(chunk);
    });
  });
}

/** The engine of this process (one, as a Telecode process has) and the script its stand-ins play now. */
let standInEngine;
let playing;

/**
 * One Telecode engine session on the stand-in (default mode, every request allowed). All of a
 * process's sessions are opened on one engine, as Telecode's are; the stand-in's probe is kept in
 * `work` (the warm-up run makes it), as an installed CLI's is. The engine's environment is fixed,
 * so the script each stand-in plays is named by a file of this process's that is replaced (never
 * rewritten in place, as stand-ins still starting may be reading it) when the script changes.
 */
export function openStandIn(work, script) {
  const pointer = join(work, `script-of-${process.pid}.json`);
  if (playing !== script) {
    copyFileSync(script, `${pointer}.next`);
    renameSync(`${pointer}.next`, pointer);
    playing = script;
  }
  standInEngine ??= createClaudeEngine({
    claudePath: STAND_IN,
    env: standInEnv(work, pointer),
    probeCacheFile: join(work, "claude-cli.json"),
  });
  return standInEngine.openSession(
    { cwd: work, permissionMode: "default", envAllow: ["FAKE_CLAUDE_SCRIPT"], idleMs: 0 },
    allowAllController(),
  );
}

/** A consumer slower than the stream: one item per turn of the event loop. */
const slowly = () => new Promise((resolve) => setImmediate(resolve));

/** (b) Telecode: a session on the stand-in; consume events until the end marker. */
export async function runEngine(work, script, options = {}) {
  const session = openStandIn(work, script);
  const start = performance.now();
  const cpu = process.cpuUsage();
  let events = 0;
  let peak = rssMiB();
  await session.startRun("go");
  for await (const event of session.events()) {
    events += 1;
    if (event.type === "text") {
      if (event.text === END) break;
      options.onText?.(event.text);
    }
    if (options.slow === true) {
      if ((events & 1023) === 0) peak = Math.max(peak, rssMiB());
      await slowly();
    }
  }
  const seconds = (performance.now() - start) / 1000;
  const cpuSeconds = cpuSince(cpu);
  await session.close();
  return { seconds, cpuSeconds, events, peak };
}

/** (c) The Agent SDK: query() on the stand-in; consume messages until the end marker. */
export async function runSdk(work, script, options = {}) {
  const start = performance.now();
  const cpu = process.cpuUsage();
  let messages = 0;
  let peak = rssMiB();
  const stream = query({
    prompt: "go",
    options: { pathToClaudeCodeExecutable: STAND_IN, cwd: work, env: standInEnv(work, script) },
  });
  for await (const message of stream) {
    messages += 1;
    if (message.type === "assistant") {
      const t = textOf(message);
      if (t === END) break;
      if (typeof t === "string") options.onText?.(t);
    }
    if (options.slow === true) {
      if ((messages & 1023) === 0) peak = Math.max(peak, rssMiB());
      await slowly();
    }
  }
  return { seconds: (performance.now() - start) / 1000, cpuSeconds: cpuSince(cpu), events: messages, peak };
}
