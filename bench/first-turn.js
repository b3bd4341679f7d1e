// The first turn as a person meets it, for bench/engine: (1) `telecode run` against the bare
// CLI in control mode fed the same stdin lines, as whole processes, interleaved; (2) in the
// bridge, a Telegram message to the CLI process being spawned and to the first progress edit.
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { register } from "node:module";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { fileURLToPath, URL } from "node:url";
import { buildArgs } from "../dist/claude/index.js";
import { encodePrompt } from "../dist/claude/prompt-line.js";
import { encodeControlRequest } from "../dist/wire/index.js";
import { realCliEnv, startBenchApi } from "./engine-fake-api.js";
import { median, percentile, wall } from "./stand-in-stream.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const TELECODE = join(root, "bin/telecode.js");
const PROMPT = "say hi";

/**
 * Spawns a process, feeds it `stdin` lines, and resolves with its wall time once it has closed
 * (`wall`) and when its stdout first held the answer (`answered`: the result line from the bare
 * CLI, anything from `telecode run`, which prints only the answer there).
 */
function timeProcess(file, args, { cwd, env, stdin }) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(file, args, { cwd, env, stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    let err = "";
    let answered;
    child.stdout.on("data", (chunk) => {
      out += chunk;
      if (answered === undefined && (stdin === undefined || /"type":"result"/.test(out))) {
        answered = performance.now() - start;
        // The bare CLI stays for more turns: its stdin is closed after the first result, as Telecode does.
        if (stdin !== undefined) child.stdin.end();
      }
    });
    child.stderr.on("data", (chunk) => (err += chunk));
    if (stdin === undefined) child.stdin.end();
    else child.stdin.write(stdin.join(""));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${file} exited ${code}: ${err.slice(-500)}`));
      else resolve({ wall: performance.now() - start, answered });
    });
  });
}

/**
 * One short turn, `telecode run --approve none` against the bare CLI (control mode, the same
 * flags and stdin lines Telecode writes), `rounds` interleaved pairs after one warm-up pair.
 * `ratio` is the median of each round's telecode ÷ bare: a pair runs in the same second, so
 * the ratio holds while the shared machine's load drifts between rounds.
 */
export async function measureOneTurn(work, realCli, rounds) {
  const api = await startBenchApi();
  const home = mkdtempSync(join(work, "home-"));
  const project = mkdtempSync(join(work, "project-"));
  const config = join(work, "first-turn.toml");
  writeFileSync(
    config,
    `[claude]\npath = "${realCli}"\nuse_api_billing = true\n[state]\ndir = "${join(work, "first-turn-state")}"\n`,
  );
  chmodSync(config, 0o600);
  const env = { ...realCliEnv(api, home, work), TELECODE_CONFIG: config };
  const bareArgs = buildArgs({ cwd: project, permissionMode: "default" }, { supportsHookEvents: true });
  const bareStdin = [encodeControlRequest("init_1", { subtype: "initialize", hooks: null }), encodePrompt(PROMPT)];
  const telecode = () =>
    timeProcess(process.execPath, [TELECODE, "run", "--approve", "none", PROMPT], { cwd: project, env });
  const bare = () => timeProcess(realCli, bareArgs, { cwd: project, env, stdin: bareStdin });
  const nodeAlone = () => timeProcess(process.execPath, ["-e", "0"], { cwd: project, env });
  const telecodeVersion = () => timeProcess(process.execPath, [TELECODE, "--version"], { cwd: project, env });

  // The first run ever probes the CLI (beside its start) and keeps the answer in the state dir.
  const firstEver = (await telecode()).wall;
  await bare();
  const runs = { telecode: [], bare: [], node: [], version: [], telecodeAnswer: [], bareAnswer: [] };
  const ratios = [];
  const answerRatios = [];
  for (let round = 0; round < rounds; round++) {
    const [t, b] = [await telecode(), await bare()];
    runs.telecode.push(t.wall);
    runs.bare.push(b.wall);
    ratios.push(t.wall / b.wall);
    runs.telecodeAnswer.push(t.answered);
    runs.bareAnswer.push(b.answered);
    answerRatios.push(t.answered / b.answered);
    runs.node.push((await nodeAlone()).wall);
    runs.version.push((await telecodeVersion()).wall);
  }
  await api.close();
  const medians = Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, median(v)]));
  return { firstEver, ...medians, ratio: median(ratios), answerRatio: median(answerRatios), rounds };
}

// ------------------------------------------------------------------ the bridge

/** A stand-in CLI for the bridge: notes when it started, then answers each prompt with one tool call. */
const BRIDGE_STAND_IN = `#!/usr/bin/env node
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
const args = process.argv.slice(2);
if (args.includes("--version")) { process.stdout.write("2.1.332 (Claude Code)\\n"); process.exit(0); }
if (args.includes("--help")) { process.stdout.write("Usage: claude [options]\\n  --include-hook-events\\n"); process.exit(0); }
appendFileSync(process.env.CLAUDE_BENCH_LOG, performance.timeOrigin + "\\n");
const SESSION = "sess-first-" + process.pid;
const write = (obj) => process.stdout.write(JSON.stringify(obj) + "\\n");
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "control_request") {
    write({ type: "control_response", response: { subtype: "success", request_id: msg.request_id, response: { commands: [], pid: process.pid } } });
  } else if (msg.type === "user") {
    write({ type: "system", subtype: "init", session_id: SESSION, cwd: process.cwd(), model: "claude-bench", permissionMode: "default", tools: ["Bash"], claude_code_version: "2.1.332", uuid: "u-init" });
    write({ type: "assistant", message: { id: "msg_1", type: "message", role: "assistant", model: "claude-bench", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "echo hi" } }], usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: SESSION, uuid: "u-1" });
    setTimeout(() => {
      write({ type: "user", message: { role: "user", content: [{ tool_use_id: "toolu_1", type: "tool_result", content: "hi", is_error: false }] }, parent_tool_use_id: null, session_id: SESSION, uuid: "u-2" });
      write({ type: "result", subtype: "success", is_error: false, result: "Hi.", session_id: SESSION, num_turns: 1, duration_ms: 5, total_cost_usd: 0.001, usage: { input_tokens: 1, output_tokens: 1 } });
    }, 1500);
  }
}).on("close", () => process.exit(0));
`;

/** The times stand-ins wrote to `log` that they started (each process's time origin). */
const starts = (log) => readFileSync(log, "utf8").split("\n").filter(Boolean).map(Number);
const lastStart = (log) => starts(log).at(-1) ?? NaN;

/**
 * The least a Telegram bridge does, as the baseline for Telecode's: a grammY bot on a fake Bot API
 * of its own, in this process, that spawns the stand-in CLI for each message it gets.
 */
async function startBareBridge(startFakeBotApi, standIn, log) {
  const { Bot } = await import("grammy");
  const tg = await startFakeBotApi({ maxPollWaitMs: 1000 });
  tg.addUser({ id: 3001, firstName: "Bare" });
  const bot = new Bot(tg.token, { client: { apiRoot: tg.apiRoot } });
  bot.on("message:text", () => {
    spawn(standIn, [], { env: { PATH: process.env.PATH, CLAUDE_BENCH_LOG: log }, stdio: "ignore" });
  });
  const polling = bot.start();
  return {
    /** A message to the bot, and the ms from sending it to the stand-in's start. */
    async message() {
      const before = starts(log).length;
      const sentAt = wall();
      tg.sendText(3001, "hello");
      await tg.waitFor(() => starts(log).length > before, { timeoutMs: 30_000, what: "the bare bridge's spawn" });
      return lastStart(log) - sentAt;
    },
    async close() {
      await bot.stop();
      await polling;
      await tg.close();
    },
  };
}

/**
 * `chats` people each send one message (one after another), so each starts a CLI, to a real
 * `telecode` process (its own RSS, as served): from the update leaving the Bot API to the
 * stand-in's process start, to the progress message, and to its first edit. The first message
 * is the one whose CLI is probed (nothing cached yet). Each message to Telecode is followed by
 * one to a bare bridge (startBareBridge), so a round's two spawns meet the same machine.
 */
export async function measureBridgeStart(work, chats) {
  register("../test/store/helpers/ts-hooks.js", import.meta.url);
  const { startFakeBotApi } = await import("../test/support/fake-bot-api/index.ts");
  const standIn = join(work, "bridge-claude.mjs");
  const spawnLog = join(work, "bridge-spawns.log");
  writeFileSync(standIn, BRIDGE_STAND_IN);
  chmodSync(standIn, 0o755);
  writeFileSync(spawnLog, "");
  const bareLog = join(work, "bare-spawns.log");
  writeFileSync(bareLog, "");
  const bare = await startBareBridge(startFakeBotApi, standIn, bareLog);
  const tg = await startFakeBotApi({ maxPollWaitMs: 1000 });
  const people = Array.from({ length: chats }, (_, i) => 2001 + i);
  for (const id of people) tg.addUser({ id, firstName: `Person ${id}` });
  const configPath = join(work, "bridge.toml");
  writeFileSync(
    configPath,
    [
      "[telegram]",
      `bot_token = "${tg.token}"`,
      `allowed_user_ids = [${people.join(", ")}]`,
      `api_root = "${tg.apiRoot}"`,
      "[claude]",
      `path = "${standIn}"`,
      "[projects.bench]",
      `path = "${work}"`,
      "[limits]",
      "drain_seconds = 0",
      "[state]",
      `dir = "${join(work, "bridge-state")}"`,
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const serve = spawn(process.execPath, [TELECODE, "--config", configPath], {
    env: { PATH: process.env.PATH, HOME: work, CLAUDE_BENCH_LOG: spawnLog },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  serve.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => serve.on("close", resolve));
  await tg.waitFor(() => /running as/.test(stderr), { timeoutMs: 30_000, what: `telecode serving (${stderr})` });
  const samples = [];
  for (const chat of people) {
    const sentAt = wall();
    tg.sendText(chat, "hello");
    await tg.waitForBotMessage(chat, (m) => /reply to continue/.test(m.text), { timeoutMs: 30_000 });
    const writes = tg.writeCalls(chat).filter((c) => c.ok);
    const sent = writes.find((c) => c.method === "sendMessage");
    const edit = writes.find((c) => c.method === "editMessageText");
    samples.push({
      spawnMs: lastStart(spawnLog) - sentAt,
      progressMs: (sent?.atMs ?? NaN) - sentAt,
      editMs: (edit?.atMs ?? NaN) - sentAt,
      bareSpawnMs: await bare.message(),
    });
  }
  serve.kill("SIGTERM");
  await exited;
  await tg.close();
  await bare.close();
  const [first, ...rest] = samples;
  const of = (key) => rest.map((s) => s[key]);
  const stats = (key) => ({ p50: percentile(of(key), 50), p90: percentile(of(key), 90), first: first[key] });
  return {
    n: rest.length,
    spawn: stats("spawnMs"),
    progress: stats("progressMs"),
    edit: stats("editMs"),
    bareSpawn: stats("bareSpawnMs"),
    /** Telecode's spawn ÷ the bare bridge's, round by round: median. */
    spawnRatio: median(rest.map((s) => s.spawnMs / s.bareSpawnMs)),
  };
}
