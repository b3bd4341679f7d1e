// How `telecode run` words a failed run: the engine's facts, with what to do at a terminal where
// the chat's hint would mislead there, and the chat's hint where it reads the same.
import { describe, expect, it } from "vitest";
import type { FailureReason, RunFailure } from "../../src/domain/index.js";
import { KNOWN_KINDS, kindWords } from "../../src/claude/api-error-kinds.js";
import { terminalFailureText } from "../../src/render/index.js";

const SESSION = "0c12821a-8f3f-4e5d-8342-7fe049de9b8b";
const RESUMABLE = { sessionId: SESSION };

function failure(
  reason: FailureReason,
  what: string,
  hint = "Send your message again to resume the session.",
): RunFailure {
  return { reason, what, hint };
}

describe("terminalFailureText", () => {
  it("after a crash, a stall or a closed input, names the --resume that goes on in the session", () => {
    for (const reason of ["exited", "silence", "stdin_closed"] as const) {
      const text = terminalFailureText(failure(reason, "Claude Code exited unexpectedly (signal SIGKILL)."), RESUMABLE);
      expect(text).toBe(
        `Claude Code exited unexpectedly (signal SIGKILL). To go on in the same session, run: telecode run --resume ${SESSION} PROMPT`,
      );
    }
  });

  it("names the project directory when the run was in another one, as one shell word", () => {
    const crashed = failure("exited", "Claude Code exited unexpectedly (code 1).");
    expect(terminalFailureText(crashed, { sessionId: SESSION, cwd: "/home/me/app" })).toContain(
      `run: telecode run --cwd /home/me/app --resume ${SESSION} PROMPT`,
    );
    expect(terminalFailureText(crashed, { sessionId: SESSION, cwd: "/home/me/Ann's app" })).toContain(
      `run: telecode run --cwd '/home/me/Ann'\\''s app' --resume ${SESSION} PROMPT`,
    );
  });

  it("when the CLI had written nothing of the session down, says to run it again instead", () => {
    expect(terminalFailureText(failure("exited", "Claude Code exited unexpectedly (code 1)."))).toBe(
      "Claude Code exited unexpectedly (code 1). Claude Code had written nothing of the session down yet, so run it again to start afresh.",
    );
  });

  it("says how to fix the setup here, not on 'the computer running Telecode'", () => {
    const cases: [FailureReason, string][] = [
      ["not_found", "Install it with `npm i -g @anthropic-ai/claude-code`, or set claude.path in the config"],
      ["not_logged_in", "Run `claude auth login`, or set ANTHROPIC_API_KEY and claude.use_api_billing = true"],
      ["start_failed", "Check claude.path in the config, and that the project directory (--cwd) exists."],
      ["project_missing", "Run it again with --cwd naming a folder that exists."],
      ["exited_before_output", "Check that `claude` starts in this terminal, and claude.extra_args in the config."],
    ];
    for (const [reason, hint] of cases) {
      const text = terminalFailureText(
        failure(reason, "What happened.", "On the computer running Telecode, fix it."),
        RESUMABLE,
      );
      expect(text).toContain(`What happened. ${hint}`);
      expect(text).not.toContain("computer running Telecode");
    }
  });

  it("a session the CLI no longer has: start afresh by leaving out --resume", () => {
    const gone = failure("session_not_found", "Claude Code no longer has session 0c12821a on this computer.");
    expect(terminalFailureText(gone, RESUMABLE)).toBe(
      "Claude Code no longer has session 0c12821a on this computer. Leave out --resume and --continue to start a fresh session.",
    );
  });

  it("says a refusal's remedy as done here: the hint without 'On the computer running Telecode'", () => {
    const refused = failure(
      "start_refused",
      "Claude Code would not start: Configuration error in /home/me/.claude.json: JSON Parse error: Expected '}'.",
      "On the computer running Telecode, fix the JSON in /home/me/.claude.json, or move the file aside to start Claude Code with default settings; until then every message fails the same way.",
    );
    expect(terminalFailureText(refused)).toBe(
      "Claude Code would not start: Configuration error in /home/me/.claude.json: JSON Parse error: Expected '}'. Fix the JSON in /home/me/.claude.json, or move the file aside to start Claude Code with default settings; until then every run fails the same way.",
    );
  });

  it("keeps the engine's hint where it reads the same in a terminal (an API error's, Claude Code's own advice)", () => {
    const api = failure("api_error", "API error 500: fake 500.", "Try again in a moment.");
    expect(terminalFailureText(api, RESUMABLE)).toBe("API error 500: fake 500. Try again in a moment.");
  });

  it("says a chat's 'send the message again' and 'the computer running Telecode' as to a person at it", () => {
    const unreached = failure(
      "api_error",
      "Claude Code could not reach the API: Connection refused (ECONNREFUSED).",
      "Claude Code already retried: check the connection from the computer running Telecode to the API, then send the message again.",
    );
    expect(terminalFailureText(unreached, RESUMABLE)).toBe(
      "Claude Code could not reach the API: Connection refused (ECONNREFUSED). Claude Code already retried: check the connection from this computer to the API, then run it again.",
    );
    // At the start of a sentence too.
    const slept = failure(
      "api_error",
      "API error: The machine slept.",
      "The computer running Telecode slept while it waited for the answer: send the message again.",
    );
    expect(terminalFailureText(slept)).toBe(
      "API error: The machine slept. This computer slept while it waited for the answer: run it again.",
    );
    const later = failure(
      "api_error",
      "API error 529: Overloaded.",
      "Send the message again in a minute; Claude Code already retried.",
    );
    expect(terminalFailureText(later)).toBe(
      "API error 529: Overloaded. Run it again in a minute; Claude Code already retried.",
    );
    // At the terminal a run starts a fresh session unless told otherwise.
    const stopped = failure(
      "cli_error",
      "Claude Code stopped: the maximum number of turns was reached.",
      "Send the message again, or start a fresh session.",
    );
    expect(terminalFailureText(stopped)).toBe(
      "Claude Code stopped: the maximum number of turns was reached. Run it again; --continue goes on in the same session.",
    );
  });

  it("names no chat command in the hint of any kind of API error Claude Code names", () => {
    for (const kind of KNOWN_KINDS) {
      const words = kindWords(kind);
      for (const hint of [words?.hint, words?.fallbackHint])
        if (hint !== undefined)
          expect(terminalFailureText(failure("api_error", "API error 400: Refused.", hint)), kind).not.toMatch(
            /(^|\s)\/[a-z]+\b/,
          );
    }
  });

  it("names the flags where the chat's hint names a command: /new, /model, /effort", () => {
    const broken = failure(
      "api_error",
      "The API refused this session's history: a tool call in it has no result.",
      "Every message in this session fails the same way: start a fresh session with /new.",
    );
    expect(terminalFailureText(broken)).toBe(
      "The API refused this session's history: a tool call in it has no result. Every run in this session fails the same way: start a fresh session (leave out --resume and --continue).",
    );
    const old = failure(
      "api_error",
      "API error 400: Claude Code 2.1.0 does not support this model; version 9.9.0 or newer is required.",
      "On the computer running Telecode, update Claude Code (`npm i -g @anthropic-ai/claude-code@latest`, then `telecode doctor`), or choose another model with /model; until then every message fails the same way.",
    );
    expect(terminalFailureText(old)).toBe(
      "API error 400: Claude Code 2.1.0 does not support this model; version 9.9.0 or newer is required. Update Claude Code (`npm i -g @anthropic-ai/claude-code@latest`, then `telecode doctor`), or choose another model with --model; until then every run fails the same way.",
    );
    const effort = failure(
      "api_error",
      "API error 400: effort max requires thinking.",
      "This model refuses that effort without thinking: choose another with /effort (or /effort default); until then every message fails the same way.",
    );
    expect(terminalFailureText(effort)).toBe(
      "API error 400: effort max requires thinking. This model refuses that effort without thinking: choose another with --effort (or leave it out); until then every run fails the same way.",
    );
  });
});
