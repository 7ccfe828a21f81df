import { networkInterfaces } from 'node:os';
import { describe, expect, it } from 'vitest';
import { decideTokenRequest } from './bridge-token-endpoint.ts';

const OWN = ['http://127.0.0.1:5317', 'http://localhost:5317'];
const loopback = { mode: { token: 'secret', shared: false }, ownOrigins: () => OWN };
const shared = { mode: { token: 'secret', shared: true }, ownOrigins: () => OWN };
// What Chromium sends for the page's own fetch('/__bridge/token', { headers }) on loopback.
const PAGE = { host: '127.0.0.1:5317', 'x-mcp-bridge-token-request': '1', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', 'sec-fetch-dest': 'empty' };

describe('decideTokenRequest', () => {
  it("gives the token to our page's own request", () => {
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: PAGE }, loopback)).toEqual({ status: 200, token: 'secret' });
    // Browsers omit Sec-Fetch-* on origins they do not trust (a LAN address); the rest still holds.
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: { host: 'localhost:5317', 'x-mcp-bridge-token-request': '1' } }, loopback).status).toBe(200);
  });

  it.each([
    ['a POST', { method: 'POST', headers: PAGE }, 405],
    ['no request header: a link, <img>, <script> or form', { headers: { ...PAGE, 'x-mcp-bridge-token-request': undefined } }, 403],
    ['another site', { headers: { ...PAGE, 'sec-fetch-site': 'cross-site' } }, 403],
    ['a sibling subdomain', { headers: { ...PAGE, 'sec-fetch-site': 'same-site' } }, 403],
    ['an opaque origin (sandboxed iframe or its workers)', { headers: { ...PAGE, origin: 'null' } }, 403],
    ['another origin', { headers: { ...PAGE, origin: 'http://localhost:9999' } }, 403],
    ['a navigation or frame', { headers: { ...PAGE, 'sec-fetch-dest': 'iframe' } }, 403],
    ['a rebound host name', { headers: { ...PAGE, host: 'rebound.example:5317' } }, 403],
  ])('refuses %s', (_name, request: { method?: string; headers: Record<string, string | undefined> }, status) => {
    const decision = decideTokenRequest({ method: request.method ?? 'GET', url: '/__bridge/token', headers: request.headers }, loopback);
    expect(decision.status).toBe(status);
    expect(decision).not.toHaveProperty('token');
  });

  it('on a shared bridge, confirms the token only to a page that already holds it (a join link)', () => {
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: PAGE }, shared).status).toBe(403);
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token?token=secreT', headers: PAGE }, shared).status).toBe(403);
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token?token=secret', headers: PAGE }, shared)).toEqual({ status: 200, token: 'secret' });
    // An attendee's machine on the LAN, without the link.
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: PAGE, remoteAddress: '192.0.2.44' }, shared).status).toBe(403);
  });

  it("on a shared bridge, gives the token to the instructor's own machine without a join link: loopback or one of its addresses", () => {
    for (const remoteAddress of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: PAGE, remoteAddress }, shared)).toEqual({ status: 200, token: 'secret' });
    }
    const own = Object.values(networkInterfaces()).flat().find((entry) => entry !== undefined && !entry.internal && entry.family === 'IPv4');
    if (own) expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: PAGE, remoteAddress: own.address }, shared)).toEqual({ status: 200, token: 'secret' });
    // The other rules still hold for it: another origin's page on this machine is refused.
    expect(decideTokenRequest({ method: 'GET', url: '/__bridge/token', headers: { ...PAGE, origin: 'http://localhost:9999' }, remoteAddress: '127.0.0.1' }, shared).status).toBe(403);
  });
});
