import { describe, expect, it } from "vitest";
import { encodePrompt, hasAttachments } from "../../src/claude/prompt-line.js";
import type { PromptBlock } from "../../src/domain/index.js";

describe("a prompt as the CLI's user line", () => {
  it("keeps words as a plain string", () => {
    expect(JSON.parse(encodePrompt("say hi")).message).toEqual({ role: "user", content: "say hi" });
    expect(hasAttachments("say hi")).toBe(false);
  });

  it("turns images and PDFs into the Messages API's blocks, in order", () => {
    const blocks: PromptBlock[] = [
      { type: "image", mediaType: "image/png", base64: "iVBO" },
      { type: "document", mediaType: "application/pdf", base64: "JVBE", title: "spec.pdf" },
      { type: "text", text: "what is wrong here?" },
    ];
    expect(hasAttachments(blocks)).toBe(true);
    expect(JSON.parse(encodePrompt(blocks)).message.content).toEqual([
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBO" } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: "JVBE" }, title: "spec.pdf" },
      { type: "text", text: "what is wrong here?" },
    ]);
  });
});
