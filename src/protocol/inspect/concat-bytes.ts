// Chunks as one run of bytes: what crossed a connection in one direction, for a view, a reader or a
// redaction that needs it whole. One chunk is handed back as it is (no copy); callers only read.

export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
