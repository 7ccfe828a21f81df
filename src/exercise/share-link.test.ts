import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deflateRaw } from './share-link-codec.ts';
import { base64UrlToBytes, bytesToBase64Url } from '../protocol/base64.ts';
import { decodeShareHash, encodeShareHash, isShareHash, MAX_SHARE_HASH_CHARS, SHARE_HASH_PREFIX, shareUrl } from './share-link.ts';

async function encode(exerciseId: string, code: string): Promise<string> {
  const outcome = await encodeShareHash({ exerciseId, code });
  if (!outcome.ok) throw new Error(`encode refused: ${JSON.stringify(outcome.problem)}`);
  return outcome.hash;
}

/** Code as learners write it, including non-ASCII comments, emoji (surrogate pairs) and CRLF. */
const codeArbitrary = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 400 }), fc.string({ unit: 'binary', maxLength: 400 }), fc.constantFrom('', '// 你好，世界 🌏\r\nexport const x = 1;\n', '\u0000\uffff'));

describe('share links', () => {
  it('round-trips any code, Unicode included, through a hash that is only URL-safe characters', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('01-jsonrpc', '03-client'), codeArbitrary, async (exerciseId, code) => {
        const hash = await encode(exerciseId, code);
        expect(hash.startsWith(SHARE_HASH_PREFIX)).toBe(true);
        expect(hash.slice(1)).toMatch(/^share=1\.[0-9a-f]{8}\.[A-Za-z0-9_-]+$/);
        expect(await decodeShareHash(hash)).toEqual({ ok: true, shared: { exerciseId, code } });
      }),
      { numRuns: 150 },
    );
  });

  it('compresses: a real-sized exercise file makes a link far shorter than the code', async () => {
    const code = `${'export function encodeRequest(id: number, method: string, params?: unknown) {\n  return JSON.stringify({ jsonrpc: "2.0", id, method, params });\n}\n'.repeat(40)}`;
    const hash = await encode('01-jsonrpc', code);
    expect(hash.length).toBeLessThan(code.length / 5);
  });

  it('refuses every link cut short', async () => {
    await fc.assert(
      fc.asyncProperty(codeArbitrary, fc.nat(), async (code, cut) => {
        const hash = await encode('02-frames', code);
        const prefix = hash.slice(0, cut % hash.length); // strictly shorter
        const outcome = await decodeShareHash(prefix);
        expect(outcome.ok).toBe(false);
      }),
      { numRuns: 150 },
    );
  });

  it('never opens different code from a changed character: it is refused (or, rarely, means the same bytes)', async () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.%';
    await fc.assert(
      fc.asyncProperty(codeArbitrary, fc.nat(), fc.constantFrom(...alphabet), async (code, at, replacement) => {
        const hash = await encode('02-frames', code);
        // Past the version digit: changing that one is a different (newer or unknown) version.
        const start = SHARE_HASH_PREFIX.length + 2;
        const index = start + (at % (hash.length - start));
        fc.pre(hash[index] !== replacement);
        const garbled = hash.slice(0, index) + replacement + hash.slice(index + 1);
        const outcome = await decodeShareHash(garbled);
        if (outcome.ok) expect(outcome.shared).toEqual({ exerciseId: '02-frames', code });
        else expect(outcome.problem.reason).toBe('damaged');
      }),
      { numRuns: 300 },
    );
  });

  it('names each refusal: damaged, newer version, too large', async () => {
    expect(await decodeShareHash('#share=')).toMatchObject({ ok: false, problem: { reason: 'damaged' } });
    expect(await decodeShareHash('#share=1.00000000.')).toMatchObject({ ok: false, problem: { reason: 'damaged' } });
    expect(await decodeShareHash('#share=1.00000000.!!!')).toMatchObject({ ok: false, problem: { reason: 'damaged', detail: 'not base64url' } });
    expect(await decodeShareHash('#share=1.00000000.AAAA')).toMatchObject({ ok: false, problem: { reason: 'damaged' } });
    expect(await decodeShareHash('#share=2.00000000.AAAA')).toEqual({ ok: false, problem: { reason: 'newer-version', version: '2' } });
    expect(await decodeShareHash(`#share=1.00000000.${'A'.repeat(MAX_SHARE_HASH_CHARS)}`)).toMatchObject({ ok: false, problem: { reason: 'too-large' } });

    // Valid compression of the wrong content: the checksum, then the shape, catch it.
    const hash = await encode('01-jsonrpc', 'x');
    const [, , data] = hash.split('.');
    expect(await decodeShareHash(`#share=1.12345678.${data}`)).toEqual({ ok: false, problem: { reason: 'damaged', detail: 'checksum does not match' } });
    const notOurs = new TextEncoder().encode('{"exercise":1}');
    const { fnv1a32 } = await import('./share-link-codec.ts');
    expect(await decodeShareHash(`#share=1.${fnv1a32(notOurs)}.${bytesToBase64Url(await deflateRaw(notOurs))}`)).toEqual({ ok: false, problem: { reason: 'damaged', detail: 'exercise or code missing' } });
  });

  it('refuses a decompression bomb without expanding it all', async () => {
    const huge = new TextEncoder().encode(JSON.stringify({ exercise: 'a', code: ' '.repeat(2_000_000) }));
    const { fnv1a32 } = await import('./share-link-codec.ts');
    const data = bytesToBase64Url(await deflateRaw(huge));
    expect(data.length).toBeLessThan(MAX_SHARE_HASH_CHARS);
    expect(await decodeShareHash(`#share=1.${fnv1a32(huge)}.${data}`)).toMatchObject({ ok: false, problem: { reason: 'too-large' } });
  });

  it('caps what it encodes, and says by how much', async () => {
    // Random text does not compress: a few kilobytes of it overflow the cap.
    let seed = 12345;
    const random = Array.from({ length: 20_000 }, () => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return String.fromCharCode(33 + (seed >>> 16) % 90);
    }).join('');
    const outcome = await encodeShareHash({ exerciseId: '01-jsonrpc', code: random });
    expect(outcome).toMatchObject({ ok: false, problem: { reason: 'too-large', limit: MAX_SHARE_HASH_CHARS } });
    if (!outcome.ok && outcome.problem.reason === 'too-large') expect(outcome.problem.size).toBeGreaterThan(MAX_SHARE_HASH_CHARS);
  });

  it('builds the URL without the query or another hash, and recognises share hashes only', () => {
    expect(shareUrl({ origin: 'http://127.0.0.1:5173', pathname: '/' }, '#share=1.x.y')).toBe('http://127.0.0.1:5173/#share=1.x.y');
    expect(isShareHash('#share=1')).toBe(true);
    expect(isShareHash('#protocol/step/2')).toBe(false);
    expect(isShareHash('#workspace')).toBe(false);
  });
});

describe('strict base64url', () => {
  it('round-trips any bytes and refuses every other spelling of them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const text = bytesToBase64Url(bytes);
        expect(base64UrlToBytes(text)).toEqual(bytes);
        expect(base64UrlToBytes(`${text}=`)).toBeNull();
        if (text.includes('-')) expect(base64UrlToBytes(text.replace(/-/g, '+'))).toBeNull();
      }),
    );
    expect(base64UrlToBytes('QQ')).toEqual(new Uint8Array([65]));
    expect(base64UrlToBytes('QR')).toBeNull(); // same byte, stray low bits
    expect(base64UrlToBytes('Q')).toBeNull();
  });
});
