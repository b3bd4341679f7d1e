// The CLI's stdout lines as text, for the line framer: exactly what Buffer's UTF-8 decoding
// gives (invalid bytes become U+FFFD the same way, a BOM is kept), in less time. Knows nothing
// about lines beyond their bytes.
import { isAscii } from "node:buffer";
import type { LineDecoder } from "../wire/index.js";

const STREAM = { stream: true } as const;

/**
 * Lines up to this many bytes go straight to Buffer's decoding: for them the checks below cost
 * more than they save (a streamed delta or a one-line reply is ~200–300 bytes, plain ASCII).
 */
export const SHORT_LINE_BYTES = 320;

/**
 * Short lines are decoded by Buffer. Of the longer ones, most are plain ASCII and are copied as
 * they are; the others go through a streaming TextDecoder, faster on multi-byte text than
 * Buffer's decoder. A line that ends inside a character leaves those bytes in the decoder:
 * flushing turns them into U+FFFD, as toString does.
 */
export function createLineDecoder(): LineDecoder {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  return (buf, start, end) => {
    if (end - start <= SHORT_LINE_BYTES) return buf.toString("utf8", start, end);
    const bytes = buf.subarray(start, end);
    if (isAscii(bytes)) return buf.toString("latin1", start, end);
    const text = decoder.decode(bytes, STREAM);
    return (buf[end - 1] as number) < 0x80 ? text : text + decoder.decode();
  };
}
