import { describe, expect, it } from 'vitest';
import { fetchBridgeToken } from './bridge-token.ts';
import { saveMembership } from './room-membership.ts';

function recordingFetch(answer: () => Promise<Response>) {
  const calls: Array<{ url: string; init: RequestInit | undefined }> = [];
  const fake = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    return answer();
  }) as typeof fetch;
  return { calls, fake };
}

describe('fetchBridgeToken', () => {
  it('asks its own origin, with the request header, never from a cache', async () => {
    const { calls, fake } = recordingFetch(async () => Response.json({ token: 'abc' }));
    expect(await fetchBridgeToken({ fetch: fake, pageUrl: 'http://127.0.0.1:5317/lesson/2#x' })).toBe('abc');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('http://127.0.0.1:5317/__bridge/token');
    expect(calls[0]?.init?.cache).toBe('no-store');
    expect(calls[0]?.init?.headers).toEqual({ 'X-MCP-Bridge-Token-Request': '1' });
  });

  it("passes a join link's token on", async () => {
    const { calls, fake } = recordingFetch(async () => Response.json({ token: 'joined' }));
    expect(await fetchBridgeToken({ fetch: fake, pageUrl: 'http://192.168.1.5:5317/?token=joined' })).toBe('joined');
    expect(calls[0]?.url).toBe('http://192.168.1.5:5317/__bridge/token?token=joined');
  });

  it("passes on the token a workshop room's join code gave this origin's page, and no other origin's", async () => {
    const items = new Map<string, string>();
    const storage = { getItem: (key: string) => items.get(key) ?? null, setItem: (key: string, value: string) => void items.set(key, value), removeItem: (key: string) => void items.delete(key) };
    saveMembership(storage, { attendee: 'a1', secret: 's', name: 'Ada', bridgeToken: 'from-the-room', origin: 'http://192.168.1.5:5317', nextSeq: 3 });
    const { calls, fake } = recordingFetch(async () => Response.json({ token: 'from-the-room' }));
    expect(await fetchBridgeToken({ fetch: fake, pageUrl: 'http://192.168.1.5:5317/#workspace', storage })).toBe('from-the-room');
    expect(calls[0]?.url).toBe('http://192.168.1.5:5317/__bridge/token?token=from-the-room');
    await fetchBridgeToken({ fetch: fake, pageUrl: 'http://192.168.1.9:5317/', storage });
    expect(calls[1]?.url).toBe('http://192.168.1.9:5317/__bridge/token');
  });

  it('is null for a refusal, a static host, an HTML fallback, offline, or no page', async () => {
    const page = 'http://127.0.0.1:5317/';
    expect(await fetchBridgeToken({ fetch: recordingFetch(async () => new Response('no', { status: 403 })).fake, pageUrl: page })).toBeNull();
    expect(await fetchBridgeToken({ fetch: recordingFetch(async () => new Response('<!doctype html>', { status: 200 })).fake, pageUrl: page })).toBeNull();
    expect(await fetchBridgeToken({ fetch: recordingFetch(async () => Promise.reject(new TypeError('Failed to fetch'))).fake, pageUrl: page })).toBeNull();
    expect(await fetchBridgeToken({ fetch: recordingFetch(async () => Response.json({ token: 'x' })).fake, pageUrl: 'file:///index.html' })).toBeNull();
  });
});
