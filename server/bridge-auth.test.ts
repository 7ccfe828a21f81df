import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { checkUpgradeRequest, createBridgeToken, tokensEqual } from './bridge-auth.ts';

const request = (origin?: string) => ({ headers: origin === undefined ? {} : { origin } }) as IncomingMessage;
const options = { token: 'secret-token', allowedOrigins: ['http://127.0.0.1:5317'] };

describe('bridge auth', () => {
  it('makes a fresh 32-character base64url token every time', () => {
    const a = createBridgeToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(createBridgeToken()).not.toBe(a);
  });

  it('compares tokens exactly, whatever their lengths', () => {
    expect(tokensEqual('secret-token', 'secret-token')).toBe(true);
    expect(tokensEqual('secret-tokeN', 'secret-token')).toBe(false);
    expect(tokensEqual('secret', 'secret-token')).toBe(false);
    expect(tokensEqual('secret-token-and-more', 'secret-token')).toBe(false);
    expect(tokensEqual('', '')).toBe(false);
  });

  it('checks the Origin first, then the token', () => {
    const url = (query: string) => new URL(`http://127.0.0.1:5317/bridge${query}`);
    expect(checkUpgradeRequest(request('http://127.0.0.1:5317'), url('?token=secret-token'), options)).toEqual({ ok: true });
    expect(checkUpgradeRequest(request(), url('?token=secret-token'), options)).toEqual({ ok: false, reason: 'missing Origin header' });
    expect(checkUpgradeRequest(request('null'), url('?token=secret-token'), options)).toEqual({ ok: false, reason: 'origin not allowed' });
    expect(checkUpgradeRequest(request('http://localhost:5318'), url('?token=secret-token'), options).ok).toBe(false);
    expect(checkUpgradeRequest(request('http://127.0.0.1:5317'), url(''), options)).toEqual({ ok: false, reason: 'missing token' });
    expect(checkUpgradeRequest(request('http://127.0.0.1:5317'), url('?token=nope'), options)).toEqual({ ok: false, reason: 'wrong token' });
  });
});
