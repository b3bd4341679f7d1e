// Shared by the golden generator and the golden test: how a fixture's events are written to
// a golden file. Strings over 2000 characters are replaced by their length and a hash so the
// r2 fixture's 1 MB Write does not end up in a golden file verbatim.
import { createHash } from "node:crypto";
import { join } from "node:path";

export const LONG_STRING_CHARS = 2000;

/** Replaces long strings (anywhere in the event) with a short, stable placeholder. */
export function shortenLongStrings(value) {
  if (typeof value === "string") {
    if (value.length <= LONG_STRING_CHARS) return value;
    const hash = createHash("sha256").update(value).digest("hex").slice(0, 16);
    return `<${value.length} chars, sha256 ${hash}…>`;
  }
  if (Array.isArray(value)) return value.map(shortenLongStrings);
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, shortenLongStrings(inner)]));
  }
  return value;
}

/** The golden file text for a list of events: one JSON object per line. */
export function formatGolden(events) {
  return events.map((event) => JSON.stringify(shortenLongStrings(event))).join("\n") + (events.length > 0 ? "\n" : "");
}

/** Where a CLI version's golden files live: `events/claude-code-VERSION/`, beside its recordings' folder name. */
export function goldenDir(eventsRoot, version) {
  return join(eventsRoot, `claude-code-${version}`);
}
