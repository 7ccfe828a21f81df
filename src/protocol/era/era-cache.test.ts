// The era verdict is kept per server; over HTTP that is the origin, not the path or the query.

import { describe, expect, it } from 'vitest';
import { httpServerKey, MemoryEraCache } from './era-cache.ts';

describe('era cache', () => {
  it('keys an HTTP server by its origin', () => {
    expect(httpServerKey('http://127.0.0.1:3000/mcp')).toBe('http://127.0.0.1:3000');
    expect(httpServerKey('HTTPS://Example.COM/a/mcp?x=1#y')).toBe('https://example.com');
    expect(httpServerKey('https://example.com:8443')).toBe('https://example.com:8443');
    expect(httpServerKey('http://127.0.0.1:3000/mcp')).not.toBe(httpServerKey('http://127.0.0.1:3001/mcp'));
  });

  it('remembers, replaces and forgets a verdict', () => {
    const cache = new MemoryEraCache();
    cache.set('a', { era: 'legacy' });
    cache.set('a', { era: 'modern', version: '2026-07-28' });
    expect(cache.get('a')).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(cache.get('b')).toBeUndefined();
    cache.forget('a');
    expect(cache.get('a')).toBeUndefined();
  });
});
