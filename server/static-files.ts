// Serves the built app (dist/) for `npm start`: the right Content-Type, the cross-origin isolation
// headers a WebContainer needs on EVERY response (a single HTML or worker script without them and
// the page is not isolated), the page headers (CSP, no framing) on every page, no way out of the
// root, no dotfiles, and index.html for app routes.
// The service worker (sw.js) is revalidated on every load, so a new build reaches learners at once;
// the worker's own copy of index.html is fetched without the per-start bridge token.

import { createReadStream } from 'node:fs';
import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';

import { isSandboxFramePath, SANDBOX_FRAME_HEADERS } from './sandbox-document.ts';
import { EVERY_RESPONSE_HEADERS, ISOLATION_HEADERS, PAGE_HEADERS, scriptHeadersFor } from './security-headers.ts';

export { ISOLATION_HEADERS, PAGE_HEADERS };

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};

export function contentTypeFor(path: string): string {
  return CONTENT_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Workbox asks for the app shell as `index.html?__WB_REVISION__=<hash>` when it saves it for
 * offline use. That copy is kept for weeks and served when the server is gone: it must not carry
 * the token of one `npm start` run, so the shell is sent as built for these requests.
 */
export function isServiceWorkerPrecacheRequest(requestUrl: string): boolean {
  const query = requestUrl.split('#', 1)[0]?.split('?')[1];
  return query !== undefined && new URLSearchParams(query).has('__WB_REVISION__');
}

export interface StaticFilesOptions {
  /** The directory to serve (a Vite build's outDir). */
  root: string;
  /** Rewrite index.html for one request, e.g. to inject the bridge's meta tags. */
  transformIndexHtml?: (html: string, req: IncomingMessage) => string;
}

export type StaticHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** Where a request path leads inside the root, decided before touching the disk. */
export type PathResolution =
  | { kind: 'path'; path: string; hasExtension: boolean }
  | { kind: 'bad-request'; reason: string }
  | { kind: 'forbidden' }
  | { kind: 'hidden' };

export function resolveRequestPath(root: string, requestUrl: string): PathResolution {
  const rawPath = requestUrl.split(/[?#]/, 1)[0] ?? '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return { kind: 'bad-request', reason: 'malformed URL encoding' };
  }
  if (decoded.includes('\0')) return { kind: 'bad-request', reason: 'NUL in path' };
  // Dotfiles (.env, .git/, .htpasswd…) are never part of the app, wherever they sit: not found.
  if (decoded.split(/[\\/]/).some((segment) => segment.startsWith('.') && segment !== '.' && segment !== '..')) return { kind: 'hidden' };
  // Decode first, then normalize, then check: `%2e%2e%2f` must be caught as the `../` it is.
  const path = join(root, decoded);
  if (path !== root && !path.startsWith(root.endsWith(sep) ? root : root + sep)) return { kind: 'forbidden' };
  return { kind: 'path', path, hasExtension: extname(decoded) !== '' };
}

export function createStaticHandler(options: StaticFilesOptions): StaticHandler {
  const root = join(options.root, '.');
  const indexPath = join(root, 'index.html');
  // The root may itself be reached through a symlink; files must stay inside its real location.
  const realRoot = realpath(root).catch(() => root);

  async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendText(res, 405, 'method not allowed', { Allow: 'GET, HEAD' });
    }
    const resolution = resolveRequestPath(root, req.url ?? '/');
    if (resolution.kind === 'bad-request') return sendText(res, 400, resolution.reason);
    if (resolution.kind === 'forbidden') return sendText(res, 403, 'forbidden');
    if (resolution.kind === 'hidden') return sendText(res, 404, 'not found');

    const file = await existingFile(resolution.path, await realRoot);
    if (file === 'outside') return sendText(res, 403, 'forbidden');
    if (file !== null && file !== indexPath) return sendFile(req, res, file);
    // A missing asset must be a 404, or a broken script URL would "load" index.html as code.
    if (file === null && resolution.hasExtension) return sendText(res, 404, 'not found');
    // The app's own routes (and / itself) are index.html: the page routes on the client.
    return sendIndex(req, res);
  }

  async function sendIndex(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let html: string;
    try {
      html = await readFile(indexPath, 'utf8');
    } catch {
      return sendText(res, 404, 'index.html not found: build the app first');
    }
    const transform = isServiceWorkerPrecacheRequest(req.url ?? '/') ? undefined : options.transformIndexHtml;
    const body = Buffer.from(transform ? transform(html, req) : html, 'utf8');
    // It may carry the bridge token, which changes every start: never cache it.
    res.writeHead(200, { ...EVERY_RESPONSE_HEADERS, ...PAGE_HEADERS, 'Content-Type': CONTENT_TYPES['.html'], 'Content-Length': body.length, 'Cache-Control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  return (req, res) => {
    serve(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendText(res, 500, 'internal error');
      else res.destroy(error instanceof Error ? error : undefined);
    });
  };
}

/** The path if it is a regular file inside the root, null if there is none, 'outside' for a symlink out. */
async function existingFile(path: string, realRoot: string): Promise<string | null | 'outside'> {
  try {
    if (!(await stat(path)).isFile()) return null;
    const real = await realpath(path);
    return real === realRoot || real.startsWith(realRoot + sep) ? path : 'outside';
  } catch {
    return null;
  }
}

async function sendFile(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const { size } = await stat(path);
  // Vite's hashed assets never change under the same name; everything else is revalidated. That
  // includes sw.js: browsers check it for updates, and a cached copy would hide a new build.
  const immutable = path.includes(`${sep}assets${sep}`) || isSandboxFramePath(path);
  res.writeHead(200, {
    ...EVERY_RESPONSE_HEADERS,
    // Any HTML document is a page that could be framed, but the learner-code sandbox frame has a
    // policy of its own (scripts by hash, eval, nothing else); every script carries a CSP too.
    ...(isSandboxFramePath(path) ? SANDBOX_FRAME_HEADERS : extname(path).toLowerCase() === '.html' ? PAGE_HEADERS : {}),
    ...scriptHeadersFor(path),
    'Content-Type': contentTypeFor(path),
    'Content-Length': size,
    'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
  });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await pipeline(createReadStream(path), res);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(`${text}\n`, 'utf8');
  res.writeHead(status, { ...EVERY_RESPONSE_HEADERS, ...PAGE_HEADERS, ...headers, 'Content-Type': CONTENT_TYPES['.txt'], 'Content-Length': body.length });
  res.end(body);
}
