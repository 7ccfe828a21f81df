// The authorization server's consent page (server/consent-page.ts) in real Chromium, as a person
// meets it after `npm run mcp-client` prints a URL: in the browser's language, Allow focused, the
// choice sent back to the client's loopback redirect with code, state and iss (or access_denied).
// A browser matters here: Chromium, not a test's fetch, decides which Origin a form's POST carries,
// and the page refuses a POST whose Origin is not its own.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuthorizationServer } from '../../server/authorization-server.ts';
import { codeChallengeS256 } from '../../src/protocol/auth/pkce.ts';
import { useAppAndBrowser } from './browser.ts';
import { limit } from './limits.ts';

const app = useAppAndBrowser();
const servers: Server[] = [];
let issuer = '';
let redirectUri = '';
let clientId = '';

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const authServer = createServer();
  servers.push(authServer);
  await new Promise<void>((resolve) => authServer.listen(0, '127.0.0.1', () => resolve()));
  issuer = `http://127.0.0.1:${(authServer.address() as AddressInfo).port}`;
  authServer.on('request', (await createAuthorizationServer({ issuer })).listener);
  // The client's loopback listener: a page that only says it got the browser back.
  redirectUri = `${await listen((_request, response) => response.end('back'))}/callback`;
  const registration = await fetch(`${issuer}/reg`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [redirectUri], application_type: 'native', token_endpoint_auth_method: 'none', client_name: 'mcp-playground-client' }),
  });
  clientId = ((await registration.json()) as { client_id: string }).client_id;
});

afterAll(() => {
  for (const server of servers) {
    server.close();
    server.closeAllConnections();
  }
});

async function authorizationUrl(): Promise<string> {
  const url = new URL(`${issuer}/auth`);
  url.search = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'tools:read offline_access',
    prompt: 'consent',
    resource: 'http://127.0.0.1:4444/mcp',
    state: 'st4te',
    code_challenge: await codeChallengeS256('v'.repeat(43)),
    code_challenge_method: 'S256',
  }).toString();
  return url.href;
}

describe('the consent page', () => {
  it('in English: names the client, the server and the scopes, Allow has the focus, and Enter sends the code back with state and iss', async () => {
    const context = await app.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 720 } });
    try {
      const page = await context.newPage();
      const response = await page.goto(await authorizationUrl());
      expect(response?.headers()['content-security-policy']).toContain("default-src 'none'");
      expect(response?.headers()['content-security-policy']).toContain("frame-ancestors 'none'");
      await expect(page.title()).resolves.toBe('Allow access?');
      const text = await page.textContent('body');
      expect(text).toContain('mcp-playground-client');
      expect(text).toContain('http://127.0.0.1:4444/mcp');
      expect(text).toContain('tools:read');
      expect(text).toContain('offline_access');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Allow');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/callback\?/, { timeout: limit(10_000) });
      const back = new URL(page.url());
      expect(back.searchParams.get('state')).toBe('st4te');
      expect(back.searchParams.get('iss')).toBe(issuer);
      expect(back.searchParams.get('code')).toMatch(/^\S{20,}$/);
    } finally {
      await context.close();
    }
  });

  it('in Chinese: Deny sends access_denied back', async () => {
    const context = await app.browser.newContext({ locale: 'zh-CN', viewport: { width: 1024, height: 768 } });
    try {
      const page = await context.newPage();
      await page.goto(await authorizationUrl());
      await expect(page.title()).resolves.toBe('允许访问？');
      await page.getByRole('button', { name: '拒绝' }).click();
      await page.waitForURL(/\/callback\?/, { timeout: limit(10_000) });
      expect(new URL(page.url()).searchParams.get('error')).toBe('access_denied');
    } finally {
      await context.close();
    }
  });

  it('refuses a consent posted by a page of another origin', async () => {
    const context = await app.browser.newContext({ locale: 'en-US' });
    try {
      const page = await context.newPage();
      await page.goto(await authorizationUrl());
      const consentUrl = page.url();
      // A page elsewhere on this machine (the client's own listener's origin) posts "allow" to it.
      const forger = await listen((_request, response) => {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end(`<form method="post" action="${consentUrl}"><button name="decision" value="allow">go</button></form>`);
      });
      await page.goto(forger);
      await page.getByRole('button', { name: 'go' }).click();
      await page.waitForURL(consentUrl, { timeout: limit(10_000) });
      expect(await page.textContent('body')).toContain('Refused: the form was not sent from this page.');
    } finally {
      await context.close();
    }
  });
});
