// The doctor's "long PDFs" line: a PDF over the API's 100 pages is saved for Claude's Read tool,
// which renders a range of its pages with poppler's pdftoppm; without it Claude cannot open one.
import type { Env } from "../config/index.js";
import { findOnPath } from "../keeper/index.js";
import { PDF_MAX_PAGES } from "../media/index.js";
import { ok, warn, type CheckResult } from "./doctor-result.js";

const LABEL = "long PDFs";

/** Whether Claude Code, started with `env`'s PATH, finds pdftoppm. */
export function checkLongPdfs(env: Env): CheckResult {
  const found = findOnPath("pdftoppm", env["PATH"]);
  if (found !== null) return ok(LABEL, `${found}: Claude reads a PDF over ${PDF_MAX_PAGES} pages a range at a time`);
  return warn(
    LABEL,
    `pdftoppm (poppler-utils) is not installed: Claude cannot open a PDF over ${PDF_MAX_PAGES} pages, which Telecode saves for it rather than send it whole`,
    "install poppler-utils (`sudo apt-get install poppler-utils`; `brew install poppler` on a Mac)",
  );
}
