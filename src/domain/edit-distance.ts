// How far apart two words are, and the word likely meant, for "did you mean …" hints (config
// keys, mistyped commands and options). Pure.

/** Optimal-string-alignment distance: insertions, deletions, substitutions and swaps of neighbours. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => d[i]?.[j] ?? Number.POSITIVE_INFINITY;
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      const row = d[i];
      if (row) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The closest candidate when it is close enough to be a likely typo, else undefined. */
export function closestName(word: string, candidates: readonly string[]): string | undefined {
  const lowered = word.toLowerCase();
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const distance = editDistance(lowered, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { candidate, distance };
  }
  if (!best) return undefined;
  const allowed = Math.max(2, Math.floor(Math.max(word.length, best.candidate.length) / 3));
  if (best.distance <= allowed) return best.candidate;
  // A shortened or extended name ("allowed_users" for "allowed_user_ids") is still a good hint.
  const prefix = candidates.find((c) => c.startsWith(lowered.slice(0, 7)) && lowered.length >= 7);
  return prefix;
}
