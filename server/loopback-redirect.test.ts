import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startLoopbackRedirect, type LoopbackRedirect } from './loopback-redirect.ts';

const AUTHORIZE = 'https://auth.example.com/authorize?client_id=c&state=s3cr3t';

/** A GET with any Host header (fetch would not let a test set one). */
function get(listener: LoopbackRedirect, path: string, host?: string): Promise<{ status: number; body: string; csp?: string }> {
  const url = new URL(listener.redirectUri);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: url.port, path, headers: { host: host ?? url.host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, csp: res.headers['content-security-policy'] as string | undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the loopback redirect listener', () => {
  let listener: LoopbackRedirect | undefined;
  afterEach(async () => {
    vi.useRealTimers();
    await listener?.close();
  });

  it('listens on 127.0.0.1, announces the URL, and gives back the callback that carries its state', async () => {
    const announced: string[] = [];
    listener = await startLoopbackRedirect({ announce: (url) => announced.push(url) });
    expect(listener.redirectUri).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    const back = listener.redirect(AUTHORIZE);
    expect(announced).toEqual([AUTHORIZE]);
    const page = await get(listener, '/callback?code=abc&state=s3cr3t&iss=https%3A%2F%2Fauth.example.com');
    expect(page.status).toBe(200);
    expect(page.body).toContain('Signed in');
    expect(page.body).toContain('已登录');
    expect(page.csp).toBe("default-src 'none'");
    await expect(back).resolves.toBe(`${listener.redirectUri}?code=abc&state=s3cr3t&iss=https%3A%2F%2Fauth.example.com`);
  });

  it('answers anything else with a 4xx and keeps waiting', async () => {
    listener = await startLoopbackRedirect({ announce: () => {} });
    const back = listener.redirect(AUTHORIZE);
    let settled = false;
    void back.then(() => (settled = true));
    const host = new URL(listener.redirectUri).host;
    expect((await get(listener, '/callback?code=abc&state=guess')).status).toBe(400);
    expect((await get(listener, '/callback?code=abc')).status).toBe(400);
    expect((await get(listener, '/callback?code=abc&state=s3cr3t', 'evil.example.com')).status).toBe(421);
    expect((await get(listener, '/callback?code=abc&state=s3cr3t', host.replace('127.0.0.1', 'localhost'))).status).toBe(421);
    expect((await get(listener, '/other?state=s3cr3t')).status).toBe(404);
    expect(settled).toBe(false);
    expect((await get(listener, '/callback?code=abc&state=s3cr3t')).status).toBe(200);
    await expect(back).resolves.toContain('code=abc');
    // One callback per sign-in: the same one again is not the one waited for.
    expect((await get(listener, '/callback?code=abc&state=s3cr3t')).status).toBe(400);
  });

  it('refuses an authorization URL without state, and a second sign-in while one waits', async () => {
    listener = await startLoopbackRedirect({ announce: () => {} });
    await expect(listener.redirect('https://auth.example.com/authorize?client_id=c')).rejects.toThrow('carries no state');
    void listener.redirect(AUTHORIZE).catch(() => {});
    await expect(listener.redirect(AUTHORIZE)).rejects.toThrow('already waiting');
  });

  it('gives up when nobody signs in in time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    listener = await startLoopbackRedirect({ announce: () => {}, timeoutMs: 60_000 });
    const back = listener.redirect(AUTHORIZE);
    const failed = expect(back).rejects.toThrow('nobody signed in within 60 s');
    vi.advanceTimersByTime(60_000);
    await failed;
    // And it waits for a new sign-in afterwards.
    expect((await get(listener, '/callback?code=abc&state=s3cr3t')).status).toBe(400);
  });
});
