// Claude Code's refusals to start, as the zeroed error result names them (startup_failure_reason),
// worded for the chat: what happened from Claude Code's words, what to do from the cause.
import { describe, expect, it } from "vitest";
import { resultFailure } from "../../src/claude/failures.js";
import { failsUntilFixed } from "../../src/domain/index.js";
import type { WireResultMessage } from "../../src/wire/index.js";

/** The result a CLI that would not start writes (as 2.1.332–2.1.337 do), with `fields` on it. */
function refusal(errors: string[], fields: Record<string, unknown>): WireResultMessage {
  return {
    type: "result",
    subtype: "error_during_execution",
    is_error: true,
    num_turns: 0,
    session_id: "671c1329-9d89-40a6-ad71-48c208ce3b11",
    total_cost_usd: 0,
    errors,
    ...fields,
  };
}

const CONFIG_ERROR =
  "Configuration error in /home/me/.claude.json: JSON Parse error: Expected '}'\nA backup was found.\nFix the JSON in /home/me/.claude.json, or move the file aside to start with default settings.";

describe("resultFailure for a CLI that would not start", () => {
  it("names the settings file and its backup when Claude Code found one", () => {
    const failure = resultFailure(
      refusal([CONFIG_ERROR], {
        startup_failure_reason: "config_file_invalid",
        invalid_config_file: {
          path: "/home/me/.claude.json",
          is_global: true,
          backup_searched: true,
          backup_path: "/home/me/.claude/backups/.claude.json.backup.1796467425083",
        },
      }),
      undefined,
    );
    expect(failure).toEqual({
      reason: "start_refused",
      what: "Claude Code would not start: Configuration error in /home/me/.claude.json: JSON Parse error: Expected '}'.",
      hint: "On the computer running Telecode, fix the JSON in /home/me/.claude.json, put back its backup /home/me/.claude/backups/.claude.json.backup.1796467425083, or move the file aside to start Claude Code with default settings; until then every message fails the same way.",
    });
    expect(failsUntilFixed(failure)).toBe(true);
  });

  it("names the file from Claude Code's words when the result does not (2.1.321)", () => {
    const failure = resultFailure(
      refusal([CONFIG_ERROR], { startup_failure_reason: "config_file_invalid" }),
      undefined,
    );
    expect(failure.hint).toBe(
      "On the computer running Telecode, fix the JSON in /home/me/.claude.json, or move the file aside to start Claude Code with default settings; until then every message fails the same way.",
    );
  });

  it("says a cause that passes may start on a later try, and does not hold what fails until fixed", () => {
    const failure = resultFailure(
      refusal(["Could not load your organization's required settings (network error). Try again."], {
        startup_failure_reason: "org_config_required_unavailable",
      }),
      undefined,
    );
    expect(failure).toEqual({
      reason: "start_refused",
      what: "Claude Code would not start: Could not load your organization's required settings (network error). Try again.",
      hint: "It may start on a later try: send the message again in a minute.",
      passing: true,
    });
    expect(failsUntilFixed(failure)).toBe(false);
  });

  it("keeps all of Claude Code's words for a cause Telecode has no remedy of its own for (an address to visit)", () => {
    const failure = resultFailure(
      refusal(["Please review the updated Consumer Terms.\nAccept them at https://claude.ai/legal/terms to go on."], {
        startup_failure_reason: "consumer_terms_accept_on_web",
      }),
      undefined,
    );
    expect(failure.what).toBe(
      "Claude Code would not start: Please review the updated Consumer Terms. Accept them at https://claude.ai/legal/terms to go on.",
    );
    expect(failure.hint).toBe(
      "On the computer running Telecode, do what it asks, or run `claude` in a terminal in the project's folder to see more; until then every message fails the same way.",
    );
  });

  it("says the cause when Claude Code gave no words", () => {
    const failure = resultFailure(refusal([], { startup_failure_reason: "temp_dir_unusable" }), undefined);
    expect(failure.what).toBe("Claude Code would not start: it gave the reason temp_dir_unusable.");
  });

  it("asks for a new sign-in when an organization's sign-in ended", () => {
    const failure = resultFailure(
      refusal(["Your organization sign-in has ended."], { startup_failure_reason: "org_signin_ended" }),
      undefined,
    );
    expect(failure.hint).toBe(
      "On the computer running Telecode, run `claude auth login` in a terminal to sign in again; until then every message fails the same way.",
    );
  });

  it("reads a session to resume that is gone (2.1.337 names the cause) as the session lost", () => {
    const failure = resultFailure(
      refusal(["No conversation found with session ID: 11111111-1111-4111-8111-111111111111"], {
        startup_failure_reason: "resume_target_not_found",
      }),
      undefined,
    );
    expect(failure).toMatchObject({
      reason: "session_not_found",
      what: "Claude Code no longer has session 11111111 on this computer (its transcript is gone), so the message was not run.",
    });
  });

  it("leaves a result without a cause to the other readings", () => {
    const failure = resultFailure(refusal(["Something else went wrong."], {}), undefined);
    expect(failure.reason).toBe("cli_error");
  });
});
