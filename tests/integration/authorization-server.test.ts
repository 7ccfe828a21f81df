// MCP authorization end to end, every part real: `npm run auth-server` (oidc-provider), `npm run
// mcp-http -- --auth=ISSUER` (the protected echo server) and `npm run mcp-client -- URL` (the
// project's client), three Node processes over real HTTP; a fetch with a cookie jar plays the
// person's browser at the consent page.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { consentInBrowser } from '../support/consenting-browser.ts';
import { killAllPrograms, RunningProgram } from './child-transport.ts';

afterAll(() => killAllPrograms());

const tsx = (program: string, args: string[]) => new RunningProgram(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'server', program), ...args]);

async function firstLine(program: RunningProgram, what: string): Promise<string> {
  await program.waitFor(() => program.stdout.toString().includes('\n'), what, 60_000);
  return program.stdout.toString().split('\n')[0]!;
}

let issuer = '';
let endpoint = '';

beforeAll(async () => {
  const authServer = tsx('auth-server.ts', []);
  issuer = await firstLine(authServer, 'the authorization server to print its issuer');
  const mcp = tsx('mcp-http.ts', [`--auth=${issuer}`]);
  endpoint = await firstLine(mcp, 'the protected server to print its URL');
}, 120_000);

describe('the protected resource', () => {
  it('answers a request without a token with 401 and a challenge naming its metadata and scope', async () => {
    const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(challenge)![1]!;
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain('scope="tools:read"');
    expect(new URL(metadataUrl).pathname).toBe('/.well-known/oauth-protected-resource/mcp');
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: endpoint, authorization_servers: [issuer], scopes_supported: ['tools:read', 'tools:write'] });
  });

  it('refuses a token that is not one its authorization server signed for it', async () => {
    const response = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer not.a.jwt' }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });
});

describe('the authorization server', () => {
  it('publishes metadata MCP can use: PKCE S256 only, iss in responses, registration, metadata documents', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const metadata = (await (await fetch(`${issuer}${path}`)).json()) as Record<string, unknown>;
      expect(metadata).toMatchObject({
        issuer,
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
        registration_endpoint: `${issuer}/reg`,
      });
    }
  });

  it('refuses an authorization request without PKCE', async () => {
    const client = await register(['http://127.0.0.1:1/callback']);
    const url = new URL(`${issuer}/auth`);
    url.search = new URLSearchParams({ response_type: 'code', client_id: client, redirect_uri: 'http://127.0.0.1:1/callback', scope: 'tools:read', resource: endpoint, state: 's' }).toString();
    const response = await fetch(url, { redirect: 'manual' });
    const back = new URL(response.headers.get('location')!);
    expect(back.searchParams.get('error')).toBe('invalid_request');
    expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('answers a Host that is not its own with 403 (DNS rebinding)', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${issuer}/.well-known/openid-configuration`);
      request({ host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'evil.example' } }, (response) => {
        response.resume();
        resolve(response.statusCode!);
      })
        .on('error', reject)
        .end();
    });
    expect(status).toBe(403);
  });
});

it('mcp-client signs in at the consent page, gets a token for this server, steps up for the destructive tool, and never shows the server the token', async () => {
  const client = tsx('mcp-client.ts', [endpoint]);
  const signInPattern = /open this URL in your browser[^\n]*\n(\S+)/g;
  const signIns: string[] = [];
  // Each sign-in the client asks for: the first (tools:read) and the step-up (tools:write too).
  for (let seen = 0; seen < 2; seen++) {
    await client.waitFor(() => [...client.stderr.matchAll(signInPattern)].length > seen || client.stderr.includes('failed:'), `sign-in ${seen + 1}`, 60_000);
    expect(client.stderr).not.toContain('failed:');
    const url = [...client.stderr.matchAll(signInPattern)][seen]![1]!;
    signIns.push(url);
    const visited: string[] = [];
    const back = await consentInBrowser(url, { visited });
    expect(visited.some((step) => new URL(step).pathname.startsWith('/interaction/'))).toBe(true);
    const backUrl = new URL(back);
    expect(backUrl.searchParams.get('iss')).toBe(issuer);
    expect((await fetch(back)).status).toBe(200);
  }
  const { code } = await client.closed;
  const scopes = signIns.map((url) => new URL(url).searchParams.get('scope')!.split(' ').sort());
  expect(scopes[0]).toEqual(['offline_access', 'tools:read']);
  expect(scopes[1]).toEqual(['offline_access', 'tools:read', 'tools:write']);
  for (const url of signIns) expect(new URL(url).searchParams.get('resource')).toBe(endpoint);
  expect(client.stdout.toString()).toMatch(/^delete_file .* → ok/m);
  expect(client.stderr).toMatch(/stepped-up: /);
  expect(code).toBe(0);
}, 150_000);

async function register(redirectUris: string[]): Promise<string> {
  const response = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: redirectUris, application_type: 'native', token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

describe('mcp-http --auth=self: the authorization server on the MCP server\'s own origin', () => {
  const PAGE = 'http://page.example:5173';
  let self = '';

  beforeAll(async () => {
    self = await firstLine(tsx('mcp-http.ts', ['--auth=self', `--allow-origin=${PAGE}`]), 'the self-authorizing server to print its URL');
  }, 120_000);

  it('names itself as the authorization server, at the same origin, and signs in a client end to end', async () => {
    const origin = new URL(self).origin;
    const challenge = (await fetch(self, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).headers.get('www-authenticate')!;
    const metadata = (await (await fetch(/resource_metadata="([^"]+)"/.exec(challenge)![1]!)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ resource: self, authorization_servers: [origin] });
    expect(((await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>).issuer).toBe(origin);

    const client = tsx('mcp-client.ts', [self]);
    const pattern = /open this URL in your browser[^\n]*\n(\S+)/g;
    for (let seen = 0; seen < 2; seen++) {
      await client.waitFor(() => [...client.stderr.matchAll(pattern)].length > seen || client.stderr.includes('failed:'), `sign-in ${seen + 1}`, 60_000);
      expect(client.stderr).not.toContain('failed:');
      // The page that plays the person's browser posts the consent from its own origin.
      expect((await fetch(await consentInBrowser([...client.stderr.matchAll(pattern)][seen]![1]!, { origin: PAGE }))).status).toBe(200);
    }
    const { code } = await client.closed;
    expect(client.stdout.toString()).toMatch(/^delete_file .* → ok/m);
    expect(code).toBe(0);
  }, 150_000);

  it('refuses a consent posted from an origin it was not told to trust', async () => {
    const client = tsx('mcp-client.ts', [self]);
    await client.waitFor(() => /open this URL in your browser[^\n]*\n(\S+)/.test(client.stderr), 'the sign-in URL', 60_000);
    const url = /open this URL in your browser[^\n]*\n(\S+)/.exec(client.stderr)![1]!;
    await expect(consentInBrowser(url, { origin: 'http://evil.example' })).rejects.toThrow(/answered 403/);
  }, 150_000);
});
