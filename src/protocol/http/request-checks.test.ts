import { describe, expect, it } from 'vitest';
import { acceptedTypes, hostName, isAllowedHost, isAllowedOrigin, isValidSessionId, LOOPBACK_HOSTS, newSessionId, protocolVersionProblem } from './request-checks.ts';

describe('request checks', () => {
  it('reads Accept types without parameters, case-insensitively', () => {
    expect([...acceptedTypes({ accept: 'Application/JSON;q=0.5 , text/event-stream' })]).toEqual(['application/json', 'text/event-stream']);
    expect(acceptedTypes({}).size).toBe(0);
  });

  it('takes the host name without the port, IPv6 in brackets', () => {
    expect(hostName('LocalHost:8080')).toBe('localhost');
    expect(hostName('[::1]:3000')).toBe('[::1]');
    expect(hostName('127.0.0.1')).toBe('127.0.0.1');
  });

  it('allows only the server own names in Host, and in Origin when there is one', () => {
    expect(isAllowedHost({ host: '[::1]:3000' }, LOOPBACK_HOSTS)).toBe(true);
    expect(isAllowedHost({ host: 'localhost.evil.example' }, LOOPBACK_HOSTS)).toBe(false);
    expect(isAllowedHost({}, LOOPBACK_HOSTS)).toBe(false);
    expect(isAllowedOrigin({}, LOOPBACK_HOSTS, [])).toBe(true);
    expect(isAllowedOrigin({ origin: 'http://127.0.0.1:5173' }, LOOPBACK_HOSTS, [])).toBe(true);
    expect(isAllowedOrigin({ origin: 'http://127.0.0.1.evil.example' }, LOOPBACK_HOSTS, [])).toBe(false);
    expect(isAllowedOrigin({ origin: 'http://localhost:1/path' }, LOOPBACK_HOSTS, [])).toBe(false);
    expect(isAllowedOrigin({ origin: 'file://' }, LOOPBACK_HOSTS, [])).toBe(false);
  });

  it('accepts a known MCP-Protocol-Version or none, and names the supported ones otherwise', () => {
    expect(protocolVersionProblem({})).toBeNull();
    expect(protocolVersionProblem({ 'mcp-protocol-version': '2025-06-18' })).toBeNull();
    expect(protocolVersionProblem({ 'mcp-protocol-version': 'banana' })).toMatch(/2025-11-25/);
  });

  it('makes session ids of 32 hex digits (128 random bits), all visible ASCII and all different', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newSessionId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(isValidSessionId('abc~!')).toBe(true);
    expect(isValidSessionId('a b')).toBe(false);
    expect(isValidSessionId('é')).toBe(false);
    expect(isValidSessionId('')).toBe(false);
  });
});
