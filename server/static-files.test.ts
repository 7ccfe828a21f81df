import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_FRAME_CONTENT_SECURITY_POLICY } from './sandbox-document.ts';
import { PERMISSIONS_POLICY, SERVICE_WORKER_CONTENT_SECURITY_POLICY, WORKER_CONTENT_SECURITY_POLICY } from './security-headers.ts';
import { contentTypeFor, createStaticHandler, isServiceWorkerPrecacheRequest, ISOLATION_HEADERS, resolveRequestPath } from './static-files.ts';

let base: string;
let root: string;
let server: Server;
let port: number;

const INDEX = '<!doctype html><html><head><title>t</title></head><body>app</body></html>';

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'static-files-'));
  root = join(base, 'dist');
  await mkdir(join(root, 'assets'), { recursive: true });
  await mkdir(join(root, 'generated'));
  await mkdir(join(root, 'sandbox'));
  await writeFile(join(root, 'sandbox', 'frame-0123abcd.html'), '<!doctype html><title>f</title>');
  await writeFile(join(root, 'index.html'), INDEX);
  await writeFile(join(root, 'assets', 'app-1234.js'), 'console.log(1)');
  await writeFile(join(root, 'assets', 'style.css'), 'body{}');
  await writeFile(join(root, 'generated', 'tap.mjs'), 'export {}');
  await writeFile(join(root, 'logo.svg'), '<svg/>');
  await writeFile(join(root, 'data.json'), '{}');
  await writeFile(join(root, 'mod.wasm'), Buffer.from([0, 0x61, 0x73, 0x6d]));
  await writeFile(join(root, 'font.woff2'), 'x');
  await writeFile(join(root, 'font.ttf'), 'x');
  await writeFile(join(root, 'app.js.map'), '{}');
  await writeFile(join(root, 'README.md'), '# hi');
  await writeFile(join(root, 'sw.js'), 'self.addEventListener("fetch", () => {})');
  await writeFile(join(root, 'manifest.webmanifest'), '{}');
  await writeFile(join(base, 'secret.txt'), 'TOP SECRET');
  await symlink(join(base, 'secret.txt'), join(root, 'link-out.txt'));
  server = createServer(createStaticHandler({ root, transformIndexHtml: (html) => html.replace('<head>', '<head><meta name="x">') }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await rm(base, { recursive: true, force: true });
});

/** A raw request: the path goes on the wire exactly as written (fetch would normalize `..`). */
function get(path: string, method = 'GET'): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function expectIsolationHeaders(headers: Record<string, string | string[] | undefined>): void {
  expect(headers['cross-origin-opener-policy']).toBe('same-origin');
  expect(headers['cross-origin-embedder-policy']).toBe('require-corp');
  expect(headers['cross-origin-resource-policy']).toBe('same-origin');
}

describe('static files', () => {
  it.each([
    ['/', 200],
    ['/index.html', 200],
    ['/assets/app-1234.js', 200],
    ['/lesson/3', 200],
    ['/missing.js', 404],
    ['/../package.json', 403],
    ['/%2e%2e/secret.txt', 403],
    ['/%E0%A4%A', 400],
    ['/link-out.txt', 403],
  ])('sends the isolation headers on %s (status %i)', async (path, status) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expectIsolationHeaders(res.headers);
  });

  it('sends the isolation headers on a refused method too', async () => {
    const res = await get('/', 'POST');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD');
    expectIsolationHeaders(res.headers);
  });

  it.each([
    ['/assets/app-1234.js', 'text/javascript; charset=utf-8'],
    ['/generated/tap.mjs', 'text/javascript; charset=utf-8'],
    ['/assets/style.css', 'text/css; charset=utf-8'],
    ['/index.html', 'text/html; charset=utf-8'],
    ['/logo.svg', 'image/svg+xml'],
    ['/data.json', 'application/json; charset=utf-8'],
    ['/mod.wasm', 'application/wasm'],
    ['/font.woff2', 'font/woff2'],
    ['/font.ttf', 'font/ttf'],
    ['/app.js.map', 'application/json; charset=utf-8'],
    ['/README.md', 'text/markdown; charset=utf-8'],
    ['/sw.js', 'text/javascript; charset=utf-8'],
    ['/manifest.webmanifest', 'application/manifest+json; charset=utf-8'],
  ])('serves %s as %s', async (path, type) => {
    const res = await get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('gives every script a CSP (the service worker its own), every response no Referer and the Permissions-Policy', async () => {
    const csp = async (path: string) => (await get(path)).headers['content-security-policy'];
    expect(await csp('/assets/app-1234.js')).toBe(WORKER_CONTENT_SECURITY_POLICY);
    expect(await csp('/generated/tap.mjs')).toBe(WORKER_CONTENT_SECURITY_POLICY);
    expect(await csp('/sw.js')).toBe(SERVICE_WORKER_CONTENT_SECURITY_POLICY);
    expect(await csp('/assets/style.css')).toBeUndefined();
    for (const path of ['/', '/assets/app-1234.js', '/missing.js', '/../package.json']) {
      const { headers } = await get(path);
      expect(headers['referrer-policy'], path).toBe('no-referrer');
      expect(headers['permissions-policy'], path).toBe(PERMISSIONS_POLICY);
    }
  });

  it('serves the learner-code sandbox frame with its own policy (not the page’s), cached as immutable', async () => {
    const { status, headers } = await get('/sandbox/frame-0123abcd.html');
    expect(status).toBe(200);
    expect(headers['content-security-policy']).toBe(SANDBOX_FRAME_CONTENT_SECURITY_POLICY);
    expect(headers['x-frame-options']).toBeUndefined();
    expect(headers['cache-control']).toContain('immutable');
    expectIsolationHeaders(headers);
  });

  it('serves file contents and HEAD without a body', async () => {
    expect((await get('/assets/app-1234.js')).body).toBe('console.log(1)');
    const head = await get('/assets/app-1234.js', 'HEAD');
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe('14');
    expect(head.headers['cache-control']).toContain('immutable');
  });

  it('never lets a path out of the root', async () => {
    for (const path of ['/../package.json', '/..%2fsecret.txt', '/%2e%2e/secret.txt', '/%2e%2e%2fsecret.txt', '/assets/../../secret.txt', '/link-out.txt']) {
      const res = await get(path);
      expect(res.status, path).toBe(403);
      expect(res.body, path).not.toContain('TOP SECRET');
    }
  });

  it('falls back to index.html (transformed, uncached) for app routes, but 404s a missing file', async () => {
    for (const path of ['/', '/lesson/3', '/lesson/3?x=1', '/assets']) {
      const res = await get(path);
      expect(res.status, path).toBe(200);
      expect(res.body, path).toContain('<head><meta name="x">');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    const missing = await get('/assets/gone-9999.js');
    expect(missing.status).toBe(404);
    expect(missing.body).not.toContain('<html');
  });

  it('serves the service worker revalidated every time, with the isolation headers', async () => {
    const res = await get('/sw.js');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expectIsolationHeaders(res.headers);
  });

  it("gives the service worker's offline copy of the page without the per-start injection", async () => {
    const precache = await get('/index.html?__WB_REVISION__=abc123');
    expect(precache.status).toBe(200);
    expect(precache.body).toBe(INDEX);
    expectIsolationHeaders(precache.headers);
    // The same page asked for normally still gets it.
    expect((await get('/index.html?x=__WB_REVISION__')).body).toContain('<meta name="x">');
    expect(isServiceWorkerPrecacheRequest('/index.html?__WB_REVISION__=1')).toBe(true);
    expect(isServiceWorkerPrecacheRequest('/index.html?a=1&__WB_REVISION__=1#x')).toBe(true);
    expect(isServiceWorkerPrecacheRequest('/index.html#?__WB_REVISION__=1')).toBe(false);
    expect(isServiceWorkerPrecacheRequest('/?token=abc')).toBe(false);
  });

  it('checks paths before touching the disk', () => {
    expect(resolveRequestPath('/srv/dist', '/a/b.js?x')).toEqual({ kind: 'path', path: '/srv/dist/a/b.js', hasExtension: true });
    expect(resolveRequestPath('/srv/dist', '/%2e%2e/x')).toEqual({ kind: 'forbidden' });
    expect(resolveRequestPath('/srv/dist', '/../dist-other/x')).toEqual({ kind: 'forbidden' });
    expect(resolveRequestPath('/srv/dist', '/a%00.js').kind).toBe('bad-request');
    // Dotfiles, wherever they sit and however they are spelled, are not part of the app.
    for (const path of ['/.env', '/.git/config', '/assets/.secret', '/%2eenv', '/a/%2Ehtaccess', '/a\\.env']) expect(resolveRequestPath('/srv/dist', path), path).toEqual({ kind: 'hidden' });
    expect(resolveRequestPath('/srv/dist', '/a.b/c.d.js').kind).toBe('path');
    expect(contentTypeFor('x.UNKNOWN')).toBe('application/octet-stream');
    expect(Object.keys(ISOLATION_HEADERS)).toContain('Cross-Origin-Embedder-Policy');
  });
});
