// The whole flow against an in-memory resource server and authorization server (a few lines each,
// enough to answer what the flow asks); the real ones are the conformance suite's
// (tests/conformance/conformance-auth.test.ts).

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { HttpClientRequest, HttpClientResponse, HttpExchange } from '../http/types.ts';
import { authorizingExchange, type AuthorizingExchangeOptions } from './authorizing-exchange.ts';
import { basicCredentials } from './token-request.ts';

const RS = 'http://localhost:3000';
const AS = 'http://localhost:4000';
const ENDPOINT = `${RS}/mcp`;
const REDIRECT = 'http://127.0.0.1:8976/callback';

interface World {
  /** Scopes each call needs: tools/call needs more than the rest when set. */
  needs: { list: string[]; call: string[] };
  tokens: Map<string, { scope: string[]; resource: string }>;
  refreshTokens: Map<string, string[]>;
  authorizations: { scope: string | null; resource: string | null; challenge: string | null }[];
  tokenRequests: URLSearchParams[];
  tokenHeaders: Record<string, string>[];
  /** Every request that reached any server, with its Authorization header. */
  seen: { url: string; authorization?: string }[];
  alwaysForbid?: boolean;
  grantRefresh?: boolean;
  /** What the Protected Resource Metadata names (default: the endpoint itself). */
  prmResource?: string;
  /** A 403's challenge names only the scopes the token lacks, not all the call needs. */
  challengeOnlyMissing?: boolean;
}

function world(overrides: Partial<World> = {}): World {
  return { needs: { list: ['mcp:read'], call: ['mcp:read'] }, tokens: new Map(), refreshTokens: new Map(), authorizations: [], tokenRequests: [], tokenHeaders: [], seen: [], ...overrides };
}

const utf8 = new TextEncoder();
function answer(status: number, json: unknown, headers: Record<string, string> = {}): HttpClientResponse {
  const body = json === undefined ? new Uint8Array(0) : utf8.encode(JSON.stringify(json));
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: (async function* () { yield body; })(), cancel: () => {} };
}

function exchangeFor(w: World): HttpExchange {
  return async (request: HttpClientRequest) => {
    w.seen.push({ url: request.url, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
    const url = new URL(request.url);
    const route = `${request.method} ${url.origin}${url.pathname}`;
    const body = request.body ? new TextDecoder().decode(request.body) : '';
    switch (route) {
      case `POST ${ENDPOINT}`: {
        const method = (JSON.parse(body) as { method: string }).method;
        const needed = method === 'tools/call' ? w.needs.call : w.needs.list;
        const challenge = (extra = '') => `Bearer resource_metadata="${RS}/.well-known/oauth-protected-resource/mcp", scope="${needed.join(' ')}"${extra}`;
        const token = w.tokens.get(request.headers.authorization?.replace(/^Bearer /, '') ?? '');
        if (!token || token.resource !== ENDPOINT) return answer(401, { error: 'invalid_token' }, { 'www-authenticate': challenge() });
        const missing = needed.filter((scope) => !token.scope.includes(scope));
        if (w.alwaysForbid || missing.length > 0) {
          const named = w.challengeOnlyMissing ? `Bearer scope="${missing.join(' ')}", error="insufficient_scope"` : challenge(', error="insufficient_scope"');
          return answer(403, { error: 'insufficient_scope' }, { 'www-authenticate': named });
        }
        return answer(200, { jsonrpc: '2.0', id: 1, result: { ok: method } });
      }
      case `GET ${RS}/.well-known/oauth-protected-resource/mcp`:
        return answer(200, { resource: w.prmResource ?? ENDPOINT, authorization_servers: [AS], scopes_supported: ['mcp:read', 'mcp:write'] });
      case `GET ${AS}/.well-known/oauth-authorization-server`:
        return answer(200, {
          issuer: AS,
          authorization_endpoint: `${AS}/authorize`,
          token_endpoint: `${AS}/token`,
          registration_endpoint: `${AS}/register`,
          code_challenge_methods_supported: ['S256'],
          token_endpoint_auth_methods_supported: ['none'],
          authorization_response_iss_parameter_supported: true,
        });
      case `POST ${AS}/register`:
        return answer(201, { client_id: 'client-1', token_endpoint_auth_method: 'none' });
      case `POST ${AS}/token`: {
        const form = new URLSearchParams(body);
        w.tokenRequests.push(form);
        w.tokenHeaders.push(request.headers);
        const issue = (scope: string[]) => {
          const accessToken = `t${w.tokens.size + 1}`;
          w.tokens.set(accessToken, { scope, resource: form.get('resource') ?? '' });
          const refreshToken = w.grantRefresh ? `r${w.tokens.size}` : undefined;
          if (refreshToken) w.refreshTokens.set(refreshToken, scope);
          return answer(200, { access_token: accessToken, token_type: 'Bearer', expires_in: 60, scope: scope.join(' '), ...(refreshToken ? { refresh_token: refreshToken } : {}) });
        };
        if (form.get('grant_type') === 'refresh_token') {
          const scope = w.refreshTokens.get(form.get('refresh_token') ?? '');
          return scope ? issue(scope) : answer(400, { error: 'invalid_grant' });
        }
        const code = JSON.parse(form.get('code') ?? '{}') as { challenge: string; scope: string[] };
        const computed = createHash('sha256').update(form.get('code_verifier') ?? '').digest('base64url');
        if (computed !== code.challenge) return answer(400, { error: 'invalid_grant', error_description: 'PKCE' });
        return issue(code.scope);
      }
      default:
        return answer(404, undefined);
    }
  };
}

/** The authorization server's front channel: approve at once, as a person who clicks "Allow" would. */
function approve(w: World): (url: string) => Promise<string> {
  return async (url) => {
    const query = new URL(url).searchParams;
    w.authorizations.push({ scope: query.get('scope'), resource: query.get('resource'), challenge: query.get('code_challenge') });
    const back = new URL(query.get('redirect_uri')!);
    back.searchParams.set('code', JSON.stringify({ challenge: query.get('code_challenge'), scope: query.get('scope')?.split(' ') ?? [] }));
    back.searchParams.set('state', query.get('state')!);
    back.searchParams.set('iss', AS);
    return back.href;
  };
}

function client(w: World, extra: Partial<AuthorizingExchangeOptions> = {}) {
  return authorizingExchange({ exchange: exchangeFor(w), endpoint: ENDPOINT, redirectUri: REDIRECT, redirect: approve(w), identity: { clientName: 'test', wantsRefresh: false }, ...extra });
}

const call = (exchange: HttpExchange, method: string, url = ENDPOINT) =>
  exchange({ method: 'POST', url, headers: { 'content-type': 'application/json' }, body: utf8.encode(JSON.stringify({ jsonrpc: '2.0', id: 1, method })) });

describe('authorizingExchange', () => {
  it('meets a 401 with the flow and sends the request again with the token', async () => {
    const w = world();
    const exchange = client(w);
    const response = await call(exchange, 'tools/list');
    expect(response.status).toBe(200);
    expect(w.authorizations).toEqual([{ scope: 'mcp:read', resource: ENDPOINT, challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) }]);
    const [token] = w.tokenRequests;
    expect(Object.fromEntries(token!)).toMatchObject({ grant_type: 'authorization_code', client_id: 'client-1', redirect_uri: REDIRECT, resource: ENDPOINT });
    expect(exchange.current()?.tokens.accessToken).toBe('t1');
    // The next request carries the token at once: no second flow.
    expect((await call(exchange, 'tools/list')).status).toBe(200);
    expect(w.authorizations).toHaveLength(1);
  });

  it('steps up on 403 insufficient_scope, asking for the scopes held and the ones asked', async () => {
    const w = world({ needs: { list: ['mcp:read'], call: ['mcp:read', 'mcp:write'] } });
    const exchange = client(w);
    expect((await call(exchange, 'tools/list')).status).toBe(200);
    expect((await call(exchange, 'tools/call')).status).toBe(200);
    expect(w.authorizations.map((a) => a.scope)).toEqual(['mcp:read', 'mcp:read mcp:write']);
  });

  it('keeps the scopes it held when a step-up challenge names only the missing one', async () => {
    const w = world({ needs: { list: ['mcp:read'], call: ['mcp:read', 'mcp:write'] }, challengeOnlyMissing: true });
    const exchange = client(w);
    expect((await call(exchange, 'tools/list')).status).toBe(200);
    expect((await call(exchange, 'tools/call')).status).toBe(200);
    expect((await call(exchange, 'tools/list')).status).toBe(200);
    expect(w.authorizations.map((a) => a.scope)).toEqual(['mcp:read', 'mcp:read mcp:write']);
  });

  it('starts at most maxAuthorizations flows for one request, then hands the 403 back', async () => {
    const w = world({ alwaysForbid: true });
    const response = await call(client(w), 'tools/list');
    expect(response.status).toBe(403);
    expect(w.authorizations).toHaveLength(2);
    const w3 = world({ alwaysForbid: true });
    expect((await call(client(w3, { maxAuthorizations: 3 }), 'tools/list')).status).toBe(403);
    expect(w3.authorizations).toHaveLength(3);
  });

  it('runs one flow for requests that meet the same 401 together', async () => {
    const w = world();
    const exchange = client(w);
    const statuses = await Promise.all([call(exchange, 'tools/list'), call(exchange, 'tools/list'), call(exchange, 'tools/list')]);
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(w.authorizations).toHaveLength(1);
  });

  it('uses the refresh token on a 401 before sending the person to sign in again', async () => {
    const w = world({ grantRefresh: true });
    const exchange = client(w);
    await call(exchange, 'tools/list');
    w.tokens.delete('t1'); // the access token expired
    expect((await call(exchange, 'tools/list')).status).toBe(200);
    expect(w.authorizations).toHaveLength(1);
    expect(w.tokenRequests.map((form) => form.get('grant_type'))).toEqual(['authorization_code', 'refresh_token']);
    expect(w.tokenRequests[1]!.get('resource')).toBe(ENDPOINT);
  });

  it('never sends the token to another server', async () => {
    const w = world();
    const exchange = client(w);
    await call(exchange, 'tools/list');
    await call(exchange, 'tools/list', 'http://localhost:9999/mcp');
    await call(exchange, 'tools/list', `${RS}/other`);
    const elsewhere = w.seen.filter((request) => !request.url.startsWith(ENDPOINT));
    expect(elsewhere.length).toBeGreaterThan(0);
    for (const request of elsewhere) expect(request.authorization ?? '', request.url).not.toMatch(/^Bearer/);
  });

  it('refuses metadata that names another resource, before any authorization request', async () => {
    const w = world({ prmResource: 'https://evil.example.com/mcp' });
    const exchange = client(w);
    await expect(call(exchange, 'tools/list')).rejects.toThrow(/^resource-metadata: .* names the resource https:\/\/evil\.example\.com\/mcp, not http:\/\/localhost:3000\/mcp: refused/);
    expect(exchange.current()).toBeNull();
    expect(w.authorizations).toHaveLength(0);
    expect(w.tokenRequests).toHaveLength(0);
  });
});

describe('basicCredentials (RFC 6749 §2.3.1)', () => {
  it('form-encodes each part before joining them with ":"', () => {
    expect(basicCredentials('a b', 'x:y/é')).toBe(`Basic ${Buffer.from('a+b:x%3Ay%2F%C3%A9').toString('base64')}`);
  });
});
