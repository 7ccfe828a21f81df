import { describe, expect, it, vi } from 'vitest';
import { isAppNavigation, NAVIGATION_NETWORK_TIMEOUT_MS, navigationTimeoutFor, networkFirst, shellWithoutBridgeMeta, withoutBridgeMeta } from './navigation.ts';

describe('isAppNavigation', () => {
  it.each([
    ['/', '/', true],
    ['/index.html', '/', true],
    ['/lesson/3', '/', true],
    ['/generated/tap.mjs', '/', false],
    ['/favicon.svg', '/', false],
    ['/repo/', '/repo/', true],
    ['/repo', '/repo/', true],
    ['/repo/index.html', '/repo/', true],
    ['/other/', '/repo/', false],
    ['/repo/assets/x.js', '/repo/', false],
  ])('%s under base %s → %s', (path, base, expected) => {
    expect(isAppNavigation(path, base)).toBe(expected);
  });
});

const page = (body: string, status = 200) => new Response(body, { status });
const never = () => new Promise<Response>(() => {});

describe('networkFirst', () => {
  it('answers with the network when it answers, without reading the cache', async () => {
    let cacheRead = false;
    const response = await networkFirst({
      fetchFresh: async () => page('fresh token'),
      cached: async () => {
        cacheRead = true;
        return page('old');
      },
    });
    expect(await response.text()).toBe('fresh token');
    expect(cacheRead).toBe(false);
  });

  it('keeps a network error status (the server is there and knows best)', async () => {
    const response = await networkFirst({ fetchFresh: async () => page('gone', 404), cached: async () => page('shell') });
    expect(response.status).toBe(404);
  });

  it('falls back to the cached shell when the network fails', async () => {
    const response = await networkFirst({ fetchFresh: () => Promise.reject(new TypeError('Failed to fetch')), cached: async () => page('shell') });
    expect(await response.text()).toBe('shell');
  });

  it('falls back to the cached shell when the network hangs past the timeout, and not before', async () => {
    vi.useFakeTimers();
    let response: Response | undefined;
    try {
      void networkFirst({ fetchFresh: never, cached: async () => page('shell'), timeoutMs: 50 }).then((answer) => (response = answer));
      await vi.advanceTimersByTimeAsync(49);
      expect(response).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
    } finally {
      vi.useRealTimers();
    }
    expect(await response?.text()).toBe('shell');
  });

  it('with no timeout (loopback), waits for a slow server rather than serving the tokenless shell', async () => {
    const response = await networkFirst({
      fetchFresh: () => new Promise((resolve) => setTimeout(() => resolve(page('fresh token')), 60)),
      cached: async () => page('shell'),
      timeoutMs: null,
    });
    expect(await response.text()).toBe('fresh token');
  });

  it('with no timeout, still falls back at once when the server is gone', async () => {
    const response = await networkFirst({ fetchFresh: () => Promise.reject(new TypeError('refused')), cached: async () => page('shell'), timeoutMs: null });
    expect(await response.text()).toBe('shell');
  });

  it('waits for a slow network when nothing is cached yet', async () => {
    const response = await networkFirst({
      fetchFresh: () => new Promise((resolve) => setTimeout(() => resolve(page('slow but fresh')), 80)),
      cached: async () => undefined,
      timeoutMs: 10,
    });
    expect(await response.text()).toBe('slow but fresh');
  });

  it('reports the network failure when there is no cache to fall back to', async () => {
    await expect(networkFirst({ fetchFresh: () => Promise.reject(new TypeError('Failed to fetch')), cached: async () => undefined })).rejects.toThrow(
      'Failed to fetch',
    );
  });
});

describe('withoutBridgeMeta', () => {
  const injected = '<html><head>\n    <meta name="mcp-bridge-token" content="abc&quot;123">\n    <meta name="mcp-bridge-shared" content="1">\n    <meta charset="UTF-8" /></head></html>';

  it('removes the token and shared tags and nothing else', () => {
    const cleaned = withoutBridgeMeta(injected);
    expect(cleaned).not.toContain('mcp-bridge');
    expect(cleaned).toContain('<meta charset="UTF-8" />');
    expect(withoutBridgeMeta('<head><meta name="viewport" content="x"></head>')).toBe('<head><meta name="viewport" content="x"></head>');
  });

  it('keeps the status and the isolation headers of the cached response', async () => {
    const cached = new Response(injected, { status: 200, headers: { 'Cross-Origin-Embedder-Policy': 'require-corp', 'Content-Type': 'text/html', 'Content-Length': '999' } });
    const shell = await shellWithoutBridgeMeta(cached);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
    expect(shell.headers.get('content-length')).toBeNull();
    expect(await shell.text()).not.toContain('mcp-bridge-token');
  });
});

describe('navigationTimeoutFor', () => {
  it('never times out on loopback, and does on any other host', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '[::1]']) expect(navigationTimeoutFor(host), host).toBeNull();
    for (const host of ['playground.example.org', '192.168.1.5', '127.example.org']) expect(navigationTimeoutFor(host), host).toBe(NAVIGATION_NETWORK_TIMEOUT_MS);
  });
});
