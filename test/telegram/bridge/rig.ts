// The end-to-end rig for the Telegram bridge: the fake Bot API and the fake Messages API on
// 127.0.0.1, a fresh workspace with a git project, a real config file, and the app exactly as
// `telecode` builds it (real grammY bot, engine, real Claude CLI, SQLite store).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, vi } from "vitest";
import { loadConfig, type Config } from "../../../src/config/index.js";
import { findKeepers, reapGoneKeeper } from "../../../src/keeper/index.js";
import { endsWithin } from "../../../src/keeper/process-identity.js";
import { createSystemClock, silentLogger, type Logger } from "../../../src/ports/index.js";
import type { SchedulerClock } from "../../../src/schedule/index.js";
import { startTelecode, type AppTuning, type TelecodeApp } from "../../../src/cli/compose/telecode-app.js";
import { claudeProbeCacheFile } from "../../../src/cli/data-dir.js";
import { logClaudeVersion } from "../../../src/cli/doctor-version.js";
import { reply, startFakeAnthropic, type FakeAnthropic, type FakeReply } from "../../support/fake-anthropic/index.js";
import { startFakeBotApi, type FakeBotApi, type MessageView } from "../../support/fake-bot-api/index.js";
import { seedDataDir } from "../../support/claude-probe.js";
import { telecodeBin } from "../../support/telecode-bin.js";
import { makeClaudeWorkspace, realClaudePath, type ClaudeWorkspace } from "../../support/claude-workspace.js";

export const ALLOWED_IDS = Array.from({ length: 24 }, (_, i) => 1001 + i);
export const STRANGER_ID = 6666;

/** Fast pacing for tests: the outbox still paces and coalesces, just in milliseconds. */
export const TEST_TUNING: AppTuning = {
  outbox: { privateIntervalMs: 60, groupIntervalMs: 60, backoffMs: 50, maxBackoffMs: 500 },
  progressIntervalMs: 100,
  heartbeatMs: 1000,
  pollTimeoutSeconds: 1,
};

export type RigOptions = {
  mode?: string;
  limits?: Record<string, number>;
  /** Extra lines for the [claude] table, e.g. "dangerously_skip_permissions = true". */
  claude?: readonly string[];
  /** claude.path (default: the pinned real CLI). */
  claudePath?: string;
  /** claude.use_api_billing (default true: the workspace's test key reaches the CLI). */
  apiBilling?: boolean;
  logger?: Logger;
  /** The fake Bot API's clock (message dates); default Date.now. */
  botApiNow?: () => number;
  /** Tuning on top of TEST_TUNING. */
  tuning?: AppTuning;
  /** The scheduler's clock (a manual one makes schedules come due when the test says). */
  scheduleClock?: SchedulerClock;
  /** More tables for the config file, e.g. ["[voice]", 'api_root = "http://…"'] or ["[loops]", …]. */
  toml?: readonly string[];
  /** More environment for the app (a webhook's secret), on top of the workspace's. */
  env?: Readonly<Record<string, string>>;
  /** telegram.api_root from the fake's (e.g. a name only a proxy reaches); default the fake's own. */
  apiRoot?: (fake: string) => string;
  /** Names of the workspace's environment the app does not get (its API key, for a token's login). */
  unsetEnv?: readonly string[];
};

export type Rig = {
  tg: FakeBotApi;
  api: FakeAnthropic;
  ws: ClaudeWorkspace;
  dataDir: string;
  configPath: string;
  /** The config the app reads at every message and run: set it to change settings live. */
  config: Config;
  app: TelecodeApp;
  /** Starts the app again (after `app.stop()`), on the same data, fakes and project. */
  startApp(): Promise<TelecodeApp>;
  /** A user who may use the bot; their private chat id equals their id. */
  user(id: number): number;
  /** Scripts replies for prompts containing `marker`. */
  script(marker: string, replies: FakeReply[]): void;
  /** Sends a command and waits for the bot's reply to it; resolves with that reply's text. */
  command(chatId: number, name: string, args?: string): Promise<string>;
  /** The bot message whose text matches, as it is now, waiting for it. */
  botMessage(
    chatId: number,
    match: string | RegExp | ((m: MessageView) => boolean),
    timeoutMs?: number,
  ): Promise<MessageView>;
  dispose(): Promise<void>;
};

export async function startRig(options: RigOptions = {}): Promise<Rig> {
  const tg = await startFakeBotApi({
    maxPollWaitMs: 500,
    ...(options.botApiNow === undefined ? {} : { now: options.botApiNow }),
  });
  const api = await startFakeAnthropic({});
  const ws = await makeClaudeWorkspace(api.url, { CLAUDE_CODE_MAX_RETRIES: "1" });
  const dataDir = await mkdtemp(join(tmpdir(), "telecode-tg-state-"));
  const claudePath = options.claudePath ?? realClaudePath;
  if (claudePath === realClaudePath) await seedDataDir(dataDir);
  const configPath = join(ws.root, "config.toml");
  const limits = { drain_seconds: 0, ...options.limits };
  await writeFile(
    configPath,
    [
      "[telegram]",
      `bot_token = "${tg.token}"`,
      `allowed_user_ids = [${ALLOWED_IDS.join(", ")}]`,
      `api_root = "${options.apiRoot?.(tg.apiRoot) ?? tg.apiRoot}"`,
      "[claude]",
      `path = "${claudePath}"`,
      `use_api_billing = ${options.apiBilling ?? true}`,
      `permission_mode = "${options.mode ?? "default"}"`,
      ...(options.claude ?? []),
      "[projects.app]",
      `path = "${ws.cwd}"`,
      "default = true",
      "[limits]",
      ...Object.entries(limits).map(([k, v]) => `${k} = ${v}`),
      "[state]",
      `dir = "${dataDir}"`,
      ...(options.toml ?? []),
      "",
    ].join("\n"),
    { mode: 0o600 },
  );
  const live = { config: loadConfig({ configPath, env: { HOME: ws.home } }).config };
  const logger = options.logger ?? silentLogger;
  const env = withoutNames({ ...ws.env, ...options.env }, options.unsetEnv ?? []);
  // As `telecode` does at start: the installed CLI against the tested versions, for /status.
  const claudeVersion = await logClaudeVersion({
    command: claudePath,
    env,
    logger,
    cacheFile: claudeProbeCacheFile(dataDir),
  });
  const startApp = (): Promise<TelecodeApp> =>
    startTelecode({
      config: () => live.config,
      env,
      logger,
      claudeVersion: () => claudeVersion,
      tuning: {
        ...TEST_TUNING,
        ...(options.scheduleClock === undefined ? {} : { scheduleClock: options.scheduleClock }),
        ...options.tuning,
      },
    });
  const rig: Rig = {
    tg,
    api,
    ws,
    dataDir,
    configPath,
    get config() {
      return live.config;
    },
    set config(config: Config) {
      live.config = config;
    },
    app: await startApp(),
    startApp: async () => {
      rig.app = await startApp();
      return rig.app;
    },
    user(id) {
      tg.addUser({ id, firstName: `Ann${id}` });
      return id;
    },
    script(marker, replies) {
      api.script(replies, marker);
    },
    async command(chatId, name, args = "") {
      const id = tg.sendCommand(chatId, name, args);
      return (await tg.waitForBotMessage(chatId, (m) => m.replyToMessageId === id, { timeoutMs: 30_000 })).text;
    },
    botMessage(chatId, match, timeoutMs = 30_000) {
      return tg.waitForBotMessage(chatId, match, { timeoutMs });
    },
    async dispose() {
      // A `telecode` process a failed test left running is ended with its rig.
      for (const child of servedBy.get(rig) ?? [])
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      await rig.app.stop({ flushTimeoutMs: 2000 }).catch(() => undefined);
      // A stop lets go of kept runs: their keepers and CLIs are ended here.
      await endKeepers(dataDir);
      await tg.close();
      await api.close();
      await ws.cleanup();
      await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
    },
  };
  return rig;
}

/** A keeper's log under the data directory holds a line containing `text` (the CLI printed it, maybe while Telecode was down). */
export async function keeperLogged(dataDir: string, text: string): Promise<void> {
  const keepers = join(dataDir, "keepers");
  await vi.waitFor(
    () => {
      const logged = readdirSync(keepers).some((id) => {
        const dir = join(keepers, id, "log");
        return existsSync(dir) && readdirSync(dir).some((f) => readFileSync(join(dir, f), "utf8").includes(text));
      });
      expect(logged).toBe(true);
    },
    { timeout: 30_000, interval: 50 },
  );
}

/**
 * Ends every keeper under the data directory and its CLI (kept runs outlive a stop). With
 * `leaveFiles`, their files stay, as after a reboot.
 */
export async function endKeepers(dataDir: string, options: { leaveFiles?: boolean } = {}): Promise<void> {
  const clock = createSystemClock();
  for (const found of await findKeepers(join(dataDir, "keepers"))) {
    if (found.kind !== "running" && found.kind !== "gone") continue;
    // A gone keeper's pid may belong to another process by now: only a running one is killed.
    if (found.kind === "running") {
      signal(found.record.keeper.pid, "SIGKILL");
      if (options.leaveFiles === true) signal(-found.record.cli.pid, "SIGKILL");
      // A busy machine takes a moment to carry out a SIGKILL: the next start must find them gone, as after a reboot.
      await endsWithin(found.record.keeper, 5000, clock);
      if (options.leaveFiles === true) await endsWithin(found.record.cli, 5000, clock);
    }
    if (options.leaveFiles !== true) await reapGoneKeeper(found.record, clock);
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // it ended meanwhile
  }
}

/** The bot's message in topic `thread` of `chatId` (undefined: General) that matches, waiting for it. */
export function botMessageInTopic(
  rig: Pick<Rig, "tg">,
  chatId: number,
  thread: number | undefined,
  match: (m: MessageView) => boolean,
): Promise<MessageView> {
  return rig.tg.waitFor(() => rig.tg.topics.botMessages(chatId, thread).find(match), {
    what: `a bot message in topic ${thread ?? "General"} of chat ${chatId}`,
    timeoutMs: 30_000,
  });
}

/** Runs `test` with the rig's config changed by `change`, live as a saved file's would be, then puts it back. */
export async function withConfig(
  rig: Pick<Rig, "config">,
  change: (config: Config) => Config,
  test: () => Promise<void>,
): Promise<void> {
  const before = rig.config;
  rig.config = change(before);
  try {
    await test();
  } finally {
    rig.config = before;
  }
}

/** A message with a button labelled `label` (a prompt waiting on a tap). */
export function withButton(label: string): (m: MessageView) => boolean {
  return (m) => m.buttons.some((b) => b.text === label);
}

/** The final answer: a bot message carrying the answer footer. */
export function isAnswer(text: string | RegExp): (m: MessageView) => boolean {
  return (m) =>
    /reply to continue|turns? · /.test(m.text) &&
    (typeof text === "string" ? m.text.includes(text) : text.test(m.text));
}

/**
 * Turns plan-auto on in `chat` and asks for a task (scripted under `marker`) whose plan it
 * approves by itself, with no one asked; resolves with the task's answer, `answer`.
 */
export async function runPlanAuto(rig: Rig, chat: number, marker: string, answer: string): Promise<MessageView> {
  rig.tg.sendCommand(chat, "planmode", "auto");
  await rig.botMessage(chat, "Plan mode auto");
  rig.script(marker, [
    reply.tool("ExitPlanMode", { plan: "Step one, then step two." }, "My plan."),
    reply.text(answer),
  ]);
  rig.tg.sendText(chat, `Plan and do it ${marker}`);
  return rig.botMessage(chat, isAnswer(answer));
}

/**
 * Taps "🔁 Send it again" under a failed run's `error` and checks what a person should see: the
 * tap acknowledged, the request (`prompt`, scripted under `marker`) sent again in the failed
 * run's session, its answer (`answerText`) naming that session, and the button gone.
 */
export async function expectSentAgain(
  rig: Rig,
  chat: number,
  error: MessageView,
  expected: { marker: string; prompt: string; answerText: string },
): Promise<void> {
  expect(error.buttons.map((b) => b.text)).toEqual(["🔁 Send it again"]);
  const tap = rig.tg.tapButton(chat, error.messageId, "🔁 Send it again");
  expect((await rig.tg.waitForCallbackAnswer(tap)).text).toBe("Sending it again");
  const answer = await rig.botMessage(chat, isAnswer(expected.answerText));
  const [again, failed] = rig.app.store.runs.recent(chat, 2);
  expect(failed?.state).toBe("failed");
  expect(again?.sessionId).toBe(failed?.sessionId);
  expect(answer.text).toContain(`session ${failed!.sessionId!.slice(0, 8)}`);
  expect(rig.api.requests(expected.marker).at(-1)?.lastPrompt).toBe(expected.prompt);
  await rig.tg.waitFor(() => rig.tg.message(chat, error.messageId)?.buttons.length === 0, {
    what: "the Send it again button taken down",
  });
}

/** The short session id an answer's footer names ("session 1a2b3c4d — reply to continue"). */
export const sessionOf = (m: MessageView): string | undefined => /session ([0-9a-f]{8})/.exec(m.text)?.[1];

/** A chat with two sessions: an answer, /new, and another answer (`tag` keeps their scripts apart). */
export async function olderAndNewer(
  rig: Rig,
  chat: number,
  tag: string,
): Promise<{ older: MessageView; newer: MessageView }> {
  rig.script(`[${tag}-older]`, [reply.text("The older answer.")]);
  rig.tg.sendText(chat, `Old topic [${tag}-older]`);
  const older = await rig.botMessage(chat, isAnswer("The older answer."));
  await rig.command(chat, "new");
  rig.script(`[${tag}-newer]`, [reply.text("The newer answer.")]);
  rig.tg.sendText(chat, `New topic [${tag}-newer]`);
  const newer = await rig.botMessage(chat, isAnswer("The newer answer."));
  return { older, newer };
}

export type ServeProcess = {
  child: ChildProcess;
  /** Resolves once the bridge polls ("running as @…" on stderr). */
  started: Promise<void>;
  /** Resolves once it has started a second time (after /restart). */
  restarted: Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** Process ids of the Claude CLIs it spawned (from its log), to end what a SIGKILL leaves behind. */
  claudePids(): Promise<number[]>;
};

/** The `telecode` processes each rig spawned (spawnServe), ended by its dispose. */
const servedBy = new WeakMap<Rig, Set<ChildProcess>>();

/** Runs `telecode --config FILE` as a real process on the rig's config (stop the in-process app first). */
export function spawnServe(rig: Rig): ServeProcess {
  const child = spawn(process.execPath, [telecodeBin, "--config", rig.configPath], {
    env: rig.ws.env,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const served = servedBy.get(rig) ?? new Set<ChildProcess>();
  servedBy.set(rig, served.add(child));
  let stderr = "";
  let markStarted: () => void = () => undefined;
  let markRestarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (markStarted = resolve));
  const restarted = new Promise<void>((resolve) => (markRestarted = resolve));
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk: string) => {
    stderr += chunk;
    const starts = stderr.split("running as @").length - 1;
    if (starts >= 1) markStarted();
    if (starts >= 2) markRestarted();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve) => {
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
  const unless = (what: Promise<void>, failure: string): Promise<void> => {
    const raced = Promise.race([
      what,
      exited.then((e) => Promise.reject(new Error(`telecode exited ${failure} (${e.code ?? e.signal}): ${e.stderr}`))),
    ]);
    raced.catch(() => undefined); // only a failure for the test that waits for it
    return raced;
  };
  return {
    child,
    started: unless(started, "before starting"),
    restarted: unless(restarted, "instead of restarting"),
    exited,
    claudePids: () => spawnedClaudePids(rig.dataDir),
  };
}

/**
 * Process ids of the Claude CLIs a `telecode` on `dataDir` spawned, from its log (written
 * synchronously), from byte `fromByte` on (a later process's only).
 */
export async function spawnedClaudePids(dataDir: string, fromByte = 0): Promise<number[]> {
  const whole = await readFile(join(dataDir, "logs", "telecode.log")).catch(() => Buffer.alloc(0));
  const log = whole.subarray(fromByte).toString("utf8");
  // The line has pino's own pid first and the CLI's after it; JSON.parse keeps the last.
  return log.split("\n").flatMap((line) => {
    if (!line.includes('"claude.spawned"')) return [];
    const entry = JSON.parse(line) as { event?: string; pid?: number };
    return entry.event === "claude.spawned" && typeof entry.pid === "number" ? [entry.pid] : [];
  });
}

function withoutNames(env: NodeJS.ProcessEnv, names: readonly string[]): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !names.includes(name)));
}
