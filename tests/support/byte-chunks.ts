// Byte helpers for the readers' property tests: cut a stream into chunks at arbitrary points (the
// chunking a pipe, a socket or a pseudo-terminal might produce). Joining is concatBytes
// (src/protocol/inspect/concat-bytes.ts).

/** Cut `bytes` at `cuts` (taken modulo its length + 1, in any order, repeats allowed). */
export function cutAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.subarray(start, point)); // empty chunks included: they must be harmless
    start = point;
  }
  return chunks;
}
