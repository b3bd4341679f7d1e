// Cutting a byte stream into chunks at chosen places, for tests that must give the same result
// under any chunking (framing, decoding).

/** Cuts `bytes` at the given positions (taken modulo its length + 1, sorted, deduplicated). */
export function cutAt(bytes: Buffer, positions: readonly number[]): Buffer[] {
  const points = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(bytes.subarray(start, point));
    start = point;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}
