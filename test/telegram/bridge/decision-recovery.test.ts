// A decision message whose settling edit never landed (Telegram down, a crash) is redrawn at the
// next start from what the store kept: the same outcome line the live message would have shown.
import { describe, expect, it } from "vitest";
import { openStore } from "../../../src/store/index.js";
import { recordedOutcome } from "../../../src/telegram/bridge/decision-messages-recovery.js";
import { renderSettledHtml } from "../../../src/telegram/bridge/prompt-html.js";
import { useTempDirs } from "../../support/temp-dirs.js";

const tempDir = useTempDirs("decision-recovery");

/** A decision of `kind` settled as `state` with `summary` by Ann, read back from a real store. */
function settled(kind: "plan" | "approval", state: "approved" | "denied", summary: string) {
  const store = openStore(tempDir());
  try {
    store.runs.start({ runId: "r1", chatId: 7, project: "app" });
    store.decisions.add({ decisionId: "d1", chatId: 7, runId: "r1", kind, requestId: "q1" });
    store.decisions.resolve("d1", state, { summary, by: "Ann" });
    return store.decisions.get("d1")!;
  } finally {
    store.close();
  }
}

const outcomeLine = (html: string) => html.split("\n").at(-1);

describe("a settled decision redrawn from the store", () => {
  it("shows an outline asked for, or a talk, as the live message did: ↩️, not ❌", () => {
    for (const summary of ["Outline requested", "Let's discuss"]) {
      const outcome = recordedOutcome(settled("plan", "denied", summary), false);
      expect(outcomeLine(renderSettledHtml("📋 Plan", outcome))).toBe(`<b>↩️ ${summary} (Ann)</b>`);
    }
  });

  it("keeps ❌ for a plan or a tool that was refused, and ✅ for one allowed", () => {
    const denied = recordedOutcome(settled("plan", "denied", "Plan denied"), false);
    expect(outcomeLine(renderSettledHtml("📋 Plan", denied))).toBe("<b>❌ Plan denied (Ann)</b>");
    // Only a plan's answers steer: a tool's denial that happens to read the same stays a refusal.
    const tool = recordedOutcome(settled("approval", "denied", "Outline requested"), false);
    expect(outcomeLine(renderSettledHtml("🔐 Run", tool))).toBe("<b>❌ Outline requested (Ann)</b>");
    const allowed = recordedOutcome(settled("approval", "approved", "Allowed"), false);
    expect(outcomeLine(renderSettledHtml("🔐 Run", allowed))).toBe("<b>✅ Allowed (Ann)</b>");
  });
});
