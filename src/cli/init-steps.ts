// The questions of `telecode init`, one function each: the bot token (checked with getMe),
// the person's user id (from a message they send), the project directory, the mode, and
// a look at the Claude CLI. Each takes its answer from a flag when one was given.
import { statSync } from "node:fs";
import { join, resolve } from "node:path";
import {
  BOT_TOKEN_PATTERN,
  CONFIG_PERMISSION_MODES,
  expandHome,
  type ClaudeConfig,
  type Env,
} from "../config/index.js";
import { sentence } from "../domain/index.js";
import { webhookRemovedWords } from "../render/index.js";
import {
  checkClaudeLogin,
  compareVersions,
  describeUser,
  getMe,
  getMessages,
  probeClaude,
  removeBotWebhook,
  type BotApiAt,
  type BotInfo,
  type TelegramUser,
} from "./doctor-probes.js";
import { PINNED_CLAUDE_VERSION } from "./doctor-tested-range.js";
import { InitFailed, type InitUi, type SelectOption } from "./init-ui.js";

type Mode = ClaudeConfig["permissionMode"];

const TOKEN_EXPECTED = 'A bot token looks like "123456789:AA…"; @BotFather shows it after /newbot (or /token).';

export async function askBotToken(
  ui: InitUi,
  given: string | undefined,
  server: Omit<BotApiAt, "token">,
): Promise<{ token: string; bot: BotInfo }> {
  const { apiRoot } = server;
  let token = given;
  for (;;) {
    if (token === undefined) {
      if (!ui.interactive) throw new InitFailed("No bot token: pass --bot-token or set TELECODE_BOT_TOKEN.");
      token = (
        await ui.secret("Bot token (from @BotFather)", (value) =>
          BOT_TOKEN_PATTERN.test(value.trim()) ? undefined : TOKEN_EXPECTED,
        )
      ).trim();
    }
    if (!BOT_TOKEN_PATTERN.test(token))
      throw new InitFailed(`That bot token is not in the right form. ${TOKEN_EXPECTED}`);
    const me = await getMe({ ...server, token });
    if (me.ok) {
      ui.success(`Bot token works: @${me.bot.username} (${me.bot.firstName})`);
      return { token, bot: me.bot };
    }
    if (me.reason === "unreachable")
      throw new InitFailed(
        me.hint === undefined
          ? `Could not reach the Telegram Bot API at ${apiRoot} (${me.description}). Check the network, or pass --api-root.`
          : `Could not reach the Telegram Bot API at ${apiRoot} (${me.description}): ${sentence(me.hint)}`,
      );
    const problem = `Telegram refused this token (${me.description}).`;
    if (!ui.interactive || given !== undefined)
      throw new InitFailed(`${problem} Copy the token from @BotFather again.`);
    ui.warn(`${problem} Paste it again.`);
    token = undefined;
  }
}

/**
 * Finds the person's numeric user id: they send any message to the bot, init shows who wrote
 * and asks to confirm. Messages sent before init started are skipped, so nobody who wrote to
 * the bot earlier is let in by accident. Acknowledges what it read, so the bridge starts clean.
 * `learnedFrom` is the person whose message gave the id (init answers them once it is done).
 */
export async function findUserIds(
  ui: InitUi,
  options: {
    given: readonly string[];
    assumeYes: boolean;
    at: BotApiAt;
    bot: BotInfo;
    waitSeconds: number;
  },
): Promise<{ ids: number[]; learnedFrom?: TelegramUser }> {
  if (options.given.length > 0) {
    const ids = options.given.flatMap((g) => g.split(",")).map((g) => g.trim());
    const bad = ids.filter((id) => !/^[1-9]\d{0,15}$/.test(id));
    if (bad.length > 0) throw new InitFailed(`--user-id must be a numeric Telegram user id (got ${bad.join(", ")}).`);
    return { ids: ids.map(Number) };
  }
  if (!ui.interactive && !options.assumeYes)
    throw new InitFailed("No user id: pass --user-id, or --yes to accept whoever messages the bot first.");
  const { at } = options;
  const webhook = await removeBotWebhook(at);
  if (webhook.ok && webhook.removedSite !== undefined) ui.warn(webhookRemovedWords(webhook.removedSite));
  const drained = await getMessages(at, { timeoutSeconds: 0 });
  if (!drained.ok)
    throw new InitFailed(
      `Could not read the bot's messages (${drained.description}). If another program uses this bot (a Telecode already running, say), stop it, then run init again.`,
    );
  let offset = drained.nextOffset;
  ui.info(
    `Now send any message to @${options.bot.username} from your Telegram account (waiting up to ${Math.round(options.waitSeconds / 60)} min).`,
  );
  const deadline = Date.now() + options.waitSeconds * 1000;
  while (Date.now() < deadline) {
    const timeoutSeconds = Math.max(1, Math.min(25, Math.ceil((deadline - Date.now()) / 1000)));
    const polled = await getMessages(at, { ...(offset === undefined ? {} : { offset }), timeoutSeconds });
    if (!polled.ok)
      throw new InitFailed(
        `Could not read the bot's messages (${polled.description}). Check the network and run init again.`,
      );
    offset = polled.nextOffset;
    for (const message of polled.messages) {
      const excerpt = message.text.length > 40 ? `${message.text.slice(0, 40)}…` : message.text;
      ui.info(`Message from ${describeUser(message.from)}${excerpt === "" ? "" : `: "${excerpt}"`}`);
      const accept = ui.interactive ? await ui.confirm(`Allow ${describeUser(message.from)} to use this bot?`) : true;
      if (!accept) continue;
      if (offset !== undefined) await getMessages(at, { offset, timeoutSeconds: 0 });
      ui.success(`Allowed user id ${message.from.id}`);
      return { ids: [message.from.id], learnedFrom: message.from };
    }
  }
  throw new InitFailed(
    `No message reached @${options.bot.username} in time. Send it a message and run init again, or pass --user-id.`,
  );
}

function directoryProblem(path: string): string | undefined {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return `${path} does not exist`;
  return stat.isDirectory() ? undefined : `${path} is not a directory`;
}

export async function askProjectDir(
  ui: InitUi,
  options: { given: string | undefined; assumeYes: boolean; cwd: string; homeDir: string; isTelecode: boolean },
): Promise<string> {
  const absolute = (value: string): string => resolve(options.cwd, expandHome(value.trim(), options.homeDir));
  let answer = options.given;
  if (answer === undefined) {
    if (ui.interactive) {
      // Telecode's own checkout is where a newcomer runs init, and rarely the project they mean.
      answer = await ui.text("Project directory Claude works in", {
        ...(options.isTelecode
          ? { placeholder: join(options.homeDir, "code", "my-project") }
          : { initial: options.cwd }),
        validate: (value) =>
          value.trim() === ""
            ? "Type the path of the project Claude should work in."
            : directoryProblem(absolute(value)),
      });
    } else if (options.assumeYes && !options.isTelecode) {
      answer = options.cwd;
    } else if (options.assumeYes) {
      throw new InitFailed(
        `The current directory (${options.cwd}) is Telecode itself, not a project for Claude. Pass --project-dir with your project's directory.`,
      );
    } else {
      throw new InitFailed("No project directory: pass --project-dir (or --yes to use the current directory).");
    }
  }
  const path = absolute(answer);
  const problem = directoryProblem(path);
  if (problem !== undefined)
    throw new InitFailed(`The project directory must exist: ${problem}. Create it or pass another --project-dir.`);
  return path;
}

export type ClaudeAuth = "login" | "api-key";

const AUTH_CHOICES: SelectOption<ClaudeAuth>[] = [
  { value: "login", label: "Logged-in Claude Code", hint: "a Claude subscription: `claude auth login`" },
  { value: "api-key", label: "API key", hint: "ANTHROPIC_API_KEY, billed per use (claude.use_api_billing)" },
];

/** The --auth flag, checked before any question is asked; undefined when not given. */
export function parseAuthFlag(given: string | undefined): ClaudeAuth | undefined {
  if (given === undefined) return undefined;
  const known = AUTH_CHOICES.find((c) => c.value === given);
  if (known === undefined) throw new InitFailed(`--auth must be login or api-key (got ${given}).`);
  return known.value;
}

/**
 * How Claude Code signs in: its own login, or an API key (then `claude.use_api_billing = true`;
 * reportClaude warns when the key is not set where Telecode runs).
 */
export async function askClaudeAuth(ui: InitUi, given: ClaudeAuth | undefined, env: Env): Promise<ClaudeAuth> {
  if (given !== undefined) return given;
  if (!ui.interactive) return "login";
  const initial = (env["ANTHROPIC_API_KEY"] ?? "") !== "" ? "api-key" : "login";
  return ui.select("How does Claude Code sign in?", AUTH_CHOICES, initial);
}

const MODE_CHOICES: SelectOption<Mode>[] = [
  { value: "default", label: "default", hint: "ask before edits and commands" },
  { value: "acceptEdits", label: "acceptEdits", hint: "edit files freely, ask before commands" },
  { value: "plan", label: "plan", hint: "plan first; you approve the plan" },
  { value: "plan-auto", label: "plan-auto", hint: "plan first, then carry on without asking" },
  { value: "auto", label: "auto", hint: "the CLI's classifier decides what to ask" },
  { value: "dontAsk", label: "dontAsk", hint: "refuse whatever is not allowed in advance" },
];

/** The --mode flag, checked before any step runs; undefined when it was not given. */
export function parseModeFlag(given: string | undefined): Mode | undefined {
  if (given === undefined) return undefined;
  const mode = CONFIG_PERMISSION_MODES.find((m) => m === given);
  if (mode === undefined)
    throw new InitFailed(`--mode must be one of ${CONFIG_PERMISSION_MODES.join(", ")} (got ${given}).`);
  return mode;
}

export async function askMode(ui: InitUi, given: Mode | undefined): Promise<Mode> {
  if (given !== undefined) return given;
  return ui.interactive ? ui.select("Permission mode for new sessions", MODE_CHOICES, "default") : "default";
}

/** Reports on the CLI; a missing or logged-out CLI is a warning here (doctor fails on it). */
export async function reportClaude(
  ui: InitUi,
  options: { env: Env; homeDir: string; platform: NodeJS.Platform; useApiBilling: boolean },
): Promise<void> {
  const command = options.env["TELECODE_CLAUDE_PATH"] || "claude";
  const probe = await probeClaude(command, options.env);
  const tested = PINNED_CLAUDE_VERSION;
  if (!probe.found)
    ui.warn(
      `${probe.description} Install it with \`npm i -g @anthropic-ai/claude-code@${tested}\`, or set claude.path.`,
    );
  else if (compareVersions(probe.version, tested) < 0)
    ui.warn(
      `Claude Code CLI ${probe.version} is older than ${tested}, the version Telecode is tested with. Update it.`,
    );
  else ui.success(`Claude Code CLI ${probe.version}`);
  const login = checkClaudeLogin({
    env: options.env,
    homeDir: options.homeDir,
    useApiBilling: options.useApiBilling,
    provider: "anthropic",
    platform: options.platform,
  });
  if (login.status === "ok") ui.success(`Claude login: ${login.how}`);
  else ui.warn(`Claude login: ${login.description}. Fix: ${login.fix}.`);
}
