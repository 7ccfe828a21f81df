// The resource server's token check against real signed JWTs and a real JWKS endpoint on loopback:
// the one it should take, and each way a token can be wrong (MCP's audience rule among them).

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jwtAccessTokenVerifier } from './jwt-access-token.ts';

const ISSUER = 'http://127.0.0.1:9000';
const AUDIENCE = 'http://127.0.0.1:8080/mcp';

let server: Server;
let jwksUri = '';
let signingKey: CryptoKey;
let strangerKey: CryptoKey;

beforeAll(async () => {
  ({ privateKey: signingKey } = await generateKeyPair('ES256', { extractable: true }));
  ({ privateKey: strangerKey } = await generateKeyPair('ES256', { extractable: true }));
  const { d: _private, ...publicJwk } = await exportJWK(signingKey);
  const jwks = JSON.stringify({ keys: [{ ...publicJwk, kid: 'k1', alg: 'ES256', use: 'sig' }] });
  server = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(jwks);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  jwksUri = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function token(claims: JWTPayload, options: { key?: CryptoKey; typ?: string; expiresIn?: string | number } = {}): Promise<string> {
  return new SignJWT({ iss: ISSUER, aud: AUDIENCE, sub: 'learner', scope: 'tools:read tools:write', client_id: 'client-1', ...claims })
    .setProtectedHeader({ alg: 'ES256', kid: 'k1', typ: options.typ ?? 'at+jwt' })
    .setIssuedAt()
    .setExpirationTime(options.expiresIn ?? '5m')
    .sign(options.key ?? signingKey);
}

describe('jwtAccessTokenVerifier', () => {
  const verify = () => jwtAccessTokenVerifier({ issuer: ISSUER, jwksUri, audience: AUDIENCE });

  it('takes a token its authorization server signed for this resource, with its scopes', async () => {
    expect(await verify()(await token({}))).toEqual({ ok: true, token: { scopes: ['tools:read', 'tools:write'], subject: 'learner', clientId: 'client-1' } });
  });

  it.each([
    ['a token for another server', { aud: 'http://127.0.0.1:8081/mcp' }, {}, 'the token is for another resource (aud)'],
    ['a token from another issuer', { iss: 'http://127.0.0.1:9999' }, {}, 'the token was issued by another authorization server (iss)'],
    ['an expired token', {}, { expiresIn: Math.floor(Date.now() / 1000) - 3600 }, 'the token has expired (exp)'],
    ['a token signed by another key', {}, { key: 'stranger' }, 'the token signature does not verify'],
    ['an ID token (typ JWT) used as an access token', {}, { typ: 'JWT' }, "the token's typ claim is not valid"],
  ] as const)('refuses %s', async (_what, claims, options, description) => {
    const signed = await token(claims, { ...options, key: 'key' in options ? strangerKey : undefined });
    expect(await verify()(signed)).toEqual({ ok: false, description });
  });

  it('refuses what is not a JWT at all', async () => {
    expect(await verify()('not-a-jwt')).toMatchObject({ ok: false, description: expect.stringMatching(/not a valid JWT/) });
  });
});
