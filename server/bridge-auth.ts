// Who may open the bridge. Two checks, both before the WebSocket upgrade:
//
// - Origin: any web page the learner visits can try `new WebSocket('ws://127.0.0.1:5317/bridge')`;
//   the browser always tells us which site asked, and only our own page's origin is let in.
//   (A missing Origin is refused too: browsers always send one, so no Origin means "not a page
//   we served", and the only other clients are our tests, which send it explicitly.)
// - Token: a random secret per server start, which our page asks for on GET /__bridge/token
//   (bridge-token-endpoint.ts; it is in no page and no cached file). What it protects against:
//   other web pages and origins in the browser, including a site that rebinds its name to
//   127.0.0.1 (same origin as itself, not as us) and a sandboxed opaque-origin context. What it
//   does NOT protect against: other local processes of the same user, which can ask the endpoint
//   with any headers, or read the token from this process, and send a forged Origin; the bridge
//   is no boundary between programs of one user. Browsers cannot set headers on a WebSocket, so
//   it travels in the query string.

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export type UpgradeCheck = { ok: true } | { ok: false; reason: string };

export interface UpgradeCheckOptions {
  token: string;
  allowedOrigins: readonly string[];
}

/** A fresh, URL-safe secret: 24 random bytes, 32 characters of base64url. */
export function createBridgeToken(): string {
  return randomBytes(24).toString('base64url');
}

/**
 * Compare two secrets in time that does not depend on where they differ. timingSafeEqual needs
 * equal lengths, so both sides are hashed first: a length mismatch leaks nothing either.
 */
export function tokensEqual(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b) && expected.length > 0;
}

export function checkUpgradeRequest(req: IncomingMessage, url: URL, options: UpgradeCheckOptions): UpgradeCheck {
  const origin = req.headers.origin;
  if (origin === undefined || origin === '') return { ok: false, reason: 'missing Origin header' };
  if (!options.allowedOrigins.includes(origin)) return { ok: false, reason: 'origin not allowed' };
  const token = url.searchParams.get('token');
  if (token === null || token === '') return { ok: false, reason: 'missing token' };
  if (!tokensEqual(token, options.token)) return { ok: false, reason: 'wrong token' };
  return { ok: true };
}
