// A person's prompt as the user line the CLI reads: Telecode's engine-neutral prompt blocks
// become the Messages API's content blocks, which the CLI forwards unchanged (PROTOCOL.md).
import type { Prompt, PromptBlock } from "../domain/index.js";
import { encodeUserMessage, type WireUserContentBlock } from "../wire/index.js";

function wireBlock(block: PromptBlock): WireUserContentBlock {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", source: { type: "base64", media_type: block.mediaType, data: block.base64 } };
    case "document": {
      const source = { type: "base64", media_type: block.mediaType, data: block.base64 } as const;
      return block.title === undefined
        ? { type: "document", source }
        : { type: "document", source, title: block.title };
    }
  }
}

/** The stdin line that starts a turn with `prompt`; `uuid` names it in the CLI's command_lifecycle lines. */
export function encodePrompt(prompt: Prompt, uuid?: string): string {
  const content = typeof prompt === "string" ? prompt : prompt.map(wireBlock);
  return encodeUserMessage(content, uuid === undefined ? {} : { uuid });
}

/** Whether the prompt carries more than words (print mode can pass only words). */
export function hasAttachments(prompt: Prompt): boolean {
  return typeof prompt !== "string" && prompt.some((block) => block.type !== "text");
}
