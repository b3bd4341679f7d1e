// How many pages a PDF has, read from its page tree without a PDF library: the root Pages
// dictionary's /Count, found in the file's text or, when the file keeps its objects in
// compressed object streams (PDF 1.5 and later), in those streams once inflated. Best effort:
// undefined when no page tree can be read, and the caller then sends the PDF as it would.
import { constants, inflateSync } from "node:zlib";

/** The API's limit, which Claude Code states too ("PDF too large (max 100 pages, …)"). */
export const PDF_MAX_PAGES = 100;

/** Inflated object streams are read up to this many bytes each (a stream that claims more is skipped). */
const MAX_INFLATED_BYTES = 16 * 1024 * 1024;

/** A dictionary with no dictionary inside it (a Pages node has none: its kids are references). */
const FLAT_DICT = /<<((?:(?!<<|>>)[\s\S])*)>>/g;
const PAGES_TYPE = /\/Type\s*\/Pages(?![A-Za-z])/;
const COUNT = /\/Count\s+(\d+)/;
const OBJECT_STREAM = /\/Type\s*\/ObjStm(?![A-Za-z])/;

/** The pages of the PDF in `bytes`, or undefined when its page tree cannot be read. */
export function pdfPageCount(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  return largestPagesCount(text) ?? countInObjectStreams(text);
}

/** The largest /Count of a Pages dictionary in `text`: the root's, which counts every page. */
function largestPagesCount(text: string): number | undefined {
  let largest: number | undefined;
  for (const [, body = ""] of text.matchAll(FLAT_DICT)) {
    if (!PAGES_TYPE.test(body)) continue;
    const count = COUNT.exec(body)?.[1];
    if (count !== undefined) largest = Math.max(largest ?? 0, Number(count));
  }
  return largest;
}

/** The same, inside each compressed object stream (`/Type /ObjStm`, FlateDecode). */
function countInObjectStreams(text: string): number | undefined {
  let largest: number | undefined;
  for (const dict of text.matchAll(FLAT_DICT)) {
    const body = dict[1] ?? "";
    if (!OBJECT_STREAM.test(body) || !/\/FlateDecode/.test(body)) continue;
    const after = (dict.index ?? 0) + dict[0].length;
    const start = /^\s*stream\r?\n/.exec(text.slice(after, after + 32));
    if (start === null) continue;
    const from = after + start[0].length;
    const to = text.indexOf("endstream", from);
    if (to === -1) continue;
    const inflated = inflate(Buffer.from(text.slice(from, to), "latin1"));
    const count = inflated === undefined ? undefined : largestPagesCount(inflated);
    if (count !== undefined) largest = Math.max(largest ?? 0, count);
  }
  return largest;
}

function inflate(data: Buffer): string | undefined {
  try {
    // Sync flush: the bytes up to "endstream" may carry a line end after the stream's end.
    return inflateSync(data, { finishFlush: constants.Z_SYNC_FLUSH, maxOutputLength: MAX_INFLATED_BYTES }).toString(
      "latin1",
    );
  } catch {
    return undefined;
  }
}
