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
const STREAM_START = /^\s*stream\r?\n/;

/** The pages of the PDF in `bytes`, or undefined when its page tree cannot be read. */
export function pdfPageCount(bytes: Uint8Array): number | undefined {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1");
  const found = scan(text);
  if (found.pages !== undefined) return found.pages;
  // The page tree is in the object streams: read each once inflated.
  let largest: number | undefined;
  for (const data of found.objectStreams) {
    const inflated = inflate(data);
    const pages = inflated === undefined ? undefined : scan(inflated).pages;
    if (pages !== undefined) largest = Math.max(largest ?? 0, pages);
  }
  return largest;
}

/**
 * One pass over `text`'s dictionaries: the largest /Count of a Pages dictionary (the root's,
 * which counts every page), and the data of each FlateDecode object stream.
 */
function scan(text: string): { pages: number | undefined; objectStreams: Buffer[] } {
  let pages: number | undefined;
  const objectStreams: Buffer[] = [];
  for (const dict of text.matchAll(FLAT_DICT)) {
    const body = dict[1] ?? "";
    if (PAGES_TYPE.test(body)) {
      const count = COUNT.exec(body)?.[1];
      if (count !== undefined) pages = Math.max(pages ?? 0, Number(count));
    } else if (OBJECT_STREAM.test(body) && body.includes("/FlateDecode")) {
      const data = streamAfter(text, (dict.index ?? 0) + dict[0].length);
      if (data !== undefined) objectStreams.push(data);
    }
  }
  return { pages, objectStreams };
}

/** The bytes of the stream that follows a dictionary ending at `at`, up to "endstream". */
function streamAfter(text: string, at: number): Buffer | undefined {
  const start = STREAM_START.exec(text.slice(at, at + 32));
  if (start === null) return undefined;
  const from = at + start[0].length;
  const to = text.indexOf("endstream", from);
  return to === -1 ? undefined : Buffer.from(text.slice(from, to), "latin1");
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
