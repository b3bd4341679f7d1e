// A failed run as `telecode run` says it on its last line. The engine words each failure for a
// person on a phone ("Send your message again to resume the session", "On the computer running
// Telecode, …"); at the terminal the person is at that computer, and running the command again
// starts a fresh session unless it names the old one with --resume. Pure.
import {
  failureText,
  HINT_COMMANDS,
  SEND_AGAIN_OR_FRESH,
  type FailureReason,
  type RunFailure,
} from "../domain/index.js";

/**
 * The session `telecode run --resume` can go on with (one the CLI wrote down), and the project
 * directory to name with --cwd when it is not the current one (sessions belong to a directory).
 */
export type Resumable = { sessionId: string; cwd?: string };

/** The hint, given the session --resume can go on with, if any. */
type TerminalHint = (resumable: Resumable | undefined) => string;

/** `word` as one shell word: as it is when that is safe, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Going on where a crashed or stopped CLI left the session: only --resume keeps it. */
export const resumeHint: TerminalHint = (resumable) => {
  if (resumable === undefined)
    return "Claude Code had written nothing of the session down yet, so run it again to start afresh.";
  const cwd = resumable.cwd === undefined ? "" : ` --cwd ${shellWord(resumable.cwd)}`;
  return `To go on in the same session, run: telecode run${cwd} --resume ${resumable.sessionId} PROMPT`;
};

/**
 * What to do, for the failures whose engine hint is written for the chat; the others keep theirs,
 * said as to a person at the computer running Telecode (hereHint).
 */
const TERMINAL_HINT: Partial<Record<FailureReason, TerminalHint>> = {
  silence: resumeHint,
  exited: resumeHint,
  stdin_closed: resumeHint,
  session_not_found: () => "Leave out --resume and --continue to start a fresh session.",
  not_logged_in: () =>
    "Run `claude auth login`, or set ANTHROPIC_API_KEY and claude.use_api_billing = true in the config.",
  not_found: () =>
    "Install it with `npm i -g @anthropic-ai/claude-code`, or set claude.path in the config to its full path (`which claude` prints it).",
  project_missing: () => "Run it again with --cwd naming a folder that exists.",
  start_failed: () => "Check claude.path in the config, and that the project directory (--cwd) exists.",
  exited_before_output: () => "Check that `claude` starts in this terminal, and claude.extra_args in the config.",
};

/** Each chat command a hint names, as the flag that does the same at the terminal. */
const AS_FLAGS: Readonly<Record<keyof typeof HINT_COMMANDS, string>> = {
  freshSession: "start a fresh session (leave out --resume and --continue)",
  otherModel: "another model with --model",
  otherEffort: "another with --effort (or leave it out)",
};

/** An engine hint, worded for a chat ("On the computer running Telecode, …", "send the message again"), said at that computer. */
function hereHint(hint: string): string {
  const rewritten = hint
    .replace(/^On the computer running Telecode, (.)/, (_, first: string) => first.toUpperCase())
    .replace(/\b(t|T)he computer running Telecode/g, (_, t: string) => `${t === "T" ? "T" : "t"}his computer`)
    .replace(SEND_AGAIN_OR_FRESH, "Run it again; --continue goes on in the same session.")
    .replace(/\b(s|S)end (?:the|your) message again/g, (_, s: string) => (s === "S" ? "Run it again" : "run it again"))
    .replace(/\b(e|E)very message\b/g, (_, e: string) => `${e}very run`);
  return (Object.keys(AS_FLAGS) as (keyof typeof HINT_COMMANDS)[]).reduce(
    (said, command) => said.replaceAll(HINT_COMMANDS[command], AS_FLAGS[command]),
    rewritten,
  );
}

/**
 * The failure as one line for the terminal: what happened, then what to do there. `resumable` is
 * the run's session when the CLI wrote it down, so that --resume can go on with it.
 */
export function terminalFailureText(failure: RunFailure, resumable?: Resumable): string {
  const hint = TERMINAL_HINT[failure.reason];
  if (hint !== undefined) return `${failure.what} ${hint(resumable)}`;
  return failureText({ ...failure, hint: hereHint(failure.hint) });
}
