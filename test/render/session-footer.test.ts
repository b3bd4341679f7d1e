// The answer footer's session mark is read back from the text of the message it is in: what
// formatSessionMark writes, parseSessionMark finds again, and nothing else looks like it.
import { describe, expect, it } from "vitest";
import { formatSessionMark, parseSessionMark, renderFinalAnswer, telegramHtmlToText } from "../../src/render/index.js";

describe("session mark", () => {
  it("reads back the session prefix from a rendered final answer", () => {
    const sessionId = "1a2b3c4d-0000-4000-8000-000000000000";
    const parts = renderFinalAnswer("Done.", { costUsd: 0.01, turns: 1, durationMs: 2000, sessionId }).parts.map(
      (p) => p.html,
    );
    const last = telegramHtmlToText(parts.at(-1) ?? "");
    expect(parseSessionMark(last ?? "")).toBe("1a2b3c4d");
    expect(parseSessionMark(formatSessionMark(sessionId))).toBe("1a2b3c4d");
  });

  it("finds nothing in an answer that only mentions a session", () => {
    expect(parseSessionMark("The session 1a2b3c4d was long.")).toBeUndefined();
  });
});
