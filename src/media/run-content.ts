// The user message a run starts with when a person sent more than words: image and PDF blocks
// first (the Messages API reads them best before the question), then the text, which names
// any files saved in the project. Pure.
import type { Prompt, PromptBlock } from "../domain/index.js";
import type { InlineImage } from "./image-limits.js";
import { formatBytes, MIB } from "./sizes.js";

/**
 * The largest PDF sent inline as a `document` block. Every later request of the session
 * carries it again (as base64, a third larger) under the API's 32 MB request limit; a bigger
 * PDF is saved in the project instead, where Claude's Read tool opens it page by page.
 */
export const INLINE_PDF_MAX_BYTES = 10 * MIB;

export type InlinePdf = Readonly<{ name: string; bytes: Uint8Array }>;

/** A file saved in the project, as the prompt names it. */
export type SavedFileNote = Readonly<{
  /** Relative to the project root, with `/` (absolute when the uploads folder is outside the project). */
  path: string;
  sizeBytes: number;
  mediaType: string;
}>;

export type RunContentInput = Readonly<{
  /** The caption or message text; empty when the person sent none. */
  text: string;
  images?: readonly InlineImage[];
  pdfs?: readonly InlinePdf[];
  saved?: readonly SavedFileNote[];
}>;

/** Whether a document should go inline as a PDF block rather than be saved. */
export function isInlinePdf(mimeType: string | undefined, name: string, sizeBytes: number): boolean {
  const isPdf = mimeType === "application/pdf" || name.toLowerCase().endsWith(".pdf");
  return isPdf && sizeBytes <= INLINE_PDF_MAX_BYTES;
}

/** What Claude is told about files saved for it: where each is, how big, what type. */
export function savedFilesText(saved: readonly SavedFileNote[]): string {
  const describe = (file: SavedFileNote): string =>
    `${file.path} (${formatBytes(file.sizeBytes)}, ${file.mediaType || "unknown type"})`;
  if (saved.length === 0) return "";
  if (saved.length === 1) return `I sent you a file; it is saved in the project at ${describe(saved[0]!)}.`;
  return `I sent you ${saved.length} files; they are saved in the project:\n${saved.map((f) => `- ${describe(f)}`).join("\n")}`;
}

/**
 * An answer's words with the files saved for it: Claude's text says where each file is; the
 * text shown back to the person names them ("like this sketch 📎 photo.png").
 */
export function answerWithFiles(words: string, saved: readonly SavedFileNote[]): { text: string; shown?: string } {
  const typed = words.trim();
  const text = [typed, savedFilesText(saved)].filter((part) => part !== "").join("\n\n");
  if (saved.length === 0) return { text };
  const names = saved.map((file) => file.path.slice(file.path.lastIndexOf("/") + 1)).join(", ");
  return { text, shown: [typed, `📎 ${names}`].filter((part) => part !== "").join(" ") };
}

/** The words that stand in for a missing caption. */
export function defaultPrompt(images: number, pdfs: number): string {
  if (images === 1 && pdfs === 0) return "Here is an image.";
  if (images > 1 && pdfs === 0) return `Here are ${images} images.`;
  if (images === 0 && pdfs === 1) return "Here is a PDF.";
  if (images === 0 && pdfs > 1) return `Here are ${pdfs} PDFs.`;
  return "Here are some attachments.";
}

/**
 * The content of the user line: a plain string when there is nothing to attach, else image
 * and document blocks followed by one text block.
 */
export function buildRunContent(input: RunContentInput): Prompt {
  const images = input.images ?? [];
  const pdfs = input.pdfs ?? [];
  const note = savedFilesText(input.saved ?? []);
  const words = input.text.trim();
  const fallback = images.length + pdfs.length > 0 ? defaultPrompt(images.length, pdfs.length) : "";
  const text = [note, words === "" ? fallback : words].filter((part) => part !== "").join("\n\n");
  if (images.length === 0 && pdfs.length === 0) return text;
  return [
    ...images.map((image): PromptBlock => ({
      type: "image",
      mediaType: image.info.mediaType,
      base64: Buffer.from(image.bytes).toString("base64"),
    })),
    ...pdfs.map((pdf): PromptBlock => ({
      type: "document",
      mediaType: "application/pdf",
      base64: Buffer.from(pdf.bytes).toString("base64"),
      title: pdf.name,
    })),
    { type: "text", text },
  ];
}
