// Guesses how a stdio session frames its messages from the first bytes either side sends, so a
// recording can say "content-length" or "ndjson" without being told. Pure: the page may use it too.

import type { TraceFraming } from './trace-format.ts';

const CONTENT_LENGTH = 'content-length:';

/**
 * The framing the first bytes of a stream show, or null while they do not show one yet (too few
 * bytes, or only whitespace). `{` or `[` first is one JSON value per line; a `Content-Length:`
 * header (any case) is LSP-style framing.
 */
export function guessFraming(firstBytes: Uint8Array): Exclude<TraceFraming, 'http'> | null {
  let start = 0;
  while (start < firstBytes.length && isSpace(firstBytes[start] as number)) start++;
  if (start === firstBytes.length) return null;
  const first = firstBytes[start];
  if (first === 0x7b /* { */ || first === 0x5b /* [ */) return 'ndjson';
  const available = Math.min(CONTENT_LENGTH.length, firstBytes.length - start);
  for (let i = 0; i < available; i++) {
    const byte = firstBytes[start + i] as number;
    // ASCII lower-casing: set bit 0x20 on letters only.
    const lower = byte >= 0x41 && byte <= 0x5a ? byte | 0x20 : byte;
    if (lower !== CONTENT_LENGTH.charCodeAt(i)) return 'ndjson';
  }
  // A prefix of "Content-Length:" that is still arriving: wait for more.
  return available === CONTENT_LENGTH.length ? 'content-length' : null;
}

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}
