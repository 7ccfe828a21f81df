// `crypto.subtle.digest` where the platform leaves it out. WebCrypto's SubtleCrypto exists only in
// secure contexts, and learner code runs in workers of an opaque-origin sandbox frame, which
// Chromium does not count as one; a workshop page on plain http:// over a LAN is not one either.
// The lessons say "crypto.subtle.digest, the same in browsers, workers and Node" (PKCE's S256), so
// where it is missing this puts back that one method, backed by @noble/hashes (audited, no
// dependencies). Where the platform has it, nothing changes.

import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha384, sha512 } from '@noble/hashes/sha2.js';

const HASHES: Record<string, (data: Uint8Array) => Uint8Array> = { 'SHA-1': sha1, 'SHA-256': sha256, 'SHA-384': sha384, 'SHA-512': sha512 };

type Algorithm = string | { name: string };
type Data = ArrayBuffer | ArrayBufferView;

/** SubtleCrypto.digest as the platform defines it: a promise of an ArrayBuffer, a rejection for an unknown name. */
export function digest(algorithm: Algorithm, data: Data): Promise<ArrayBuffer> {
  const name = (typeof algorithm === 'string' ? algorithm : algorithm.name).toUpperCase();
  const hash = HASHES[name];
  if (hash === undefined) return Promise.reject(new DOMException(`Unrecognized name: ${name}`, 'NotSupportedError'));
  const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  const out = hash(bytes);
  return Promise.resolve(out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer);
}

/** Give `globalThis.crypto` a `subtle.digest` when it has none; true when one was added. */
export function provideDigest(scope: { crypto?: Crypto } = globalThis): boolean {
  const crypto = scope.crypto;
  if (crypto === undefined || typeof crypto.subtle?.digest === 'function') return false;
  Object.defineProperty(crypto, 'subtle', { value: Object.freeze({ digest }), configurable: true });
  return true;
}
