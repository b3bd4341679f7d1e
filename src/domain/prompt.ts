// What a person asks a run with: words, or words with images and PDFs attached. Engine-neutral;
// the engine turns it into its own message shape (src/claude).

/** The image types a prompt may carry (what the Messages API accepts). */
export type ImageMediaType = "image/jpeg" | "image/png" | "image/gif" | "image/webp";

export type PromptBlock =
  | { readonly type: "text"; readonly text: string }
  | { readonly type: "image"; readonly mediaType: ImageMediaType; readonly base64: string }
  /** A PDF; `title` is shown to the model as its name. */
  | {
      readonly type: "document";
      readonly mediaType: "application/pdf";
      readonly base64: string;
      readonly title?: string;
    };

/** A plain string, or blocks (attachments first, then one text block). */
export type Prompt = string | readonly PromptBlock[];

/** The words of a prompt (its text blocks joined), for logs, titles and the terminal. */
export function promptText(prompt: Prompt): string {
  if (typeof prompt === "string") return prompt;
  return prompt
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("\n")
    .trim();
}
