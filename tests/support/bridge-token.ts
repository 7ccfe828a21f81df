// How a test gets the bridge token now that it is not in the page: the same request the page makes
// (src/runtime/bridge-token.ts), from Node. A local process can always do this; the endpoint only
// keeps other web pages out (server/bridge-token-endpoint.ts).

import { expect } from 'vitest';
import { BRIDGE_TOKEN_PATH, BRIDGE_TOKEN_REQUEST_HEADER } from '../../src/runtime/bridge-messages.ts';

/** The token `pageUrl`'s server gives that page (a join link's `?token=` is passed on), or null. */
export async function bridgeTokenFor(pageUrl: string, headers: Record<string, string> = {}): Promise<string | null> {
  const page = new URL(pageUrl);
  const url = new URL(BRIDGE_TOKEN_PATH, page.origin);
  const join = page.searchParams.get('token');
  if (join !== null) url.searchParams.set('token', join);
  const response = await fetch(url, { headers: { [BRIDGE_TOKEN_REQUEST_HEADER]: '1', ...headers } });
  if (response.status !== 200) return null;
  expect(response.headers.get('cache-control')).toBe('no-store');
  return ((await response.json()) as { token: string }).token;
}
