// The bytes of a share link: deflate-raw (the browser's own CompressionStream, no library) and
// base64url, both strict. Strict matters: a link pasted through a chat app may come back cut short
// or with a character changed, and the receiver must be told, never shown someone else's half code.

/** Compresses with the platform's CompressionStream (browsers, Node ≥ 20). */
export async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export class InflateLimitError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} bytes once decompressed`);
    this.name = 'InflateLimitError';
  }
}

/**
 * Decompresses, stopping as soon as the output passes `maxBytes`: a few kilobytes of deflate can
 * expand a thousandfold, and a link is untrusted input. Truncated or garbled input rejects.
 */
export async function inflateRaw(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new InflateLimitError(maxBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode(...bytes) overflows the call stack on large arrays.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The bytes of a base64url text, or null when it is not exactly what toBase64Url would write: a
 * foreign character, an impossible length, or non-zero unused bits in the last character (which
 * would let two different texts mean the same bytes).
 */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return toBase64Url(bytes) === text ? bytes : null;
}

/** FNV-1a, 32 bits, as 8 hex digits: deflate-raw has no checksum of its own. */
export function fnv1a32(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
