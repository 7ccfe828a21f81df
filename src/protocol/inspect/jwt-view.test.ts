import fc from 'fast-check';
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { accessTokenFacts, readJwt } from './jwt-view.ts';

const RESOURCE = 'http://127.0.0.1:8080/mcp';
const ISSUER = 'http://127.0.0.1:9000';
const { privateKey } = await generateKeyPair('ES256');

const sign = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: 'k' }).sign(privateKey);

describe('readJwt', () => {
  it('reads what jose reads, for any claims a signed token carries', async () => {
    const claim = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.array(fc.string(), { maxLength: 3 }));
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), claim, { maxKeys: 6 }), async (claims) => {
        const token = await sign(claims);
        expect(readJwt(token)).toEqual({ ok: true, header: decodeProtectedHeader(token), claims: decodeJwt(token) });
      }),
      { numRuns: 50 },
    );
  });

  it('says why what it was given is not a JWT', async () => {
    expect(readJwt('abc')).toEqual({ ok: false, problem: 'not-three-parts' });
    expect(readJwt('a+b.c.d')).toEqual({ ok: false, problem: 'not-base64url' });
    expect(readJwt('bm90IGpzb24.e30.sig')).toEqual({ ok: false, problem: 'not-json-objects' });
    expect(readJwt('WzFd.e30.sig')).toEqual({ ok: false, problem: 'not-json-objects' });
  });
});

describe('accessTokenFacts', () => {
  const expected = { resource: RESOURCE, issuer: ISSUER, now: 1_000, scopes: ['tools:read'] };

  it('finds nothing wrong with a token for this server, from its issuer, not expired, with the scope', () => {
    const facts = accessTokenFacts({ aud: RESOURCE, iss: ISSUER, exp: 1_001, scope: 'tools:read tools:write' }, expected);
    expect(facts.map((fact) => [fact.claim, fact.verdict])).toEqual([
      ['aud', 'ok'],
      ['iss', 'ok'],
      ['exp', 'ok'],
      ['scope', 'ok'],
    ]);
  });

  it('names each problem the resource server refuses a token for', () => {
    const facts = accessTokenFacts({ aud: ['http://127.0.0.1:8081/mcp'], iss: 'http://evil.example', exp: 1_000, scope: 'tools:write' }, expected);
    expect(facts.map((fact) => fact.verdict)).toEqual(['another-audience', 'another-issuer', 'expired', 'lacks-scope']);
    expect(accessTokenFacts({}, expected).map((fact) => fact.verdict)).toEqual(['missing', 'missing', 'missing', 'missing']);
    expect(accessTokenFacts({ aud: [RESOURCE, 'other'] }, expected)[0]!.verdict).toBe('ok');
  });
});
