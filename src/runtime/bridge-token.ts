// The page's side of GET /__bridge/token (server/bridge-token-endpoint.ts): the per-start bridge
// secret, asked for just before a bridge socket opens, instead of read from a <meta> tag. The token
// is then in no file the service worker caches and in no answer to a plain fetch of `/`.
//
// A page opened from a shared bridge's join link (`/?token=…`) passes that token on: a shared
// bridge only confirms the token to pages that already hold it. So does a page that joined the
// workshop room with its short code (src/runtime/room-membership.ts keeps the token it was given).

import { BRIDGE_TOKEN_PATH, BRIDGE_TOKEN_REQUEST_HEADER } from './bridge-messages.ts';
/** Where a workshop room membership is kept: src/runtime/room-membership.ts's key (the tests check they agree). */
const ROOM_MEMBERSHIP_KEY = 'mcp-playground:room';

type TokenStorage = Pick<Storage, 'getItem'>;

export interface BridgeTokenDeps {
  fetch?: typeof fetch;
  /** The page's address; default `location.href`. */
  pageUrl?: string;
  /** Where a workshop room membership is kept; default the page's localStorage. */
  storage?: TokenStorage | null;
}

/** The bridge token, or null when this page has no bridge (static host, offline, refused). */
export async function fetchBridgeToken(deps: BridgeTokenDeps = {}): Promise<string | null> {
  const pageUrl = deps.pageUrl ?? (typeof location === 'undefined' ? undefined : location.href);
  const doFetch = deps.fetch ?? (typeof fetch === 'undefined' ? undefined : fetch);
  if (!pageUrl || !doFetch || !/^https?:$/.test(new URL(pageUrl).protocol)) return null;
  const page = new URL(pageUrl);
  const url = new URL(BRIDGE_TOKEN_PATH, page.origin);
  const joinToken = page.searchParams.get('token') ?? roomBridgeToken(page.origin, deps.storage);
  if (joinToken) url.searchParams.set('token', joinToken);
  try {
    const response = await doFetch(url.href, {
      headers: { [BRIDGE_TOKEN_REQUEST_HEADER]: '1' },
      cache: 'no-store',
      credentials: 'same-origin',
      redirect: 'error',
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { token?: unknown };
    return typeof body.token === 'string' && body.token !== '' ? body.token : null;
  } catch {
    // Offline, or a static host that answers with its HTML fallback: no bridge here.
    return null;
  }
}

/**
 * The bridge token a workshop room's join code gave a page of `origin`, if it joined one. Read
 * here, not through room-membership.ts, so the room's code stays out of the first paint.
 */
export function roomBridgeToken(origin: string, storage: TokenStorage | null = localStorageOrNull()): string | null {
  try {
    const membership = JSON.parse(storage?.getItem(ROOM_MEMBERSHIP_KEY) ?? 'null') as { origin?: unknown; bridgeToken?: unknown } | null;
    return membership?.origin === origin && typeof membership.bridgeToken === 'string' ? membership.bridgeToken : null;
  } catch {
    return null;
  }
}

function localStorageOrNull(): TokenStorage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
