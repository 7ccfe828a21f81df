// The headers every response of `npm start` carries, in one place (the deploy files,
// public/_headers and vercel.json, must match: src/app/offline/deploy-config.node.test.ts checks them).
//
// - EVERY_RESPONSE_HEADERS on EVERY response, errors and refused upgrades included: the isolation
//   headers (the WebContainer needs a cross-origin isolated page, and one response without them
//   breaks it), no Referer ever (a shared bridge's URL carries `?token=`) and a Permissions-Policy
//   that denies every powerful feature the app does not use.
// - PAGE_HEADERS on every page (HTML) response: the page holds the bridge token, so no other site
//   may frame it (frame-ancestors, X-Frame-Options), and it runs only its own scripts.
// - WORKER_HEADERS on every script but sw.js (scriptHeadersFor): a dedicated worker takes its
//   policy from its own response, and any of our scripts could be started as one. Learner code runs in workers (evaluated with `new Function`, so 'unsafe-eval'
//   there, never on the page) and must reach nothing: connect-src 'none' keeps it from fetching
//   the page (and its bridge token) or opening a WebSocket to the bridge.

export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  // Every type we send is declared: forbid the browser from guessing another one.
  'X-Content-Type-Options': 'nosniff',
};

/** Send no Referer anywhere: the join URL of a shared bridge carries its token in the query. */
export const REFERRER_POLICY = 'no-referrer';

/**
 * Every powerful feature the app never uses, denied to the page and every frame in it (the
 * WebContainer's and the learner-code sandbox's). Kept: fullscreen (presenter mode's `f` key) and
 * clipboard-write (the share link, trace link and byte copy buttons), for our own origin only.
 * Only names Chromium knows: an unknown one costs a console error on every load.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'camera=()',
  'clipboard-read=()',
  'clipboard-write=(self)',
  'display-capture=()',
  'encrypted-media=()',
  'fullscreen=(self)',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'idle-detection=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'picture-in-picture=()',
  'publickey-credentials-get=()',
  'screen-wake-lock=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
].join(', ');

export const PRIVACY_HEADERS: Readonly<Record<string, string>> = {
  'Referrer-Policy': REFERRER_POLICY,
  'Permissions-Policy': PERMISSIONS_POLICY,
};

/** What every response carries, whatever it is. */
export const EVERY_RESPONSE_HEADERS: Readonly<Record<string, string>> = { ...ISOLATION_HEADERS, ...PRIVACY_HEADERS };

/**
 * What the built app needs, and nothing else (checked in Chromium: tests/e2e/csp.test.ts):
 *   scripts         only our own files: no inline script, no eval on the page
 *   workers         our own worker files, and blob: (Monaco's fallback worker loader)
 *   styles          our own, plus inline: Monaco and React set element styles
 *   images, fonts   our own, data: URIs (Monaco's codicon font and icons)
 *   connect         our own origin: assets, the service worker's fetches and the bridge WebSocket
 *   frames          our own (the learner-code sandbox, assets/sandbox/frame-*.html) and
 *                   StackBlitz's WebContainer runtime, which boots in a hidden iframe
 *   frame-ancestors only our own pages may frame this one
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' https://stackblitz.com https://*.stackblitz.com https://*.webcontainer-api.io https://*.webcontainer.io",
  "frame-ancestors 'self'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Frame-Options': 'SAMEORIGIN',
};

/**
 * `npm run dev` (Vite's dev server) runs its own inline and injected scripts (the HMR client, React
 * Refresh), which the script policy above would block: the dev page gets the framing half only,
 * the part that protects the bridge token from a site that frames the page.
 */
export const DEV_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': ["frame-ancestors 'self'", "object-src 'none'", "base-uri 'self'"].join('; '),
  'X-Frame-Options': 'SAMEORIGIN',
};

/** The policy of a worker script: its own scripts and eval, and no network at all. */
export const WORKER_CONTENT_SECURITY_POLICY = ["default-src 'none'", "script-src 'self' 'unsafe-eval'", "worker-src 'self' blob:", "connect-src 'none'"].join('; ');

export const WORKER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': WORKER_CONTENT_SECURITY_POLICY,
};

/** The service worker fetches the build to precache it: our own origin, nothing else. */
export const SERVICE_WORKER_CONTENT_SECURITY_POLICY = ["default-src 'none'", "script-src 'self'", "connect-src 'self'"].join('; ');

export const SERVICE_WORKER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': SERVICE_WORKER_CONTENT_SECURITY_POLICY,
};

/** Vite names worker entries after their source (spec-worker-HASH.js, ts.worker-HASH.js…). */
export function isWorkerScript(fileName: string): boolean {
  return /worker[^/]*\.m?js$/i.test(fileName);
}

/**
 * The CSP header of any JavaScript response (.js, .mjs), by its path; none for other files. A CSP
 * on a script the page loads is ignored, but one started as a worker (by anyone, from any of our
 * URLs, whatever its name) runs under it: every script but the service worker gets the worker
 * policy, no network at all. (The deploy files say the same per folder: /assets/*, /generated/*.)
 */
export function scriptHeadersFor(path: string): Readonly<Record<string, string>> {
  const name = path.split(/[\\/]/).pop() ?? '';
  if (!/\.m?js$/i.test(name)) return {};
  if (name === 'sw.js') return SERVICE_WORKER_HEADERS;
  return WORKER_HEADERS;
}

/**
 * A whole HTTP/1.1 response for a raw socket (a refused upgrade, Node's own client errors), with
 * the isolation headers; then the connection closes.
 */
export function rawHttpResponse(status: number, statusText: string, body = ''): string {
  const text = body === '' ? '' : `${body}\n`;
  const headers = {
    ...EVERY_RESPONSE_HEADERS,
    ...PAGE_HEADERS,
    'Content-Type': 'text/plain; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(text)),
    Connection: 'close',
  };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
  return `HTTP/1.1 ${status} ${statusText}\r\n${lines.join('\r\n')}\r\n\r\n${text}`;
}

/**
 * Node answers a request it cannot parse (400), whose headers are too large (431) or too slow
 * (408) on its own, without our headers. Answer it ourselves, with them. Wire it as the server's
 * 'clientError' listener.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: { writable: boolean; end(text: string): void; destroy(): void }): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  if (error.code === 'HPE_HEADER_OVERFLOW') socket.end(rawHttpResponse(431, 'Request Header Fields Too Large'));
  else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') socket.end(rawHttpResponse(408, 'Request Timeout'));
  else socket.end(rawHttpResponse(400, 'Bad Request'));
}
