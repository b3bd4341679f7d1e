// bench/telegram: the whole bridge (grammY bot, outbox, session layer, engine, decision
// driver) against the project's local Bot API fake, with a stand-in `claude` that emits
// 2,000 tool events in 10 s. Reports Bot API calls per second for the chat (goal ≤ 1.2, no
// 429), the lag from the CLI's result line to the final answer (goal ≤ 300 ms) and to the
// progress summary (goal ≤ 1 s), under the outbox's default pacing (one write per second per
// chat), and the time from a tap reaching the bot to the control_response on the CLI's stdin
// (goal p99 < 20 ms).
// The app comes from dist/ (`npm run bench` builds); the fake Bot API is the tests' one,
// loaded from TypeScript through the store tests' loader hook.
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { register } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import process from "node:process";
import { scaled } from "./scale.js";
import { printTable } from "./table.js";

register("../test/store/helpers/ts-hooks.js", import.meta.url);
const { startFakeBotApi } = await import("../test/support/fake-bot-api/index.ts");
const { startTelecode } = await import("../dist/cli/compose/telecode-app.js");
const { loadConfig } = await import("../dist/config/index.js");
const { silentLogger } = await import("../dist/ports/index.js");

const TOOL_EVENTS = scaled(2000, 50);
const BURST_MS = scaled(10_000, 500);
const BATCH_EVERY_MS = 50;
const APPROVALS = scaled(200, 3);
const CHAT = 1001;

// ------------------------------------------------------------------ the stand-in CLI

const STAND_IN = `#!/usr/bin/env node
import { appendFileSync } from "node:fs";
import { createInterface } from "node:readline";
const args = process.argv.slice(2);
if (args.includes("--version")) { process.stdout.write("2.1.332 (Claude Code)\\n"); process.exit(0); }
if (args.includes("--help")) { process.stdout.write("Usage: claude [options]\\n"); process.exit(0); }
const LOG = process.env.CLAUDE_BENCH_LOG;
const now = () => performance.timeOrigin + performance.now();
const mark = (what) => appendFileSync(LOG, now() + " " + what + "\\n");
const SESSION = "sess-bench-" + process.pid;
const TOOL_EVENTS = ${TOOL_EVENTS}, BURST_MS = ${BURST_MS}, EVERY = ${BATCH_EVERY_MS}, APPROVALS = ${APPROVALS};
let waiting;
const write = (obj) => new Promise((r) => (process.stdout.write(JSON.stringify(obj) + "\\n") ? r() : process.stdout.once("drain", r)));
const sleepUntil = (t) => new Promise((r) => setTimeout(r, Math.max(0, t - now())));
createInterface({ input: process.stdin }).on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "control_request") {
    const { subtype, ...rest } = msg.request;
    void write({ type: "control_response", response: { subtype: "success", request_id: msg.request_id, response: subtype === "initialize" ? { commands: [], pid: process.pid } : subtype === "interrupt" ? { still_queued: [] } : rest } });
  } else if (msg.type === "control_response") {
    mark("answer " + msg.response.request_id);
    const w = waiting; waiting = undefined; w?.();
  } else if (msg.type === "user") void turn(JSON.stringify(msg.message?.content ?? "").includes("approvals"));
}).on("close", () => process.exit(0));
const init = () => ({ type: "system", subtype: "init", session_id: SESSION, cwd: process.cwd(), model: "claude-bench", permissionMode: "default", tools: ["Bash"], claude_code_version: "2.1.332", uuid: "u-init" });
const toolUse = (id) => ({ type: "assistant", message: { id: "msg_" + id, type: "message", role: "assistant", model: "claude-bench", content: [{ type: "tool_use", id, name: "Bash", input: { command: "echo " + id, description: "Step " + id } }], usage: { input_tokens: 1, output_tokens: 1 } }, parent_tool_use_id: null, session_id: SESSION, uuid: "u-" + id });
const toolResult = (id) => ({ type: "user", message: { role: "user", content: [{ tool_use_id: id, type: "tool_result", content: "ok", is_error: false }] }, parent_tool_use_id: null, session_id: SESSION, uuid: "r-" + id });
const result = (text) => ({ type: "result", subtype: "success", is_error: false, result: text, session_id: SESSION, num_turns: 1, duration_ms: 5, total_cost_usd: 0.001, usage: { input_tokens: 1, output_tokens: 1 } });
async function turn(approvals) {
  await write(init());
  if (!approvals) {
    const pairs = TOOL_EVENTS / 2, batches = BURST_MS / EVERY, perBatch = Math.ceil(pairs / batches);
    const start = now();
    mark("burst_start");
    for (let b = 0, k = 0; k < pairs; b++) {
      await sleepUntil(start + b * EVERY);
      for (let i = 0; i < perBatch && k < pairs; i++, k++) { await write(toolUse("toolu_" + k)); await write(toolResult("toolu_" + k)); }
    }
    mark("burst_end");
    await write(result("Ran " + pairs + " commands."));
  } else {
    for (let i = 0; i < APPROVALS; i++) {
      const answered = new Promise((r) => (waiting = r));
      await write({ type: "control_request", request_id: "perm-" + i, request: { subtype: "can_use_tool", tool_name: "Bash", input: { command: "echo " + i }, tool_use_id: "toolu_perm_" + i } });
      await answered;
    }
    await write(result("Approved " + APPROVALS + " times."));
  }
  mark("result");
}
`;

// ------------------------------------------------------------------ the rig

const root = await mkdtemp(join(tmpdir(), "telecode-bench-tg-"));
const standIn = join(root, "claude-stand-in.mjs");
const standInLog = join(root, "stand-in.log");
await writeFile(standIn, STAND_IN);
await chmod(standIn, 0o755);
const tg = await startFakeBotApi({ maxPollWaitMs: 1000 });
tg.addUser({ id: CHAT, firstName: "Bench" });
const configPath = join(root, "config.toml");
await writeFile(
  configPath,
  [
    "[telegram]",
    `bot_token = "${tg.token}"`,
    `allowed_user_ids = [${CHAT}]`,
    `api_root = "${tg.apiRoot}"`,
    "[claude]",
    `path = "${standIn}"`,
    "[projects.bench]",
    `path = "${root}"`,
    "[limits]",
    "drain_seconds = 0",
    "[state]",
    `dir = "${join(root, "state")}"`,
    "",
  ].join("\n"),
  { mode: 0o600 },
);
const { config } = loadConfig({ configPath, env: { HOME: root } });
const env = { ...process.env, HOME: root, CLAUDE_BENCH_LOG: standInLog };

/** A logger that keeps the moment each tap reached the bridge. */
const tapTimes = [];
const tapLogger = {
  ...silentLogger,
  event: (name) => {
    if (name === "telegram.tap") tapTimes.push(performance.timeOrigin + performance.now());
  },
  child: () => tapLogger,
};

async function marks() {
  const text = await readFile(standInLog, "utf8").catch(() => "");
  return text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [at, ...what] = line.split(" ");
      return { atMs: Number(at), what: what.join(" ") };
    });
}

const isAnswer = (m) => /reply to continue/.test(m.text);

// ------------------------------------------------------------------ 1. the burst, at Telegram's pacing

const burstApp = await startTelecode({
  config: () => config,
  env,
  logger: silentLogger,
  tuning: { pollTimeoutSeconds: 1 },
});
const sentAt = Date.now();
tg.sendText(CHAT, "Run two thousand tool events");
const answer = await tg.waitForBotMessage(CHAT, isAnswer, { timeoutMs: 120_000 });
const progressId = tg.botMessages(CHAT)[0].messageId;
await tg.waitFor(() => /Done/.test(tg.message(CHAT, progressId)?.text ?? ""), {
  timeoutMs: 30_000,
  what: "the summary",
});
await burstApp.stop({ flushTimeoutMs: 5000 });

const burstMarks = await marks();
const at = (what) => burstMarks.find((m) => m.what === what)?.atMs ?? NaN;
const writes = tg.writeCalls(CHAT).filter((c) => c.atMs >= sentAt && c.method !== "setMyCommands");
const firstCallMs = writes[0]?.atMs ?? sentAt;
const lastCallMs = writes.at(-1)?.atMs ?? sentAt;
const spanS = Math.max(1, (lastCallMs - firstCallMs) / 1000);
let maxInOneSecond = 0;
for (const call of writes)
  maxInOneSecond = Math.max(
    maxInOneSecond,
    writes.filter((c) => c.atMs >= call.atMs && c.atMs < call.atMs + 1000).length,
  );
const answerCall = tg
  .calls("sendMessage")
  .find((c) => c.chatId === CHAT && c.ok && String(c.params.text ?? "").includes("reply to continue"));
const summaryCall = tg
  .calls("editMessageText")
  .filter((c) => c.chatId === CHAT && c.ok && String(c.params.text ?? "").includes("Done"))
  .at(-1);
const resultMs = at("result");
const progress = tg.message(CHAT, progressId);
const toolEventsSeen = progress?.revisions.length ?? 0;

// ------------------------------------------------------------------ 2. taps → control_response, with fast pacing

const tapApp = await startTelecode({
  config: () => config,
  env,
  logger: tapLogger,
  tuning: { pollTimeoutSeconds: 1, outbox: { privateIntervalMs: 5, globalPerSecond: 1000 }, progressIntervalMs: 1000 },
});
tapTimes.length = 0;
tg.sendText(CHAT, "Ask me for approvals");
let lastPrompt = answer.messageId;
const tappedAt = [];
for (let i = 0; i < APPROVALS; i++) {
  const prompt = await tg.waitForBotMessage(
    CHAT,
    (m) => m.messageId > lastPrompt && m.buttons.some((b) => b.text === "✅ Allow"),
    { timeoutMs: 30_000 },
  );
  lastPrompt = prompt.messageId;
  tappedAt.push(performance.timeOrigin + performance.now());
  tg.tapButton(CHAT, prompt.messageId, "✅ Allow");
}
await tg.waitForBotMessage(CHAT, (m) => isAnswer(m) && m.text.includes(`Approved ${APPROVALS} times`), {
  timeoutMs: 60_000,
});
await tapApp.stop({ flushTimeoutMs: 5000 });
const answers = (await marks()).filter((m) => m.what.startsWith("answer perm-"));
const fromBridge = answers
  .map((a, i) => a.atMs - (tapTimes[i] ?? NaN))
  .filter(Number.isFinite)
  .sort((a, b) => a - b);
const fromServer = answers
  .map((a, i) => a.atMs - (tappedAt[i] ?? NaN))
  .filter(Number.isFinite)
  .sort((a, b) => a - b);
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;

await tg.close();
await rm(root, { recursive: true, force: true });

// ------------------------------------------------------------------ report

const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(1)} ms` : "n/a");
process.stdout.write(
  `${TOOL_EVENTS} tool events over ${((at("burst_end") - at("burst_start")) / 1000).toFixed(1)} s; the progress message had ${toolEventsSeen} states.\n\n`,
);
printTable([
  { measure: "Bot API writes to the chat", value: String(writes.length), goal: "" },
  { measure: "writes per second (average over the run)", value: (writes.length / spanS).toFixed(2), goal: "≤ 1.2" },
  { measure: "most writes in any 1 s window", value: String(maxInOneSecond), goal: "" },
  { measure: "429 answers", value: String(tg.calls().filter((c) => c.errorCode === 429).length), goal: "0" },
  { measure: "result line → final answer visible", value: ms((answerCall?.atMs ?? NaN) - resultMs), goal: "≤ 300 ms" },
  {
    measure: "result line → progress summary visible",
    value: ms((summaryCall?.atMs ?? NaN) - resultMs),
    goal: "≤ 1000 ms",
  },
  {
    measure: `tap reaches bot → control_response on stdin, p50 (n=${fromBridge.length})`,
    value: ms(pct(fromBridge, 50)),
    goal: "",
  },
  { measure: "tap reaches bot → control_response on stdin, p99", value: ms(pct(fromBridge, 99)), goal: "< 20 ms" },
  {
    measure: "tap sent to Bot API → control_response, p99 (includes long-poll delivery)",
    value: ms(pct(fromServer, 99)),
    goal: "",
  },
]);
