// Where the secrets of MCP authorization sit in HTTP bytes, so the inspector, the log and a saved
// trace can hide them until the learner chooses to see them: the credentials of the Authorization
// header (a Bearer token, Basic credentials), cookies, the authorization code and PKCE verifier in a
// query or a form, and the tokens and client secret in a JSON answer. Redacting keeps every byte
// where it was (each secret byte becomes `*`), so Content-Length, chunk sizes and the inspector's
// offsets stay true. Pure: bytes in, byte ranges out.

/** [start, end) in bytes. */
export interface SecretRange {
  start: number;
  end: number;
  /** What it is: the header or field name, lower-cased (`authorization`, `code_verifier`, `access_token`, …). */
  kind: string;
}

/** Fields whose values are secrets, in a query, a form or a JSON object. */
export const SECRET_FIELDS: readonly string[] = ['access_token', 'refresh_token', 'id_token', 'code', 'code_verifier', 'client_secret', 'registration_access_token'];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie'];

const REDACTED = 0x2a; // '*'

// One character per byte (the platform's single-byte decoder), so a match's index is its byte offset.
const ONE_CHAR_PER_BYTE = new TextDecoder('latin1');

const FIELD_NAMES = SECRET_FIELDS.join('|');
// A header line: its name, an optional auth scheme, then the value up to the line's end.
const HEADER = new RegExp(`(?:^|\\n)(${SECRET_HEADERS.join('|')})[ \\t]*:[ \\t]*(?:(?:Bearer|Basic|DPoP)[ \\t]+)?([^\\r\\n]*)`, 'gi');
// name=value in a query or a form: after ?, & or the start of a line or body.
const PAIR = new RegExp(`(?:^|[?&\\n])(${FIELD_NAMES})=([^&\\s#"]*)`, 'g');
// "name": "value" in JSON (escapes inside the value kept whole).
const JSON_FIELD = new RegExp(`"(${FIELD_NAMES})"[ \\t\\r\\n]*:[ \\t\\r\\n]*"((?:[^"\\\\]|\\\\.)*)"`, 'g');

/** Every secret in the bytes (a request or response, head and body, or any part of one), in order, not overlapping. */
export function secretRanges(bytes: Uint8Array): SecretRange[] {
  const text = ONE_CHAR_PER_BYTE.decode(bytes);
  const found: SecretRange[] = [];
  for (const pattern of [HEADER, PAIR, JSON_FIELD]) {
    for (const match of text.matchAll(pattern)) {
      const value = match[2] ?? '';
      if (value === '') continue;
      const end = (match.index ?? 0) + match[0].length - (pattern === JSON_FIELD ? 1 : 0);
      found.push({ start: end - value.length, end, kind: (match[1] ?? '').toLowerCase() });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  // A form field inside a header value (a Cookie named code=…) is already covered by the header.
  return found.filter((range, index) => found.slice(0, index).every((before) => range.start >= before.end));
}

/** The same bytes with every secret byte replaced by `*`: same length, same offsets. */
export function redactSecrets(bytes: Uint8Array): Uint8Array {
  const ranges = secretRanges(bytes);
  if (ranges.length === 0) return bytes;
  const copy = bytes.slice();
  for (const { start, end } of ranges) copy.fill(REDACTED, start, end);
  return copy;
}
