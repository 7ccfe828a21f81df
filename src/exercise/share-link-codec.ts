// The bytes of a share link: deflate-raw (the browser's own CompressionStream, no library) and
// base64url (src/protocol/base64.ts), both strict. Strict matters: a link pasted through a chat app may come back cut short
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

/** FNV-1a, 32 bits, as 8 hex digits: deflate-raw has no checksum of its own. */
export function fnv1a32(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (const byte of bytes) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
