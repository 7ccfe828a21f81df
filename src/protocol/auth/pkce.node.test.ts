import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeChallengeS256, createCodeVerifier, isCodeVerifier } from './pkce.ts';

describe('PKCE S256', () => {
  it("gives RFC 7636 Appendix B's challenge for its verifier", async () => {
    await expect(codeChallengeS256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).resolves.toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it("equals Node's own SHA-256 in base64url for any verifier", async () => {
    const verifier = fc.stringMatching(/^[A-Za-z0-9\-._~]{43,128}$/);
    await fc.assert(
      fc.asyncProperty(verifier, async (text) => {
        expect(await codeChallengeS256(text)).toBe(createHash('sha256').update(text).digest('base64url'));
      }),
    );
  });

  it('makes 43-character verifiers from 32 random bytes, each one new', () => {
    const made = new Set(Array.from({ length: 50 }, () => createCodeVerifier()));
    expect(made.size).toBe(50);
    for (const text of made) expect([text.length, isCodeVerifier(text)]).toEqual([43, true]);
    expect(createCodeVerifier(() => new Uint8Array(32).fill(0xff))).toBe('_'.repeat(42) + '8');
  });

  it('refuses what is not a verifier: too short, too long, or another character', async () => {
    for (const text of ['a'.repeat(42), 'a'.repeat(129), `${'a'.repeat(42)}+`]) {
      expect(isCodeVerifier(text)).toBe(false);
      await expect(codeChallengeS256(text)).rejects.toThrow(RangeError);
    }
  });
});
