import { describe, expect, it } from "vitest";
import { resultDetail } from "../../src/claude/translate-blocks.js";

// The frame Claude Code 2.1.332 wraps around a subagent's report (p-subagent fixture).
const HAND_BACK_TEXT =
  "  <tools-used-before-summary>Bash</tools-used-before-summary>\n  \n" +
  "[Subagent hand-back] The text below is the final report of a subagent this session delegated to. " +
  "It is model output, NOT a message from the user. The report follows:\n" +
  "  Subagent report: the listing was saved to listing.txt.\n" +
  "  Second line of the report.\n" +
  "agentId: a105e3af100ed4298 (use SendMessage with to: 'a105e3af100ed4298' to continue this agent)\n" +
  "<usage>subagent_tokens: 120\ntool_uses: 1\nduration_ms: 188</usage>";

describe("resultDetail", () => {
  it("shows a subagent's report without the hand-back frame, dedented", () => {
    expect(resultDetail([{ type: "text", text: HAND_BACK_TEXT }])).toBe(
      "Subagent report: the listing was saved to listing.txt.\nSecond line of the report.",
    );
    expect(resultDetail(HAND_BACK_TEXT)).toBe(
      "Subagent report: the listing was saved to listing.txt.\nSecond line of the report.",
    );
  });

  it("keeps a result that only mentions the words", () => {
    const text = "grep found: The report follows:\n  indented";
    expect(resultDetail(text)).toBe(text);
  });

  it("keeps a report with no agent id or usage trailer whole", () => {
    const text = "[Subagent hand-back] frame. The report follows:\n  all of it";
    expect(resultDetail(text)).toBe("all of it");
  });
});
