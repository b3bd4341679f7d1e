// The kinds Claude Code names an API error by (result.api_error), read as what a person does
// next: the recorded refusals of every CLI version (a PDF the API refused, a CLI too old, a
// broken history), and the words for the kinds no recording can make here.
import { describe, expect, it } from "vitest";
import { kindPasses, mediaRemovedText, nextStepOf } from "../../src/claude/api-error-kinds.js";
import { createTranslator } from "../../src/claude/translator.js";
import type { TelecodeEvent } from "../../src/domain/index.js";
import { decodeLine } from "../../src/wire/index.js";
import { listFixtureVersions, listStdoutFixtures, stdoutLines } from "../wire/fixtures.js";

function translate(lines: readonly string[]): TelecodeEvent[] {
  const translator = createTranslator();
  return lines.flatMap((line) => translator.push(decodeLine(line)));
}

const replay = (name: string, version: string): TelecodeEvent[] => translate(stdoutLines(name, version));

function failures(events: readonly TelecodeEvent[]) {
  return events.flatMap((e) => (e.type === "turn_finished" && e.error !== undefined ? [e.error] : []));
}

const PDF_LEFT_OUT =
  "The API could not process a PDF in this session (too large, too many pages, or unreadable), so Claude Code left it out and Claude went on without it. Send a smaller one, or only the pages that matter.";

describe("Claude Code's kinds of API error", () => {
  it("every kind a recording of any version carries has a next step", () => {
    const seen = new Set<string>();
    for (const version of listFixtureVersions())
      for (const name of listStdoutFixtures(version))
        for (const line of stdoutLines(name, version)) {
          const kind = /"api_error":"([a-z_]+)"/.exec(line)?.[1];
          if (kind !== undefined) seen.add(kind);
        }
    expect([...seen].sort()).toEqual([
      "claude_code_version_too_old",
      "connection_failed",
      "media_removed",
      "tool_history_mismatch",
      "usage_limit_reached",
    ]);
    for (const kind of seen) expect(nextStepOf(kind), kind).toBeDefined();
  });

  for (const version of listFixtureVersions()) {
    describe(`as Claude Code ${version} reports them`, () => {
      it("a PDF the API refused: left out, said once the answer comes, and the turn succeeds", () => {
        const events = replay("k6-pdf-too-large", version);
        const firstTurn = events.slice(0, events.findIndex((e) => e.type === "turn_finished") + 1);
        const note = firstTurn.findIndex((e) => e.type === "note" && e.text === PDF_LEFT_OUT);
        const answer = firstTurn.findIndex((e) => e.type === "text");
        expect(note).toBeGreaterThan(-1);
        expect(note).toBeLessThan(answer);
        expect(firstTurn.at(-1)).toMatchObject({ type: "turn_finished", ok: true });
        // Said for the turn that left it out only.
        expect(events.filter((e) => e.type === "note" && e.text === PDF_LEFT_OUT)).toHaveLength(1);
      });

      it("a CLI too old for the model: update it on the computer, or choose another model; no second try", () => {
        expect(failures(replay("k7-version-too-old", version))).toEqual([
          {
            reason: "api_error",
            apiStatus: 400,
            what: "API error 400: Claude Code 2.1.0 does not support this model; version 9.9.0 or newer is required.",
            hint: "On the computer running Telecode, update Claude Code (`npm i -g @anthropic-ai/claude-code@latest`, then `telecode doctor`), or choose another model with /model; until then every message fails the same way.",
          },
        ]);
      });

      it("a broken history: said in words, and a fresh session, since every message in it fails", () => {
        expect(failures(replay("k8-tool-history-mismatch", version))).toEqual([
          {
            reason: "api_error",
            apiStatus: 400,
            what: "The API refused this session's history: a tool call in it has no result.",
            hint: "Every message in this session fails the same way: start a fresh session with /new.",
          },
        ]);
      });
    });
  }

  const INIT = JSON.stringify({ type: "system", subtype: "init", session_id: "s1", model: "m", tools: [] });
  const failed = (fields: Record<string, unknown>) =>
    failures(
      translate([
        INIT,
        JSON.stringify({
          type: "result",
          subtype: "success",
          is_error: true,
          session_id: "s1",
          terminal_reason: "api_error",
          ...fields,
        }),
      ]),
    )[0];

  it("a file the API refused that ended the turn: the failure says it, with no note besides and no second try", () => {
    const refusal = "API Error: a document in the conversation could not be processed and was removed.";
    const frame = JSON.stringify({
      type: "assistant",
      parent_tool_use_id: null,
      session_id: "s1",
      is_api_error_message: true,
      api_error: "media_removed",
      api_error_params: { media: "document", media_reason: "unprocessable" },
      message: { model: "<synthetic>", content: [{ type: "text", text: refusal }] },
    });
    const result = JSON.stringify({
      type: "result",
      subtype: "success",
      is_error: true,
      session_id: "s1",
      api_error_status: 400,
      api_error: "media_removed",
      result: refusal,
    });
    const events = translate([INIT, frame, result]);
    expect(events.filter((e) => e.type === "note" || e.type === "text")).toEqual([]);
    expect(failures(events)).toEqual([
      {
        reason: "api_error",
        apiStatus: 400,
        what: "API error 400: a document in the conversation could not be processed and was removed.",
        hint: "Claude Code leaves it out from now on: send it again in another format or smaller, or go on without it.",
      },
    ]);
  });

  it("a kind the CLI sent no request for: worded by its next step, passing only when a second try may", () => {
    expect(
      failed({ api_error: "dlp_request_denied", result: "API Error: Blocked by your organization's policy." }),
    ).toEqual({
      reason: "api_error",
      what: "API error: Blocked by your organization's policy.",
      hint: "The same request is refused again: ask for something else, or put it another way.",
    });
    expect(failed({ api_error: "empty_completion", result: "API Error: The model returned no answer." })).toEqual({
      reason: "api_error",
      passing: true,
      what: "API error: The model returned no answer.",
      hint: "Send the message again in a minute; Claude Code already retried.",
    });
    // Where the CLI says what to do about a setup it refuses, its advice stays, with no "retried".
    expect(
      failed({
        api_error: "named_profile_unusable",
        result:
          "API Error: ANTHROPIC_PROFILE names the profile work, which is signed out. Sign in to it with `claude auth login --profile work`.",
      }),
    ).toEqual({
      reason: "api_error",
      what: "API error: ANTHROPIC_PROFILE names the profile work, which is signed out.",
      hint: "Sign in to it with `claude auth login --profile work`.",
    });
  });

  it("a setting Telecode itself passes is named by its command: the effort", () => {
    expect(
      failed({
        api_error_status: 400,
        api_error: "effort_requires_thinking",
        result: "API Error: 400 effort max requires thinking.",
      })?.hint,
    ).toBe(
      "This model refuses that effort without thinking: choose another with /effort (or /effort default); until then every message fails the same way.",
    );
  });

  it("a kind with a status: its next step replaces the general advice; a kind not known keeps it", () => {
    expect(
      failed({
        api_error_status: 402,
        api_error: "model_requires_usage_credits",
        result: "API Error: 402 This model needs usage credits.",
      }),
    ).toEqual({
      reason: "api_error",
      apiStatus: 402,
      what: "API error 402: This model needs usage credits.",
      hint: "Choose another model with /model, or allow usage credits for your Claude account; until then every message fails the same way with this model.",
    });
    expect(
      failed({ api_error_status: 400, api_error: "a_kind_from_later", result: "API Error: 400 Something new." }),
    ).toEqual({
      reason: "api_error",
      apiStatus: 400,
      what: "API error 400: Something new.",
      hint: "Sending it again fails the same way: check the model and settings (`telecode doctor` on the computer running Telecode).",
    });
  });

  it("passes only the kinds a second try of the same message may pass", () => {
    expect(["connection_failed", "no_response", "empty_completion"].every(kindPasses)).toBe(true);
    // A file the person sent goes again with the message; an answer too long is as long again.
    for (const kind of [
      "pdf_too_large",
      "pdf_password_protected",
      "media_removed",
      "max_output_tokens",
      "consent_unanswered",
    ])
      expect(kindPasses(kind), kind).toBe(false);
    expect(kindPasses("claude_code_version_too_old")).toBe(false);
    expect(kindPasses("a_kind_from_later")).toBe(false);
  });

  it("words a file left out by why the API refused it", () => {
    expect(mediaRemovedText({ media: "image", media_reason: "unprocessable" })).toMatch(
      /^The API could not process an image in this session/,
    );
    expect(mediaRemovedText({ media: "document", media_reason: "unsupported_by_model" })).toBe(
      "This model does not read PDFs, so Claude Code left the PDF out and Claude went on without it. Choose another model with /model, or send the pages as images.",
    );
    expect(mediaRemovedText({ media_reason: "media_budget" })).toBe(
      "The images and PDFs in this session are more than the API takes at once, so Claude Code left some out and Claude went on without them. To send them again, start a fresh session with /new.",
    );
    expect(mediaRemovedText(undefined)).toBe(PDF_LEFT_OUT);
  });
});
