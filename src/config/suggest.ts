// "Did you mean …" for unknown config keys: the closest known key by edit distance, or the
// same key name in another table. Pure.
import { editDistance } from "../domain/index.js";

/** The closest candidate when it is close enough to be a likely typo, else undefined. */
export function closestKey(key: string, candidates: readonly string[]): string | undefined {
  const lowered = key.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lowered, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const allowed = Math.max(2, Math.floor(Math.max(key.length, best.candidate.length) / 3));
  if (best.distance <= allowed) return best.candidate;
  // A shortened or extended name ("allowed_users" for "allowed_user_ids") is still a good hint.
  const prefix = candidates.find((c) => c.startsWith(lowered.slice(0, 7)) && lowered.length >= 7);
  return prefix;
}
