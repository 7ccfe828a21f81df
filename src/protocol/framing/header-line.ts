// One line of a Content-Length header block, classified from its raw bytes. Headers are ASCII,
// so they are read byte by byte and never decoded into strings on the happy path.

/**
 * `blank`: the empty line that closes a header block. `content-length`: the field, with its value
 * or null when the value is not a byte count. `other-field`: any other `Name: value` line
 * (e.g. Content-Type), accepted and ignored. `garbage`: not a header line at all.
 */
export type HeaderLine =
  | { kind: 'blank' }
  | { kind: 'content-length'; value: number | null }
  | { kind: 'other-field' }
  | { kind: 'garbage' };

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const TAB = 0x09;

const BLANK: HeaderLine = { kind: 'blank' };
const OTHER_FIELD: HeaderLine = { kind: 'other-field' };
const GARBAGE: HeaderLine = { kind: 'garbage' };

/** Lower-case ASCII bytes of the one header name we care about, and of the resync marker. */
const CONTENT_LENGTH = new TextEncoder().encode('content-length');
const CONTENT_LENGTH_COLON = new TextEncoder().encode('content-length:');

/** More digits than this could not be an exact JavaScript number, and is far past any limit. */
const MAX_LENGTH_DIGITS = 15;

/** HTTP's `token` characters: what a header name may be made of. */
const IS_TOKEN = new Uint8Array(128);
for (const char of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") {
  IS_TOKEN[char.charCodeAt(0)] = 1;
}

/**
 * Classify `bytes[start, end)`, one line including its final LF. A header line is
 * `Name: value` ended by CRLF, as in HTTP and LSP; a line ended by a bare LF is garbage, which
 * is what catches most log lines printed to stdout by mistake.
 */
export function classifyHeaderLine(bytes: Uint8Array, start: number, end: number): HeaderLine {
  if (end - start < 2 || bytes[end - 1] !== LF || bytes[end - 2] !== CR) return GARBAGE;
  const lineEnd = end - 2; // before the CRLF
  if (lineEnd === start) return BLANK;

  let colon = start;
  while (colon < lineEnd && IS_TOKEN[bytes[colon]!] === 1) colon++;
  if (colon === start || colon === lineEnd || bytes[colon] !== COLON) return GARBAGE;

  if (!equalsIgnoringCase(bytes, start, colon, CONTENT_LENGTH)) return OTHER_FIELD;
  return { kind: 'content-length', value: parseByteCount(bytes, colon + 1, lineEnd) };
}

/**
 * Where `content-length:` (any case) starts in `bytes[start, end)`, or -1. The reader uses it to
 * find a header that garbage ran into, e.g. a body without a newline followed by the next frame.
 */
export function indexOfContentLength(bytes: Uint8Array, start: number, end: number): number {
  const marker = CONTENT_LENGTH_COLON;
  for (let at = start; at + marker.length <= end; at++) {
    if (equalsIgnoringCase(bytes, at, at + marker.length, marker)) return at;
  }
  return -1;
}

/** Digits only, with optional spaces or tabs around them; null for anything else (`-5`, `1e3`, ``). */
function parseByteCount(bytes: Uint8Array, start: number, end: number): number | null {
  while (start < end && isBlank(bytes[start]!)) start++;
  while (end > start && isBlank(bytes[end - 1]!)) end--;
  if (start === end || end - start > MAX_LENGTH_DIGITS) return null;
  let value = 0;
  for (let at = start; at < end; at++) {
    const digit = bytes[at]! - 0x30;
    if (digit < 0 || digit > 9) return null;
    value = value * 10 + digit;
  }
  return value;
}

function isBlank(byte: number): boolean {
  return byte === SPACE || byte === TAB;
}

/** Compare `bytes[start, end)` with lower-case ASCII `lower`, folding A-Z only. */
function equalsIgnoringCase(bytes: Uint8Array, start: number, end: number, lower: Uint8Array): boolean {
  if (end - start !== lower.length) return false;
  for (let i = 0; i < lower.length; i++) {
    const byte = bytes[start + i]!;
    const folded = byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte;
    if (folded !== lower[i]) return false;
  }
  return true;
}
