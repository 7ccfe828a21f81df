// How the service worker answers a page navigation. Network first, always: `npm start` writes
// fresh bridge meta tags into every copy of the page it serves (the token itself is fetched from
// /__bridge/token), and a static host may have a newer build; a cached page would be an old build. Only when the network fails (or
// hangs on bad Wi-Fi) does the cached app shell answer. That shell is the build's own index.html,
// which has no token at all: offline there is no bridge to reach anyway, and the page then goes
// straight to the in-browser worker host.

/** How long a navigation may wait for the network before the cached app shell answers. */
export const NAVIGATION_NETWORK_TIMEOUT_MS = 4000;

/**
 * No timeout for a page served from this machine (`npm start`): loopback does not hang on bad
 * Wi-Fi, a stopped server refuses at once, and a busy one is still worth waiting for, because only
 * its page carries the bridge token; the cached shell would silently cost the learner the bridge.
 */
export function navigationTimeoutFor(hostname: string): number | null {
  const loopback = hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127\.\d+\.\d+\.\d+$/.test(hostname);
  return loopback ? null : NAVIGATION_NETWORK_TIMEOUT_MS;
}

/**
 * Is this a navigation to the app itself (`/`, `/index.html`, a client-side route), rather than
 * to a file someone opened directly (`/generated/tap.mjs`)? Only the app's own pages may be
 * answered with the cached shell: a `.mjs` opened offline must fail, not turn into the app.
 */
export function isAppNavigation(pathname: string, basePath: string): boolean {
  const base = basePath.endsWith('/') ? basePath : `${basePath}/`;
  if (!(`${pathname}/`.startsWith(base) || pathname.startsWith(base))) return false;
  const last = pathname.slice(pathname.lastIndexOf('/') + 1);
  return !last.includes('.') || last === 'index.html';
}

export interface NetworkFirstOptions {
  /** The network request (the SW's `fetch(event.request)`). */
  fetchFresh: () => Promise<Response>;
  /** The cached shell, or undefined when nothing is cached yet. */
  cached: () => Promise<Response | undefined>;
  /** null: wait for the network as long as it takes (it still falls back if it fails). */
  timeoutMs?: number | null;
}

/**
 * Any answer from the network wins, even a 404 or 500: the server is there and knows best.
 * A failed or slow network falls back to the cache; when the cache has nothing either, we keep
 * waiting for the network (a slow page beats an error page), and report its failure if it fails.
 */
export async function networkFirst(options: NetworkFirstOptions): Promise<Response> {
  const timeoutMs = options.timeoutMs === undefined ? NAVIGATION_NETWORK_TIMEOUT_MS : options.timeoutMs;
  const fresh = options.fetchFresh();
  fresh.catch(() => {}); // raced below; its failure is handled there, never unhandled
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    if (timeoutMs !== null) timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    const first = await Promise.race([fresh, timedOut]);
    if (first !== 'timeout') return first;
  } catch {
    // The network failed outright (offline, server stopped): fall through to the cache.
  } finally {
    clearTimeout(timer);
  }
  const cached = await options.cached();
  if (cached) return cached;
  return fresh;
}

/**
 * The cached shell without any bridge meta tag. `npm start` sends the worker's copy without one,
 * but another server (`vite preview`) may not: a saved token belongs to a server run that is over,
 * and would only make the page try a bridge that is not there.
 */
export function withoutBridgeMeta(html: string): string {
  return html.replace(/[ \t]*<meta\s+name="mcp-bridge-(?:token|shared|learner-code)"[^>]*>\s*?\n?/gi, '');
}

/** The same response with `withoutBridgeMeta` applied; status and headers (COOP/COEP) kept. */
export async function shellWithoutBridgeMeta(response: Response): Promise<Response> {
  const html = withoutBridgeMeta(await response.text());
  const headers = new Headers(response.headers);
  headers.delete('Content-Length');
  return new Response(html, { status: response.status, statusText: response.statusText, headers });
}
