// `telecode init`: sets up a working config from nothing, asking each question interactively
// or taking it from a flag, checking the token and the CLI, and writing the file with mode 0600.
import { existsSync } from "node:fs";
import type { Readable, Writable } from "node:stream";
import {
  DEFAULT_API_ROOT,
  homeDirOf,
  loadConfig,
  locateConfigFile,
  projectNameFor,
  renderConfigFile,
  writeConfigFile,
} from "../config/index.js";
import { redactSecrets } from "../log/index.js";
import { parseCommandArgs, type CommandIo } from "./command-io.js";
import { describeUser } from "./doctor-probes.js";
import {
  askBotToken,
  askClaudeAuth,
  askMode,
  askProjectDir,
  findUserIds,
  parseAuthFlag,
  parseModeFlag,
  reportClaude,
} from "./init-steps.js";
import { sendSetUpNote, setUpNoteText } from "./init-telegram.js";
import { isTelecodeFolder, telecodeInvocation, telecodePackageDir, type Invocation } from "./invocation.js";
import { createPlainUi, createPromptUi, InitCancelled, InitFailed, type InitUi } from "./init-ui.js";

export const INIT_HELP = `Usage: telecode init [options]

Sets up Telecode: checks the bot token, finds your Telegram user id (and answers you in
Telegram), picks a project directory and mode, asks how Claude Code signs in, checks the
Claude CLI, and writes the config file (mode 0600). Asks interactively on a terminal;
every question also has a flag for scripts.

Options:
  --bot-token TOKEN     the token from @BotFather (or set TELECODE_BOT_TOKEN; then it
                        is not written to the file)
  --user-id ID          allowed Telegram user id; repeat or comma-separate for several
                        (without it, init waits for you to message the bot)
  --project-dir DIR     the directory Claude works in (must exist)
  --mode MODE           default | acceptEdits | plan | plan-auto | auto | dontAsk
  --auth login|api-key  how Claude Code signs in: its own login (default), or
                        ANTHROPIC_API_KEY (writes claude.use_api_billing = true)
  --api-root URL        a Bot API server other than https://api.telegram.org
  --config FILE         where to write (default: $XDG_CONFIG_HOME/telecode/config.toml)
  --wait-seconds N      how long to wait for your message (default 300)
  --yes, -y             no questions: replace an existing file, use the current
                        directory (unless it is Telecode itself), accept the first
                        person who messages the bot
  --help, -h            this help
`;

export type InitDeps = {
  /** Ask questions (default: when stdin is a terminal and --yes is not given). */
  interactive?: boolean;
  input?: Readable;
  output?: Writable;
  cwd?: string;
  platform?: NodeJS.Platform;
  /** Where this Telecode is installed (default: this package), for hints and the project default. */
  packageDir?: string;
};

function parse(argv: string[]) {
  return parseCommandArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      "bot-token": { type: "string" },
      "user-id": { type: "string", multiple: true },
      "project-dir": { type: "string" },
      mode: { type: "string" },
      auth: { type: "string" },
      "api-root": { type: "string" },
      config: { type: "string" },
      "wait-seconds": { type: "string" },
      yes: { type: "boolean", short: "y" },
      help: { type: "boolean", short: "h" },
    },
  }).values;
}

function envSecrets(io: CommandIo): string[] {
  return [io.env["TELECODE_BOT_TOKEN"] ?? "", io.env["ANTHROPIC_API_KEY"] ?? ""];
}

/** Runs `telecode init`; returns the exit code (0 written, 1 failed or cancelled, 2 bad usage). */
export async function runInit(argv: string[], io: CommandIo, deps: InitDeps = {}): Promise<number> {
  let flags: ReturnType<typeof parse>;
  try {
    flags = parse(argv);
  } catch (error) {
    io.stderr.write(
      `telecode init: ${redactSecrets(error instanceof Error ? error.message : String(error), envSecrets(io))}\n\n${INIT_HELP}`,
    );
    return 2;
  }
  if (flags.help === true) {
    io.stdout.write(INIT_HELP);
    return 0;
  }
  const assumeYes = flags.yes === true;
  const input = deps.input ?? process.stdin;
  const interactive = deps.interactive ?? (!assumeYes && (input as Readable & { isTTY?: boolean }).isTTY === true);
  const ui = interactive ? createPromptUi(input, deps.output ?? (io.stdout as Writable)) : createPlainUi(io.stdout);
  try {
    await setUp(ui, flags, assumeYes, io, deps);
    return 0;
  } catch (error) {
    if (error instanceof InitCancelled) {
      io.stderr.write("Set-up cancelled; nothing was written.\n");
      return 1;
    }
    if (error instanceof InitFailed) {
      // Messages may quote a flag's value, and a token pasted into the wrong flag is a common slip.
      io.stderr.write(
        `telecode init: ${redactSecrets(error.message, [...envSecrets(io), flags["bot-token"] ?? ""])}\n`,
      );
      return 1;
    }
    throw error;
  }
}

async function setUp(
  ui: InitUi,
  flags: ReturnType<typeof parse>,
  assumeYes: boolean,
  io: CommandIo,
  deps: InitDeps,
): Promise<void> {
  const env = io.env;
  const cwd = deps.cwd ?? process.cwd();
  const homeDir = homeDirOf(env);
  const location = locateConfigFile({ flag: flags.config, env, cwd });
  ui.intro("Telecode set-up");
  if (existsSync(location.path) && !assumeYes) {
    if (!ui.interactive)
      throw new InitFailed(
        `${location.path} already exists. Pass --yes to replace it, or --config to write elsewhere.`,
      );
    if (!(await ui.confirm(`${location.path} exists. Replace it?`, false)))
      throw new InitCancelled("kept the existing file");
  }
  // Every flag is checked before the steps that wait on Telegram, so a typo costs no message.
  const authFlag = parseAuthFlag(flags.auth);
  const modeFlag = parseModeFlag(flags.mode);
  const waitSeconds = Number(flags["wait-seconds"] ?? 300);
  if (!Number.isFinite(waitSeconds) || waitSeconds <= 0)
    throw new InitFailed("--wait-seconds must be a positive number of seconds.");
  const apiRoot = (flags["api-root"] ?? DEFAULT_API_ROOT).replace(/\/+$/, "");
  const tokenFromEnv = flags["bot-token"] === undefined && (env["TELECODE_BOT_TOKEN"] ?? "") !== "";
  const { token, bot } = await askBotToken(
    ui,
    flags["bot-token"] ?? (tokenFromEnv ? env["TELECODE_BOT_TOKEN"] : undefined),
    { apiRoot, env },
  );
  const users = await findUserIds(ui, {
    given: flags["user-id"] ?? [],
    assumeYes,
    at: { apiRoot, token, env },
    bot,
    waitSeconds,
  });
  const packageDir = deps.packageDir ?? telecodePackageDir();
  const projectDir = await askProjectDir(ui, {
    given: flags["project-dir"],
    assumeYes,
    cwd,
    homeDir,
    isTelecode: isTelecodeFolder(cwd, packageDir),
  });
  const permissionMode = await askMode(ui, modeFlag);
  const auth = await askClaudeAuth(ui, authFlag, env);
  const useApiBilling = auth === "api-key";
  await reportClaude(ui, { env, homeDir, platform: deps.platform ?? process.platform, useApiBilling });

  const text = renderConfigFile({
    botToken: tokenFromEnv ? null : token,
    allowedUserIds: users.ids,
    apiRoot,
    project: { name: projectNameFor(projectDir), path: projectDir },
    permissionMode,
    useApiBilling,
  });
  writeConfigFile(location.path, text);
  // What was written must load; a failure here is a bug in init, so let it surface as one.
  loadConfig({ configPath: location.path, env });
  ui.success(`Wrote ${location.path} (mode 0600)${tokenFromEnv ? "; the token stays in TELECODE_BOT_TOKEN" : ""}`);
  const next = nextCommands(
    telecodeInvocation({ env, cwd, packageDir }),
    location.source === "flag" ? location.path : undefined,
  );
  if (users.learnedFrom !== undefined) {
    const person = users.learnedFrom;
    const sent = await sendSetUpNote(
      { apiRoot, token, env },
      person.id,
      setUpNoteText(person.firstName, person.id, next.start.replaceAll("`", "")),
    );
    if (sent.ok) ui.success(`Answered ${describeUser(person)} in Telegram.`);
    else
      ui.warn(`Could not answer ${describeUser(person)} in Telegram (${sent.description}); the set-up is done anyway.`);
  }
  ui.outro(
    `Next: ${next.doctor} to check everything, then ${next.start} to start the bridge (or ${next.service} to keep it running).`,
  );
}

/** The commands to name after set-up, as they work where the person is. */
function nextCommands(
  invocation: Invocation,
  configPath: string | undefined,
): { doctor: string; start: string; service: string } {
  const configFlag = configPath === undefined ? "" : ` --config ${configPath}`;
  const { command } = invocation;
  // In a clone, `npm start` runs the bridge too; with --config it needs `--`, so name npx then.
  const start =
    invocation.inClone && configPath === undefined ? "`npm start` (or `npx telecode`)" : `\`${command}${configFlag}\``;
  return {
    doctor: `\`${command} doctor${configFlag}\``,
    start,
    service: `\`${command} service install${configFlag}\``,
  };
}
