// Plays one scenario against a real `claude` binary: a fresh workspace and fake Messages API,
// each run spawned in turn and driven step by step, every stdin/stdout/stderr line kept with
// its time. Returns the raw recording (machine paths and all); sanitise.ts cleans it.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { createInterface } from "node:readline";
import { makeClaudeWorkspace, type ClaudeWorkspace } from "../claude-workspace.js";
import { startFakeAnthropic, type RecordedRequest } from "../fake-anthropic/index.js";
import type { LineMatch, RunContext, Scenario, ScenarioRun, SeenLine, Step } from "./scenario.js";

export type TranscriptEntry =
  | { dir: "in" | "out" | "stderr"; line: string; ms: number }
  | { dir: "eof"; line: null; ms: number }
  | { dir: "signal"; line: string; ms: number }
  | { dir: "exit"; line: { code: number | null; signal: string | null }; ms: number };

export type PlayedRun = {
  label: string;
  args: string[];
  transcript: TranscriptEntry[];
  exit: { code: number | null; signal: string | null; timedOut: boolean };
  durationMs: number;
  /** What went wrong while driving it (a step that timed out, a process that had to be killed). */
  warnings: string[];
};

export type PlayedScenario = {
  scenario: Scenario;
  runs: PlayedRun[];
  requests: RecordedRequest[];
  /** The machine paths and port the sanitiser replaces. */
  place: { root: string; home: string; project: string; tmp: string; apiPort: string };
  /** Set when a step could not complete: the recording is not what the scenario describes. */
  failure?: string;
};

const DEFAULT_WAIT_MS = 60_000;
const EXIT_WAIT_MS = 30_000;

/** True when a stdout line matches a step's "type" or "type/sub" pattern (see LineMatch). */
export function matchesLine(line: SeenLine, pattern: LineMatch): boolean {
  const [type, sub] = pattern.split("/", 2);
  if (line["type"] !== type) return false;
  if (sub === undefined) return true;
  if (type === "assistant") {
    const content = (line["message"] as { content?: unknown } | undefined)?.content;
    return Array.isArray(content) && content.some((block) => (block as { type?: unknown }).type === sub);
  }
  const inner = (key: string) => (line[key] as Record<string, unknown> | undefined)?.["subtype"];
  return [line["subtype"], inner("request"), inner("response"), line["state"]].includes(sub);
}

class StepFailed extends Error {}

/** `promise`'s value, or undefined when it takes longer than `ms`; the timer never outlives it. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms))),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** One spawned process and the stdout lines it printed so far, with waiters on them. */
class LiveRun {
  readonly transcript: TranscriptEntry[] = [];
  readonly seen: SeenLine[] = [];
  readonly #start = performance.now();
  #waiters: { check: () => boolean; resolve: () => void }[] = [];
  #closed = false;
  readonly closed: Promise<{ code: number | null; signal: string | null }>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout, crlfDelay: Infinity }).on("line", (line) => {
      this.#log({ dir: "out", line, ms: this.ms() });
      try {
        this.seen.push(JSON.parse(line) as SeenLine);
      } catch {
        this.seen.push({});
      }
      this.#wake();
    });
    createInterface({ input: child.stderr, crlfDelay: Infinity }).on("line", (line) =>
      this.#log({ dir: "stderr", line, ms: this.ms() }),
    );
    this.closed = new Promise((resolve) =>
      child.on("close", (code, signal) => {
        this.#closed = true;
        this.#log({ dir: "exit", line: { code, signal }, ms: this.ms() });
        this.#wake();
        resolve({ code, signal });
      }),
    );
    child.stdin.on("error", () => undefined); // a CLI that exited early: the write is lost, the exit says why
  }

  ms(): number {
    return Math.round(performance.now() - this.#start);
  }

  #log(entry: TranscriptEntry): void {
    this.transcript.push(entry);
  }

  #wake(): void {
    this.#waiters = this.#waiters.filter((w) => (w.check() ? (w.resolve(), false) : true));
  }

  write(text: string): void {
    this.#log({ dir: "in", line: text, ms: this.ms() });
    this.child.stdin.write(`${text}\n`);
  }

  closeStdin(): void {
    this.#log({ dir: "eof", line: null, ms: this.ms() });
    this.child.stdin.end();
  }

  signal(signal: NodeJS.Signals): void {
    this.#log({ dir: "signal", line: signal, ms: this.ms() });
    this.child.kill(signal);
  }

  /** The `count`-th line matching `pattern`, waiting for it up to `timeoutMs`. */
  async nth(pattern: LineMatch, count: number, timeoutMs: number): Promise<SeenLine> {
    const find = () => this.seen.filter((line) => matchesLine(line, pattern))[count - 1];
    const ready = () => find() !== undefined || this.#closed;
    if (!ready()) {
      const woken = new Promise<true>((resolve) => this.#waiters.push({ check: ready, resolve: () => resolve(true) }));
      if ((await within(woken, timeoutMs)) === undefined)
        throw new StepFailed(`no ${pattern} #${count} within ${timeoutMs / 1000} s`);
    }
    const line = find();
    if (line === undefined) throw new StepFailed(`the CLI exited before printing ${pattern} #${count}`);
    return line;
  }
}

async function playStep(run: LiveRun, step: Step): Promise<void> {
  if ("write" in step) run.write(typeof step.write === "string" ? step.write : JSON.stringify(step.write));
  else if ("waitFor" in step) await run.nth(step.waitFor, step.count ?? 1, step.timeoutMs ?? DEFAULT_WAIT_MS);
  else if ("answer" in step) {
    const request = await run.nth(step.answer, step.count ?? 1, DEFAULT_WAIT_MS);
    const response = { subtype: "success", request_id: request["request_id"], response: step.with(request) };
    run.write(JSON.stringify({ type: "control_response", response }));
  } else if ("pauseMs" in step) await new Promise((resolve) => setTimeout(resolve, step.pauseMs));
  else if ("closeStdin" in step) run.closeStdin();
  else run.signal(step.signal);
}

function envFor(workspace: ClaudeWorkspace, ...extras: (Readonly<Record<string, string | null>> | undefined)[]) {
  const env: NodeJS.ProcessEnv = { ...workspace.env };
  for (const extra of extras)
    for (const [key, value] of Object.entries(extra ?? {})) {
      if (value === null) delete env[key];
      else env[key] = value;
    }
  return env;
}

async function playRun(
  cliPath: string,
  spec: ScenarioRun,
  scenario: Scenario,
  workspace: ClaudeWorkspace,
  context: RunContext,
): Promise<{ played: PlayedRun; failure?: string }> {
  const args = typeof spec.args === "function" ? spec.args(context) : spec.args;
  const child = spawn(cliPath, args, {
    cwd: workspace.cwd,
    env: envFor(workspace, scenario.env, spec.env),
    stdio: ["pipe", "pipe", "pipe"],
  });
  const run = new LiveRun(child);
  const warnings: string[] = [];
  let failure: string | undefined;
  try {
    for (const step of spec.steps) await playStep(run, step);
  } catch (error) {
    if (!(error instanceof StepFailed)) throw error;
    failure = `${spec.label}: ${error.message}`;
    warnings.push(error.message);
    if (child.exitCode === null) run.closeStdin();
  }
  let timedOut = false;
  const exited = await within(run.closed, EXIT_WAIT_MS);
  if (exited === undefined) {
    timedOut = true;
    warnings.push(`still running ${EXIT_WAIT_MS / 1000} s after its last step: killed`);
    child.kill("SIGKILL");
    failure ??= `${spec.label}: the CLI did not exit`;
  }
  const { code, signal } = await run.closed;
  return {
    played: {
      label: spec.label,
      args,
      transcript: run.transcript,
      exit: { code, signal, timedOut },
      durationMs: run.ms(),
      warnings,
    },
    ...(failure === undefined ? {} : { failure }),
  };
}

/** The session id a run printed (init or result), for a later run's --resume. */
function sessionIdOf(run: PlayedRun): string {
  for (const entry of run.transcript) {
    if (entry.dir !== "out") continue;
    const match = /"session_id":"([^"]+)"/.exec(entry.line);
    if (match?.[1] !== undefined && match[1] !== "") return match[1];
  }
  return "";
}

/** Plays every run of `scenario` with the CLI at `cliPath`; never throws for what the CLI does. */
export async function playScenario(cliPath: string, scenario: Scenario): Promise<PlayedScenario> {
  const api = await startFakeAnthropic(scenario.fallback === undefined ? {} : { fallback: scenario.fallback });
  const workspace = await makeClaudeWorkspace(api.url);
  try {
    const place = {
      root: workspace.root,
      home: workspace.home,
      project: workspace.cwd,
      tmp: join(workspace.root, "tmp"),
      apiPort: new URL(api.url).port,
    };
    api.script(typeof scenario.replies === "function" ? scenario.replies(place) : scenario.replies);
    for (const [key, replies] of Object.entries(scenario.keyed ?? {})) api.script(replies, key);
    for (const [dir, files] of [
      [workspace.cwd, scenario.files],
      [workspace.home, scenario.homeFiles],
    ] as const)
      for (const [file, content] of Object.entries(files ?? {})) {
        await mkdir(dirname(join(dir, file)), { recursive: true });
        await writeFile(join(dir, file), content);
      }
    const runs: PlayedRun[] = [];
    const context: RunContext = {
      sessionOf: (label) => sessionIdOf(runs.find((r) => r.label === label) ?? ({ transcript: [] } as never)),
    };
    let failure: string | undefined;
    for (const spec of scenario.runs) {
      const result = await playRun(cliPath, spec, scenario, workspace, context);
      runs.push(result.played);
      if (result.failure !== undefined) {
        failure = result.failure;
        break;
      }
    }
    // Every request the CLI made, its guesses at the next message among them, in order.
    const requests = [...api.requests(), ...api.guesses()].sort((a, b) => a.n - b.n);
    return { scenario, runs, requests, place, ...(failure === undefined ? {} : { failure }) };
  } finally {
    await api.close();
    await workspace.cleanup();
  }
}
