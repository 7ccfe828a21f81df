// Base64 over Uint8Array, without Buffer: the tap's lines carry bytes this way, and the byte
// inspector copies frames as base64. Pure, so the page, the workers and Node share it.

// String.fromCharCode(...bytes) overflows the call stack on large arrays; 32 KiB slices stay well
// inside every engine's argument limit.
const BASE64_SLICE = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += BASE64_SLICE) {
    binary += String.fromCharCode(...bytes.subarray(i, i + BASE64_SLICE));
  }
  return btoa(binary);
}

/** Base64url without padding (RFC 4648 §5): tokens, PKCE challenges, request state, share links. */
export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The bytes of a base64url text, or null when it is not exactly what bytesToBase64Url would write:
 * a foreign character, an impossible length, or non-zero unused bits in the last character (which
 * would let two different texts mean the same bytes). Strict, since what it reads is untrusted: a
 * link pasted through a chat app, a JWT's parts.
 */
export function base64UrlToBytes(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return bytesToBase64Url(bytes) === text ? bytes : null;
}

// The platform's own decoder where it has one: Uint8Array.fromBase64 (Chromium 140+, Node 25+),
// else Node's Buffer (the page's code run in Node: tests, the CLI, the benchmarks).
const nativeFromBase64 = (Uint8Array as unknown as { fromBase64?: (text: string) => Uint8Array }).fromBase64;
const NodeBuffer = (globalThis as { Buffer?: { from(text: string, encoding: 'base64'): Uint8Array; byteLength(text: string, encoding: 'utf8'): number } }).Buffer;

/** Decode base64; throws on text that is not base64 (callers check first). */
export function base64ToBytes(b64: string): Uint8Array {
  if (nativeFromBase64) return nativeFromBase64(b64);
  // atob then a charCodeAt loop first builds a string as long as the bytes: on a 100 MB trace that
  // was ~5× Node's own decoder. So canonical base64 (what the tap writes) goes to Buffer in Node;
  // anything else (whitespace, no padding, a bad character), and older browsers, go by atob's rules.
  return (NodeBuffer ? viaBuffer(NodeBuffer, b64) : null) ?? viaAtob(b64);
}

/**
 * Buffer skips what is not base64 instead of refusing it, reads base64url's "-" and "_" too, and
 * takes a character beyond ASCII by its low byte: so text with any of those is refused first (its
 * UTF-8 length tells), and a skipped character shows as fewer bytes than the length promises
 * (each character carries 6 bits, so one fewer always loses a byte).
 */
function viaBuffer(buffer: NonNullable<typeof NodeBuffer>, b64: string): Uint8Array | null {
  const length = b64.length;
  if (length % 4 !== 0 || b64.includes('-') || b64.includes('_') || buffer.byteLength(b64, 'utf8') !== length) return null;
  const padding = length === 0 ? 0 : b64.charCodeAt(length - 1) !== 61 ? 0 : b64.charCodeAt(length - 2) !== 61 ? 1 : 2;
  const bytes = buffer.from(b64, 'base64');
  if (bytes.length !== (length / 4) * 3 - padding) return null;
  // A plain Uint8Array over the same memory. A small Buffer is a view into Node's shared pool, like
  // the chunks Node's own streams hand out: every reader here keeps to byteOffset and byteLength.
  return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function viaAtob(b64: string): Uint8Array {
  const binary = atob(b64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
