import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digest, provideDigest } from './webcrypto-digest.ts';

describe('crypto.subtle.digest where the platform leaves it out', () => {
  it("gives the same bytes as Node's own hashes and WebCrypto, for any data and view", async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 300 }), fc.constantFrom('SHA-1', 'SHA-256', 'sha-384', 'SHA-512'), fc.nat(4), async (bytes, name, skip) => {
        const view = new Uint8Array(bytes.length + skip);
        view.set(bytes, skip);
        const given = new Uint8Array(await digest(name, view.subarray(skip)));
        expect(Buffer.from(given).toString('hex')).toBe(createHash(name.toLowerCase().replace('-', '')).update(bytes).digest('hex'));
        expect(given).toEqual(new Uint8Array(await globalThis.crypto.subtle.digest(name.toUpperCase(), bytes)));
      }),
    );
  });

  it("RFC 7636 Appendix B's challenge comes out of it, and an unknown algorithm is refused as WebCrypto refuses it", async () => {
    const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
    const hash = new Uint8Array(await digest({ name: 'SHA-256' }, new TextEncoder().encode(verifier)));
    expect(Buffer.from(hash).toString('base64url')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
    await expect(digest('MD5', new Uint8Array())).rejects.toMatchObject({ name: 'NotSupportedError' });
  });

  it('is added only to a crypto without subtle', async () => {
    const bare = { crypto: { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) } as unknown as Crypto };
    expect(provideDigest(bare)).toBe(true);
    expect(new Uint8Array(await bare.crypto.subtle.digest('SHA-256', new Uint8Array([97])))).toEqual(new Uint8Array(createHash('sha256').update('a').digest()));
    const native = { crypto: globalThis.crypto };
    expect(provideDigest(native)).toBe(false);
    expect(provideDigest({})).toBe(false);
  });
});
