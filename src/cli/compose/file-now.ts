// The file an Edit or Write targets, read from disk when its approval is put to the person
// (both front ends): missing, or its line count and where an Edit lands. Small text files
// only, never one files.deny_globs keeps out of the chat (its lines may be secrets); anything
// unreadable just means nothing is said of the file.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { ApprovalRequest, FileNow } from "../../domain/index.js";
import { denyMatcher } from "../../media/index.js";
import { findEditSite, lineCount } from "../../policy/index.js";

/** Larger files are not read for a prompt (the Edit still shows its own lines). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/** Reads the file of an Edit or Write request, unless it matches one of `denyGlobs`. */
export function fileNowReader(denyGlobs: readonly string[]): (request: ApprovalRequest) => FileNow | undefined {
  const denied = denyMatcher(denyGlobs);
  return (request) => {
    const path = request.input["file_path"];
    if (typeof path !== "string" || !isAbsolute(path) || denied(path) !== undefined) return undefined;
    try {
      const stat = statSync(path);
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
      const text = readFileSync(path, "utf8");
      if (text.includes("\u0000")) return undefined;
      const oldString = request.input["old_string"];
      const editSite = typeof oldString === "string" ? findEditSite(text, oldString) : undefined;
      return { exists: true, lines: lineCount(text), ...(editSite === undefined ? {} : { editSite }) };
    } catch (error) {
      return isMissing(error) ? { exists: false } : undefined;
    }
  };
}
