import { describe, expect, it } from "vitest";
import {
  discussPlanMessage,
  noLongerPendingMessage,
  outlineRequestedMessage,
  outlineStillMissingMessage,
  personDeniedMessage,
  personRepliedMessage,
  planDeniedMessage,
  questionsOffMessage,
  questionTimedOutMessage,
  questionUnattendedMessage,
  refusalInWords,
  stillInPlanModeMessage,
  timedOutMessage,
  unattendedMessage,
} from "../../src/policy/index.js";
import { loopsOffReason } from "../../src/schedule/index.js";

describe("refusalInWords", () => {
  it("puts every refusal the model reads into a few words for the person", () => {
    expect(
      [
        personDeniedMessage("Bash"),
        personRepliedMessage("Write", 'use "docs/" instead'),
        unattendedMessage("Bash"),
        timedOutMessage("mcp__github__create_issue"),
        stillInPlanModeMessage("Edit"),
        planDeniedMessage,
        outlineRequestedMessage,
        outlineStillMissingMessage,
        discussPlanMessage,
        questionsOffMessage,
        questionUnattendedMessage,
        questionTimedOutMessage,
        noLongerPendingMessage,
        "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file).",
        loopsOffReason("chat"),
        loopsOffReason("everywhere"),
      ].map(refusalInWords),
    ).toEqual([
      "denied",
      'denied with a reply: “use "docs/" instead”',
      "not allowed: nobody was watching this run",
      "not allowed: no answer in time",
      "blocked: still in plan mode",
      "plan not approved",
      "outline requested",
      "waiting for the outline first",
      "to discuss first",
      "not asked: questions are off in this chat",
      "not asked: nobody was watching this run",
      "no answer in time",
      "no longer pending",
      "not run",
      "not scheduled: loops are off in this chat (/loops on allows them)",
      "not scheduled: loops are off in the config ([loops] enabled)",
    ]);
  });

  it("tells a call stopped while it ran from one stopped before it ran", () => {
    // Claude Code 2.1.332's words for a Bash call an interrupt stopped while it ran (fixture i-interrupt-during-bash).
    const stopped =
      "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed. Correction to the text above: this call was stopped while running, not refused before it ran. It may have run in part or in full, and its changes may have been written.";
    expect(refusalInWords(stopped)).toBe("stopped while running; it may have run in part");
    expect(refusalInWords("The user doesn't want to proceed with this tool use. The tool use was rejected.")).toBe(
      "not run",
    );
  });

  it("leaves a real failure alone, even one that quotes a refusal later on", () => {
    expect(refusalInWords("File does not exist: src/a.ts")).toBeUndefined();
    expect(refusalInWords("Exit code 1\nThe person did not approve this plan.")).toBeUndefined();
  });
});
