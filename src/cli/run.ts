// `telecode run [options] PROMPT`: one run of Claude Code in the terminal. Progress on stderr
// (a live status on a TTY), the answer on stdout (or every event as JSONL with --json),
// approvals asked at the terminal, allowed, or denied. Exit 0 ok, 1 error/cancelled, 2 usage,
// 130 Ctrl-C, 143/129 SIGTERM/SIGHUP.
import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import { setImmediate as nextMacrotask } from "node:timers/promises";
import { allowAllController, createClaudeEngine, isClaudeError } from "../claude/index.js";
import type { SessionHandle, Effort, SessionSpec } from "../claude/index.js";
import { createSystemClock } from "../ports/index.js";
import { ConfigError, CONFIG_PERMISSION_MODES, EFFORTS, loadConfig } from "../config/index.js";
import type { Config } from "../config/index.js";
import { definedFields, type PermissionMode, type Prompt } from "../domain/index.js";
import { accept, buildRunContent, readImageFiles, refusalText, type MediaResult } from "../media/index.js";
import { decisionSettingsFromConfig, scheduleHooks, specFromConfig, withGuardHooks } from "./compose/session-spec.js";
import { outliveClosedOutput, parseCommandArgs, type CommandIo } from "./command-io.js";
import { claudeProbeCacheFile } from "./data-dir.js";
import { deferredController } from "./deferred-controller.js";
import type { TerminalOut } from "./run-decisions.js";
import { drive, type TerminalUi } from "./run-drive.js";

const HELP = `Usage: telecode run [options] PROMPT

Runs Claude Code once in this terminal: progress on stderr, the answer on stdout.
Without PROMPT, the prompt is read from piped stdin (echo "fix the test" | telecode run).

Options:
  --cwd DIR               project directory (default: the current directory)
  --permission-mode MODE  ${CONFIG_PERMISSION_MODES.join(" | ")} (default: claude.permission_mode)
  --approve ask|all|none  ask at the terminal (default on a TTY), allow everything, or deny
                          what needs a person (default without a TTY)
  --model MODEL           model for this run
  --effort LEVEL          ${EFFORTS.join(" | ")}
  --resume ID             continue the session with this id (or title)
  --continue              continue the most recent session in the directory
  --image FILE            attach an image (PNG, JPEG, GIF or WebP) to the prompt; repeatable
  --json                  print every event as one JSON line on stdout instead of the answer
  --config FILE           config file (default: TELECODE_CONFIG, then ~/.config/telecode/config.toml)
  -h, --help              show this help

Exit codes: 0 success, 1 error or cancelled, 2 bad usage, 130 interrupted with Ctrl-C,
143 or 129 ended by SIGTERM or SIGHUP (Claude Code is ended with it).`;

/** What the command needs from its surroundings beyond CommandIo (tests pass their own). */
export type RunDeps = {
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean };
  /** Where SIGINT (Ctrl-C), SIGTERM and SIGHUP arrive, as events named so (default: this process). */
  signals?: NodeJS.EventEmitter;
  /** Whether stderr is a terminal (default: the stream's isTTY). */
  stderrIsTTY?: boolean;
};

type RunOptions = {
  prompt: string;
  /** Image files to attach, as given (relative to the current directory). */
  images: string[];
  cwd: string;
  permissionMode: string | undefined;
  approve: "ask" | "all" | "none" | undefined;
  model: string | undefined;
  effort: Effort | undefined;
  resume: string | undefined;
  continueLast: boolean;
  json: boolean;
  config: string | undefined;
};

class UsageError extends Error {}

/** The command's options from its arguments, or "help"; throws UsageError. */
function parse(argv: string[]): RunOptions | "help" {
  const { values, positionals } = parseCommandArgs({
    args: argv,
    allowPositionals: true,
    strict: true,
    options: {
      cwd: { type: "string" },
      "permission-mode": { type: "string" },
      approve: { type: "string" },
      model: { type: "string" },
      effort: { type: "string" },
      resume: { type: "string" },
      continue: { type: "boolean" },
      image: { type: "string", multiple: true },
      json: { type: "boolean" },
      config: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help === true) return "help";
  const approve = values.approve;
  if (approve !== undefined && approve !== "ask" && approve !== "all" && approve !== "none")
    throw new UsageError(`--approve must be ask, all or none, not "${approve}"`);
  const effort = values.effort;
  if (effort !== undefined && !(EFFORTS as readonly string[]).includes(effort))
    throw new UsageError(`--effort must be one of ${EFFORTS.join(", ")}`);
  const mode = values["permission-mode"];
  if (mode !== undefined && !(CONFIG_PERMISSION_MODES as readonly string[]).includes(mode))
    throw new UsageError(`--permission-mode must be one of ${CONFIG_PERMISSION_MODES.join(", ")}`);
  if (values.resume !== undefined && values.continue === true)
    throw new UsageError("use either --resume or --continue, not both");
  return {
    prompt: positionals.join(" ").trim(),
    images: values.image ?? [],
    cwd: resolve(values.cwd ?? process.cwd()),
    permissionMode: mode,
    approve,
    model: values.model,
    effort: effort as Effort | undefined,
    resume: values.resume,
    continueLast: values.continue === true,
    json: values.json === true,
    config: values.config,
  };
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks).toString("utf8").trim();
}

/** The prompt, with the --image files as image blocks (checked like photos); refused when one cannot go. */
async function promptWithImages(options: RunOptions): Promise<MediaResult<Prompt>> {
  if (options.images.length === 0) return accept(options.prompt);
  const images = await readImageFiles(process.cwd(), options.images);
  return images.ok ? accept(buildRunContent({ text: options.prompt, images: images.value })) : images;
}

function modeOf(options: RunOptions, config: Config): PermissionMode {
  return (options.permissionMode ?? config.claude.permissionMode) as PermissionMode;
}

function specFrom(options: RunOptions, config: Config): SessionSpec {
  const spec = specFromConfig(config, {
    cwd: options.cwd,
    mode: modeOf(options, config),
    ...definedFields({ model: options.model, effort: options.effort, resume: options.resume }),
    ...(options.continueLast ? { continueLatest: true } : {}),
  });
  // One run, then the process ends: no idle watchdog.
  return { ...spec, idleMs: 0 };
}

/** Runs the command; returns the exit code. */
export async function runRun(argv: string[], io: CommandIo, deps: RunDeps = {}): Promise<number> {
  outliveClosedOutput(io);
  const stdin = deps.stdin ?? process.stdin;
  const stderrIsTTY = deps.stderrIsTTY ?? (io.stderr as { isTTY?: boolean }).isTTY === true;
  let options: RunOptions;
  try {
    const parsed = parse(argv);
    if (parsed === "help") {
      io.stdout.write(`${HELP}\n`);
      return 0;
    }
    options = parsed;
    if (options.prompt === "" && stdin.isTTY !== true) options.prompt = await readAll(stdin);
    if (options.prompt === "" && options.images.length === 0) throw new UsageError("missing PROMPT");
    const dir = await stat(options.cwd).catch(() => undefined);
    if (dir?.isDirectory() !== true) throw new UsageError(`--cwd ${options.cwd} is not a directory`);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`telecode run: ${/[.?!]$/.test(message) ? message : `${message}.`}\n\n${HELP}\n`);
    return 2;
  }

  let config: Config;
  try {
    const loaded = loadConfig({ configPath: options.config, env: io.env, cwd: process.cwd() });
    config = loaded.config;
    for (const warning of loaded.warnings) io.stderr.write(`⚠ ${warning.message}\n`);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`telecode run: ${error.message}\n`);
    return 2;
  }

  const prompt = await promptWithImages(options);
  if (!prompt.ok) {
    io.stderr.write(`telecode run: ${refusalText(prompt.refusal)}\n`);
    return 2;
  }

  const clock = createSystemClock();
  const approveMode = options.approve ?? (stdin.isTTY === true && stderrIsTTY ? "ask" : "none");
  // Both ends are a terminal: the typed answer is edited on the bottom line, under the progress.
  const terminal = stdin.isTTY === true && stderrIsTTY ? (io.stderr as TerminalOut) : undefined;
  // The progress view, the prompts (their modules render markdown) and the decision driver load
  // while the CLI starts: its spawn does not wait for them. Events wait in the session's queue
  // meanwhile. They start in the next macrotask: bundled, an import is a module's set-up run in
  // a microtask, which would otherwise come before the spawn.
  const ui: Promise<TerminalUi> = nextMacrotask()
    .then(() => Promise.all([import("../terminal/index.js"), import("./run-decisions.js")]))
    .then(([{ ProgressView, readTypedAnswers }, { terminalDecisions }]) => {
      const view = new ProgressView({
        out: io.stderr,
        live: stderrIsTTY,
        now: () => clock.now(),
        columns: () => (io.stderr as TerminalOut).columns,
        answerOnStdout: !options.json,
        // "error: …" is the run's last line when it fails.
        failureSaidAfter: true,
        cwd: options.cwd,
      });
      if (approveMode === "all") return { view, controller: allowAllController(), typed: undefined };
      const ask = approveMode === "ask";
      const settings = { ...decisionSettingsFromConfig(config, modeOf(options, config)), projectRoot: options.cwd };
      const denyGlobs = config.files.denyGlobs;
      return {
        view,
        ...terminalDecisions(settings, clock, { view, stdin, ask, terminal, readTypedAnswers, denyGlobs }),
      };
    });
  const controller =
    approveMode === "all" ? allowAllController() : deferredController(ui.then((loaded) => loaded.controller));

  const engine = createClaudeEngine({
    claudePath: config.claude.path,
    env: io.env,
    clock,
    probeCacheFile: claudeProbeCacheFile(config.state.dir),
  });
  const spec = specFrom(options, config);
  let session: SessionHandle;
  try {
    // No scheduler runs here: Claude's scheduling tools are refused, so the CLI never holds a job.
    session = engine.openSession(spec, withGuardHooks(controller, scheduleHooks()));
  } catch (error) {
    if (!isClaudeError(error, "claude.extra_args")) throw error;
    io.stderr.write(`telecode run: ${error.message}\n`);
    return 2;
  }
  return drive(session, options, prompt.value, io, {
    writtenDown: (sessionId) => engine.writtenDown(spec, sessionId),
    clock,
    ui,
    unattended: approveMode === "none",
    signals: deps.signals ?? process,
    live: stderrIsTTY,
  });
}
