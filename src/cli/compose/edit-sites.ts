// An Edit's site in its file, read from disk when the approval is asked (both front ends):
// the file as it is then, small text files only; anything unreadable just means no site.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { ApprovalRequest, EditSite } from "../../domain/index.js";
import { findEditSite } from "../../policy/index.js";

/** Larger files are not read for a prompt (the Edit still shows its own lines). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

export function readEditSite(request: ApprovalRequest): EditSite | undefined {
  const path = request.input["file_path"];
  const oldString = request.input["old_string"];
  if (typeof path !== "string" || !isAbsolute(path) || typeof oldString !== "string") return undefined;
  try {
    const stat = statSync(path);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    const text = readFileSync(path, "utf8");
    return text.includes("\u0000") ? undefined : findEditSite(text, oldString);
  } catch {
    return undefined;
  }
}
