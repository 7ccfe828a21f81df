import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { HttpHandler } from '../http/server-handler.ts';
import type { HttpRequest, HttpResponse } from '../http/types.ts';
import { bearerToken, protectedResourceMetadataUrl, protectResource, type TokenCheck } from './protected-resource.ts';
import { READ_SCOPE, scopesForToolCall, TOOL_SCOPES, WRITE_SCOPE } from './tool-scopes.ts';
import { bearerChallenge } from './www-authenticate.ts';

const RESOURCE = 'http://127.0.0.1:8080/mcp';
const ISSUER = 'http://127.0.0.1:9000';

/** An inner handler that answers 200 and remembers what it was handed. */
function recordingInner(): HttpHandler & { seen: HttpRequest[] } {
  const seen: HttpRequest[] = [];
  return {
    seen,
    sessionCount: 0,
    closeAll: () => {},
    handle: async (request) => {
      seen.push(request);
      return { status: 200, headers: {}, body: { type: 'none' } };
    },
  };
}

/** The tokens the fake verifier takes, with their scopes; any other is refused. */
const TOKENS: Record<string, string[]> = { none: [], read: ['tools:read'], readOther: ['tools:read', 'other'], readWrite: ['tools:read', 'tools:write'], s3cr3t: ['tools:read'] };
const verify = async (token: string): Promise<TokenCheck> =>
  token in TOKENS ? { ok: true, token: { scopes: TOKENS[token]!, clientId: 'c' } } : { ok: false, description: 'the token is for another resource (aud)' };

function setup() {
  const inner = recordingInner();
  const lines: string[] = [];
  const handler = protectResource(inner, {
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    scopesSupported: TOOL_SCOPES,
    requiredScopes: [READ_SCOPE],
    scopesFor: scopesForToolCall([{ name: 'delete_file', annotations: { destructiveHint: true } }, { name: 'echo' }]),
    verify,
    log: (line) => lines.push(line),
  });
  return { inner, handler, lines };
}

const call = (tool: string) => new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool, arguments: {} } }));
const post = (headers: Record<string, string>, body = call('echo')): HttpRequest => ({ method: 'POST', path: '/mcp', headers: { host: '127.0.0.1:8080', ...headers }, body });
const text = (response: HttpResponse) => (response.body.type === 'bytes' ? new TextDecoder().decode(response.body.bytes) : '');

describe('protectResource', () => {
  it('serves its Protected Resource Metadata at the well-known path with the resource path appended (RFC 9728 §3.1)', async () => {
    const { handler } = setup();
    expect(handler.metadataUrl).toBe('http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp');
    const response = await handler.handle({ method: 'GET', path: '/.well-known/oauth-protected-resource/mcp', headers: { host: '127.0.0.1:8080' } });
    expect(response.status).toBe(200);
    expect(JSON.parse(text(response))).toEqual({ resource: RESOURCE, authorization_servers: [ISSUER], scopes_supported: ['tools:read', 'tools:write'], bearer_methods_supported: ['header'] });
    expect((await handler.handle({ method: 'GET', path: '/.well-known/oauth-protected-resource/mcp', headers: { host: 'evil.example' } })).status).toBe(403);
    expect((await handler.handle({ method: 'POST', path: '/.well-known/oauth-protected-resource/mcp', headers: { host: '127.0.0.1:8080' } })).status).toBe(405);
  });

  it('answers no token with 401 and a challenge naming the metadata and the scope every request needs', async () => {
    const { handler, inner } = setup();
    for (const authorization of [undefined, 'Basic dTpw', 'Bearer', 'Bearer a b']) {
      const response = await handler.handle(post(authorization === undefined ? {} : { authorization }));
      expect(response.status).toBe(401);
      expect(bearerChallenge(response.headers['www-authenticate']!)).toEqual({ resourceMetadata: handler.metadataUrl, scopes: [READ_SCOPE] });
    }
    expect(inner.seen).toEqual([]);
  });

  it('answers a refused token with 401 invalid_token and why', async () => {
    const { handler, inner } = setup();
    const response = await handler.handle(post({ authorization: 'Bearer other' }));
    expect(response.status).toBe(401);
    expect(bearerChallenge(response.headers['www-authenticate']!)).toMatchObject({ error: 'invalid_token', errorDescription: 'the token is for another resource (aud)' });
    expect(inner.seen).toEqual([]);
  });

  it('answers a token without the scope a request needs with 403 insufficient_scope, asking for what it has and what it lacks', async () => {
    const { handler, inner } = setup();
    const noScope = await handler.handle(post({ authorization: 'Bearer none' }));
    expect(noScope.status).toBe(403);
    const destructive = await handler.handle(post({ authorization: 'Bearer readOther' }, call('delete_file')));
    expect(destructive.status).toBe(403);
    expect(bearerChallenge(destructive.headers['www-authenticate']!)).toMatchObject({ error: 'insufficient_scope', scopes: ['tools:read', 'other', WRITE_SCOPE], resourceMetadata: handler.metadataUrl });
    expect(inner.seen).toEqual([]);
    expect((await handler.handle(post({ authorization: 'Bearer readWrite' }, call('delete_file')))).status).toBe(200);
  });

  it('hands the inner server the request without the token, every other header kept', async () => {
    const { handler, inner, lines } = setup();
    const response = await handler.handle(post({ AUTHORIZATION: 'bearer s3cr3t', 'mcp-session-id': 's1' }));
    expect(response.status).toBe(200);
    expect(inner.seen).toHaveLength(1);
    expect(inner.seen[0]!.headers).toEqual({ host: '127.0.0.1:8080', 'mcp-session-id': 's1' });
    expect(lines.join('\n')).not.toContain('s3cr3t');
  });

  it('passes any other path to the inner handler untouched', async () => {
    const { handler, inner } = setup();
    const request: HttpRequest = { method: 'GET', path: '/other', headers: { host: '127.0.0.1:8080' } };
    await handler.handle(request);
    expect(inner.seen).toEqual([request]);
  });
});

describe('protectedResourceMetadataUrl', () => {
  it('puts the well-known prefix between host and path, and adds nothing for a root resource', () => {
    expect(protectedResourceMetadataUrl('https://a.example/tenant/mcp')).toBe('https://a.example/.well-known/oauth-protected-resource/tenant/mcp');
    expect(protectedResourceMetadataUrl('https://a.example/')).toBe('https://a.example/.well-known/oauth-protected-resource');
  });
});

describe('bearerToken', () => {
  it('reads any token68 after the scheme in any case, and nothing else', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9\-._~+/]+=*$/), fc.constantFrom('Bearer', 'bearer', 'BEARER'), (token, scheme) => {
        expect(bearerToken(`${scheme} ${token}`)).toBe(token);
        expect(bearerToken(`${scheme} ${token} extra`)).toBeNull();
        expect(bearerToken(`Basic ${token}`)).toBeNull();
      }),
    );
  });
});
