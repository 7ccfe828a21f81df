import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64 } from './base64.ts';

// The decoder before the table: atob's rules, which every caller relied on.
function viaAtob(b64: string): Uint8Array {
  const binary = atob(b64);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function outcome(decode: (b64: string) => Uint8Array, b64: string): Uint8Array | 'throws' {
  try {
    return decode(b64);
  } catch {
    return 'throws';
  }
}

describe('base64', () => {
  it('round-trips any bytes, as Node encodes them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const b64 = Buffer.from(bytes).toString('base64');
        expect(bytesToBase64(bytes)).toBe(b64);
        expect(base64ToBytes(b64)).toEqual(new Uint8Array(bytes));
      }),
    );
  });

  it('decodes or refuses any text exactly as atob does (padding, whitespace, stray characters, non-Latin-1)', () => {
    const alphabet = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/', '=', ' ', '\n', '-', '_', 'é', '你', '\u0141');
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(outcome(base64ToBytes, text)).toEqual(outcome(viaAtob, text));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a character outside the alphabet even in a whole group, and "=" before the end', () => {
    for (const bad of ['QUJD-A==', 'QU=DQQ==', 'QUJ你', 'Q\u0141JD']) expect(() => base64ToBytes(bad)).toThrow();
    expect(base64ToBytes('QUJD')).toEqual(new TextEncoder().encode('ABC'));
    expect(base64ToBytes('QUI=')).toEqual(new TextEncoder().encode('AB'));
    expect(base64ToBytes('QQ==')).toEqual(new TextEncoder().encode('A'));
    expect(base64ToBytes('')).toEqual(new Uint8Array(0));
  });
});
