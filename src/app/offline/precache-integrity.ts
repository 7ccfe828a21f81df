// What the service worker may serve from its cache: only a file of this build's manifest, and only
// when the cached body still has the SHA-256 digest the build wrote for it (server/precache-digests.ts).
// CacheStorage is writable by anything running on the origin, so without this check a single
// `caches.open(…).put('/assets/x.js', evil)` would decide what the page runs on every later load.
// A mismatch (or a missing entry) goes to the network, and the network's answer is saved again
// only if it has the expected digest; a different body (a newer deployment) is served, not saved.

import { withoutBridgeMeta } from './navigation.ts';

export interface DigestedManifestEntry {
  url: string;
  revision: string | null;
  /** base64 SHA-256 of the file's bytes; absent only in a manifest built without the transform. */
  sha256?: string;
}

/** The part of `Cache` used here, so tests can pass a Map-backed one. */
export interface CacheLike {
  match(key: string): Promise<Response | undefined>;
  put(key: string, response: Response): Promise<void>;
}

/** base64 SHA-256, the same encoding Node's `digest('base64')` writes at build time. */
export async function digestOf(bytes: ArrayBuffer, subtle: SubtleCrypto = crypto.subtle): Promise<string> {
  const hash = new Uint8Array(await subtle.digest('SHA-256', bytes));
  let binary = '';
  for (const byte of hash) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** Each manifest file's digest, by absolute URL (entries without one are left out: never served from cache). */
export function digestsByUrl(manifest: readonly DigestedManifestEntry[], base: string): Map<string, string> {
  const digests = new Map<string, string>();
  for (const entry of manifest) if (entry.sha256) digests.set(new URL(entry.url, base).href, entry.sha256);
  return digests;
}

/** Workbox keys a revisioned file as `url?__WB_REVISION__=…`: the manifest URL without that parameter. */
export function entryUrlOfCacheKey(cacheKey: string): string {
  const url = new URL(cacheKey);
  url.searchParams.delete('__WB_REVISION__');
  return url.href;
}

/** The cached copy if its bytes have the expected digest; otherwise undefined. */
export async function matchVerified(cache: CacheLike, cacheKey: string, expected: string): Promise<Response | undefined> {
  const cached = await cache.match(cacheKey);
  if (!cached) return undefined;
  const body = await cached.arrayBuffer();
  if ((await digestOf(body)) !== expected) return undefined;
  // A new Response from the checked bytes: the body that was hashed is the body that is served.
  return new Response(body, { status: cached.status, statusText: cached.statusText, headers: cached.headers });
}

/**
 * The cached app shell, checked the same way once the server's bridge meta tags are taken out:
 * workbox saves index.html as the server sent it, with the tags it writes into every page (and
 * which the shell never serves anyway). Anything else changed, and there is no cached shell.
 */
export async function matchVerifiedShell(cache: CacheLike, cacheKey: string, expected: string): Promise<Response | undefined> {
  const cached = await cache.match(cacheKey);
  if (!cached) return undefined;
  const bytes = new TextEncoder().encode(withoutBridgeMeta(await cached.text()));
  if ((await digestOf(bytes.buffer as ArrayBuffer)) !== expected) return undefined;
  const headers = new Headers(cached.headers);
  headers.delete('Content-Length');
  return new Response(bytes, { status: cached.status, statusText: cached.statusText, headers });
}

export interface ServeVerifiedOptions {
  cache: CacheLike;
  cacheKey: string;
  expected: string;
  /** The network request for the file (the service worker's `fetch`). */
  fetchFresh: () => Promise<Response>;
}

/** The verified cached copy, else the network's answer (saved again only when it verifies). */
export async function serveVerified(options: ServeVerifiedOptions): Promise<Response> {
  const cached = await matchVerified(options.cache, options.cacheKey, options.expected);
  if (cached) return cached;
  const fresh = await options.fetchFresh();
  if (!fresh.ok) return fresh;
  const body = await fresh.arrayBuffer();
  const copy = () => new Response(body, { status: fresh.status, statusText: fresh.statusText, headers: fresh.headers });
  if ((await digestOf(body)) === options.expected) await options.cache.put(options.cacheKey, copy());
  return copy();
}
