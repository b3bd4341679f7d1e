// An Edit's site in its file, read from disk when the approval is asked (both front ends):
// the file as it is then, small text files only, never one files.deny_globs keeps out of the
// chat (its other lines may be secrets); anything unreadable just means no site.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { ApprovalRequest, EditSite } from "../../domain/index.js";
import { denyMatcher } from "../../media/index.js";
import { findEditSite } from "../../policy/index.js";

/** Larger files are not read for a prompt (the Edit still shows its own lines). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

/** Reads the site of an Edit request, unless its file matches one of `denyGlobs`. */
export function editSiteReader(denyGlobs: readonly string[]): (request: ApprovalRequest) => EditSite | undefined {
  const denied = denyMatcher(denyGlobs);
  return (request) => {
    const path = request.input["file_path"];
    const oldString = request.input["old_string"];
    if (typeof path !== "string" || !isAbsolute(path) || typeof oldString !== "string") return undefined;
    if (denied(path) !== undefined) return undefined;
    try {
      const stat = statSync(path);
      if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
      const text = readFileSync(path, "utf8");
      return text.includes("\u0000") ? undefined : findEditSite(text, oldString);
    } catch {
      return undefined;
    }
  };
}
