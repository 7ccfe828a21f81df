// The one question the page asks its service worker: "how much of the app is saved for offline
// use?". The page sends `{ type: PRECACHE_STATUS_REQUEST }` with a MessagePort; the worker answers
// on that port with a PrecacheStatus. Counting in the worker (it knows its own manifest) means the
// page needs no copy of the file list.

export const PRECACHE_STATUS_REQUEST = 'mcp-playground:precache-status';

export interface PrecacheStatus {
  /** Files this build saves for offline use. */
  expected: number;
  /** Of those, how many are in the cache now. */
  cached: number;
  /** A few of the missing ones, for the preflight's detail line. */
  missing: string[];
  /** Every URL of the worker's build (absolute): tells the page whether it is that build. */
  manifest: string[];
}

export function isPrecacheStatusRequest(data: unknown): boolean {
  return typeof data === 'object' && data !== null && (data as { type?: unknown }).type === PRECACHE_STATUS_REQUEST;
}

export function isPrecacheStatus(data: unknown): data is PrecacheStatus {
  if (typeof data !== 'object' || data === null) return false;
  const status = data as Partial<PrecacheStatus>;
  return Number.isInteger(status.expected) && Number.isInteger(status.cached) && Array.isArray(status.missing) && Array.isArray(status.manifest);
}

/** Counts the manifest's URLs that `isCached` finds; lists at most `listAtMost` missing ones. */
export async function countPrecached(urls: readonly string[], isCached: (url: string) => Promise<boolean>, listAtMost = 5): Promise<PrecacheStatus> {
  const found = await Promise.all(urls.map((url) => isCached(url).catch(() => false)));
  const missing = urls.filter((_, index) => !found[index]);
  return { expected: urls.length, cached: urls.length - missing.length, missing: missing.slice(0, listAtMost), manifest: [...urls] };
}

/**
 * Is the running page the build this worker saved? Its entry scripts have hashed names, so they
 * are in the worker's manifest exactly when both come from the same build. A page that loaded the
 * new build from the network while the new worker installed needs no "reload" prompt.
 */
export function pageIsFromBuild(pageScripts: readonly string[], manifest: readonly string[]): boolean {
  if (pageScripts.length === 0) return false;
  const known = new Set(manifest);
  return pageScripts.every((script) => known.has(script));
}

/** Complete when every file is there (an empty manifest means a build without the worker). */
export function isPrecacheComplete(status: PrecacheStatus): boolean {
  return status.expected > 0 && status.cached === status.expected;
}
