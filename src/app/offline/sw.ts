// The service worker (built by vite-plugin-pwa's injectManifest, which replaces
// `self.__WB_MANIFEST` with the build's file list). After one visit it serves the whole app from
// the cache: page, chunks, Monaco and its workers, the spec/learner/echo workers, the generated
// Node programs and the favicon. Responses are stored with their headers, so the copies still
// carry COOP/COEP/CORP and an offline page stays cross-origin isolated.
//
// Updates: a new build's worker takes over as soon as it has saved the new files (skipWaiting +
// clientsClaim) and never reloads a page itself. Pages are fetched network-first, so the next load
// is the new build; the page that was open keeps running and is told a new version is ready.
// Cross-origin requests (StackBlitz, for the WebContainer) and the `/bridge` WebSocket are never
// touched: WebSockets do not pass through service workers, and no route below matches other origins.
//
// Integrity: a cached copy is served only for a URL in this build's manifest, and only when its
// bytes still have the digest the build wrote into the manifest (precache-integrity.ts), because
// anything on the origin can `put` into CacheStorage. Anything else (GET /__bridge/token included)
// goes to the network untouched and is never stored.

import { cacheNames, clientsClaim } from 'workbox-core';
import { cleanupOutdatedCaches, getCacheKeyForURL, precache } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { isAppNavigation, navigationTimeoutFor, networkFirst } from './navigation.ts';
import { countPrecached, isPrecacheStatusRequest } from './precache-status.ts';
import { digestsByUrl, entryUrlOfCacheKey, matchVerifiedShell, serveVerified, type DigestedManifestEntry } from './precache-integrity.ts';

// The project's lib list has no WebWorker types (they clash with the page's DOM types), so the
// service worker scope is described by the members used here.
interface ExtendableMessageEventLike {
  data: unknown;
  ports: readonly MessagePort[];
  waitUntil(promise: Promise<unknown>): void;
}
const sw = globalThis as unknown as {
  registration: { scope: string };
  location: Location;
  skipWaiting(): Promise<void>;
  addEventListener(type: 'install', listener: () => void): void;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEventLike) => void): void;
};

// Spelled out as `self.__WB_MANIFEST`: workbox-build finds the injection point by that exact text.
const manifest: DigestedManifestEntry[] = (self as unknown as { __WB_MANIFEST: DigestedManifestEntry[] }).__WB_MANIFEST;
const scopePath = new URL(sw.registration.scope).pathname;
const digests = digestsByUrl(manifest, sw.location.href);

/** The precache key of a manifest URL (a directory stands for its index.html), or undefined. */
function cacheKeyFor(url: URL): string | undefined {
  return getCacheKeyForURL(url.href) ?? (url.pathname.endsWith('/') ? getCacheKeyForURL(new URL('index.html', url).href) : undefined);
}

sw.addEventListener('install', () => {
  void sw.skipWaiting();
});
clientsClaim();
cleanupOutdatedCaches();

// Registered before the precache route, so it answers the app's navigations first: the precache
// route would otherwise serve `/` from the cached index.html, without the fresh bridge meta tags.
// A file opened directly (`/generated/tap.mjs`) is no app navigation and is left to the routes below.
registerRoute(
  ({ request, url }) => request.mode === 'navigate' && url.origin === sw.location.origin && isAppNavigation(url.pathname, scopePath),
  ({ request }) =>
    networkFirst({
      fetchFresh: () => fetch(request),
      timeoutMs: navigationTimeoutFor(sw.location.hostname),
      cached: async () => {
        const cacheKey = cacheKeyFor(new URL('index.html', sw.registration.scope));
        const expected = cacheKey === undefined ? undefined : digests.get(entryUrlOfCacheKey(cacheKey));
        if (cacheKey === undefined || expected === undefined) return undefined;
        return matchVerifiedShell(await caches.open(cacheNames.precache), cacheKey, expected);
      },
    }),
);

// Workbox installs the files; serving them is ours, so every answer from the cache is verified.
precache(manifest);
registerRoute(
  ({ request, url }) => request.method === 'GET' && url.origin === sw.location.origin && cacheKeyFor(url) !== undefined,
  async ({ request, url }) => {
    const cacheKey = cacheKeyFor(url) as string;
    const expected = digests.get(entryUrlOfCacheKey(cacheKey));
    if (expected === undefined) return fetch(request);
    return serveVerified({ cache: await caches.open(cacheNames.precache), cacheKey, expected, fetchFresh: () => fetch(cacheKey) });
  },
);

sw.addEventListener('message', (event) => {
  if (!isPrecacheStatusRequest(event.data)) return;
  const port = event.ports[0];
  if (!port) return;
  event.waitUntil(
    (async () => {
      const cache = await caches.open(cacheNames.precache);
      const urls = manifest.map((entry) => new URL(entry.url, sw.location.href).href);
      port.postMessage(await countPrecached(urls, async (url) => (await cache.match(getCacheKeyForURL(url) ?? url)) !== undefined));
    })(),
  );
});
