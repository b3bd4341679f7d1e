// Claude Code's refusals to start, in words a person on a phone can act on. With
// CLAUDE_CODE_STARTUP_FAILURE_RESULTS set (buildChildEnv sets it), a CLI that will not start for a
// cause it knows (its settings file is not JSON, a proxy variable is not a URL, a sign-in ended,
// terms to accept) writes one zeroed error result naming the cause (`startup_failure_reason`)
// before it exits, instead of leaving only its stderr; the cause says what to do, and where.
import { excerpt, sentence, FAILS_UNTIL_FIXED } from "../domain/index.js";
import type { WireResultMessage } from "../wire/index.js";

/** A refusal as the result reports it: the cause, Claude Code's own words, the file it names. */
export type StartupRefusal = {
  /** `startup_failure_reason`, e.g. "config_file_invalid". */
  cause: string;
  /** The result's `errors`, joined: Claude Code's own account, advice included. */
  words: string;
  /** For `config_file_invalid`: the file that is not JSON, and the backup Claude Code found. */
  configFile?: { path: string; backupPath?: string };
};

/** "Configuration error in /home/me/.claude.json: JSON Parse error: …", the words' first line. */
const CONFIG_ERROR_FILE = /^Configuration error in (.+?): /;

/** The cause a result names when it is a refusal to start; undefined for any other result. */
export function refusalCause(result: WireResultMessage): string | undefined {
  const cause = result["startup_failure_reason"];
  return typeof cause === "string" && cause !== "" ? cause : undefined;
}

/** The refusal a result reports, if it is one. */
export function startupRefusalOf(result: WireResultMessage): StartupRefusal | undefined {
  const cause = refusalCause(result);
  if (cause === undefined) return undefined;
  const errors = Array.isArray(result.errors) ? result.errors.filter((e) => typeof e === "string") : [];
  const refusal: StartupRefusal = { cause, words: errors.join("\n").trim() };
  const file = result["invalid_config_file"];
  if (typeof file === "object" && file !== null && typeof (file as { path?: unknown }).path === "string") {
    const { path, backup_path: backupPath } = file as { path: string; backup_path?: unknown };
    refusal.configFile = typeof backupPath === "string" ? { path, backupPath } : { path };
  } else if (cause === "config_file_invalid") {
    // Before 2.1.332 the file is named only in the words.
    const named = CONFIG_ERROR_FILE.exec(refusal.words)?.[1];
    if (named !== undefined) refusal.configFile = { path: named };
  }
  return refusal;
}

/** Causes that a later try may pass (the network, a service of Anthropic's); the others repeat until fixed. */
const PASSING: ReadonlySet<string> = new Set([
  "org_verify_failed",
  "remote_settings_required_unavailable",
  "org_config_required_unavailable",
  "worktree_unverified",
]);

/** Whether a later try may start where this one was refused. */
export function refusalPasses(refusal: StartupRefusal): boolean {
  return PASSING.has(refusal.cause);
}

/** What moving aside a settings file that is not JSON does (the chat and `telecode doctor` say it alike). */
export const MOVE_SETTINGS_ASIDE = "move the file aside to start Claude Code with default settings";

/** What to do about a proxy variable that is not a URL (the chat and `telecode doctor` say it alike). */
export function proxyAdvice(variable: string): string {
  return `set ${variable} to a complete URL (such as http://proxy.example.com:8080) or unset it where Telecode is started, then restart Telecode`;
}

const ON_HOST = "On the computer running Telecode,";
const SIGN_IN = `${ON_HOST} run \`claude auth login\` in a terminal to sign in again`;

/**
 * What to do, for the causes whose remedy Telecode can name better than Claude Code's own advice
 * (written for a person at its terminal: "restart Claude Code"); each is one clause, and the
 * refusal's first line is then enough to say what happened.
 */
const REMEDIES: Readonly<Record<string, (refusal: StartupRefusal) => string>> = {
  config_file_invalid: ({ configFile }) => {
    const file = configFile?.path ?? "the file it names";
    const backup = configFile?.backupPath === undefined ? "" : `, put back its backup ${configFile.backupPath}`;
    return `${ON_HOST} fix the JSON in ${file}${backup}, or ${MOVE_SETTINGS_ASIDE}`;
  },
  proxy_invalid: () => `${ON_HOST} ${proxyAdvice("that variable")}`,
  cwd_unavailable: () =>
    `${ON_HOST} put the project's folder back, or point the project's path in the config at where it is now`,
  consumer_terms_review_in_terminal: () =>
    `${ON_HOST} run \`claude\` in a terminal and answer the updated Consumer Terms`,
  org_signin_ended: () => SIGN_IN,
  gateway_signin_required: () => SIGN_IN,
  org_config_refused: () => SIGN_IN,
};

/** Claude Code's words are cut to this many characters (its advice runs to a few sentences). */
const WORDS_MAX_CHARS = 600;

/** The refusal worded for the chat: what happened, what to do, and whether a later try may pass. */
export function refusalText(refusal: StartupRefusal): { what: string; hint: string } {
  const remedy = REMEDIES[refusal.cause];
  const lines = refusal.words
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "");
  // With a remedy of ours, the first line says what happened; else all of Claude Code's account,
  // its advice (and any address it gives, as for terms to accept on the web) included.
  const account = remedy === undefined ? lines.join(" ") : (lines[0] ?? "");
  const what = sentence(
    `Claude Code would not start: ${account === "" ? `it gave the reason ${refusal.cause}` : excerpt(account, WORDS_MAX_CHARS)}`,
  );
  if (refusalPasses(refusal)) return { what, hint: "It may start on a later try: send the message again in a minute." };
  const todo =
    remedy?.(refusal) ??
    `${ON_HOST} do what it asks, or run \`claude\` in a terminal in the project's folder to see more`;
  return { what, hint: `${todo}; ${FAILS_UNTIL_FIXED}.` };
}
