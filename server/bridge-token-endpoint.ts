// GET /__bridge/token: how our own page learns the bridge token (it used to be a <meta> tag in
// index.html, where anything able to read the page or a cached copy of it could read it too).
//
// What it protects against: other web pages and origins in the browser. A page elsewhere cannot
// read the answer (no CORS), cannot even send the request without a preflight we never answer
// (the custom header), and a context with an opaque origin (the learner-code sandbox) is refused
// by its `Origin: null` / `Sec-Fetch-Site`. What it does NOT protect against: other processes of
// the same user on this machine, which can send any headers they like; nothing in a browser-facing
// server can, and the bridge never claims to (README, "Security").
//
// The answer is `Cache-Control: no-store`, and the service worker never caches it (its path is in
// no build manifest, and src/app/offline/sw.ts serves only manifest URLs from its cache).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { BRIDGE_TOKEN_PATH, BRIDGE_TOKEN_REQUEST_HEADER } from '../src/runtime/bridge-messages.ts';
import { bridgeMetaFor, isThisMachine, type BridgeMode } from './bridge-page.ts';
import { EVERY_RESPONSE_HEADERS } from './security-headers.ts';

export interface TokenEndpointOptions {
  mode: BridgeMode;
  /** Our own page origins (as for the bridge's Origin check); computed per request. */
  ownOrigins: () => readonly string[];
}

export type TokenDecision = { status: 200; token: string } | { status: 403 | 405; reason: string };

interface TokenRequest {
  method: string | undefined;
  url: string;
  headers: IncomingMessage['headers'];
  /** The TCP peer's address: on a shared bridge, this machine's own pages get the token without a join link. */
  remoteAddress?: string | undefined;
}

/** Pure: should this request get the token? Every rule is a reason another context would fail. */
export function decideTokenRequest(req: TokenRequest, options: TokenEndpointOptions): TokenDecision {
  if (req.method !== 'GET') return { status: 405, reason: 'GET only' };
  const own = options.ownOrigins();
  const header = (name: string): string | undefined => {
    const value = req.headers[name.toLowerCase()];
    return Array.isArray(value) ? value[0] : value;
  };
  if (header(BRIDGE_TOKEN_REQUEST_HEADER) !== '1') return { status: 403, reason: `missing ${BRIDGE_TOKEN_REQUEST_HEADER}` };
  // DNS rebinding: a foreign name resolving to 127.0.0.1 is same-origin with itself, not with us.
  if (!own.includes(`http://${header('host') ?? ''}`)) return { status: 403, reason: 'not one of our host names' };
  // Browsers send Sec-Fetch-* to trustworthy origins (loopback); where they do, it must say ours.
  const site = header('sec-fetch-site');
  if (site !== undefined && site !== 'same-origin') return { status: 403, reason: `Sec-Fetch-Site ${site}` };
  const dest = header('sec-fetch-dest');
  if (dest !== undefined && dest !== 'empty') return { status: 403, reason: `Sec-Fetch-Dest ${dest}` };
  // A same-origin GET carries no Origin; when one is sent (or "null", an opaque origin) it must be ours.
  const origin = header('origin');
  if (origin !== undefined && !own.includes(origin)) return { status: 403, reason: 'origin not allowed' };
  // A shared bridge gives the token to join links, and to any page of the instructor's own machine
  // (loopback, or one of its own addresses): those can use the bridge anyway (see the header).
  const token = bridgeMetaFor(req.url, options.mode).token ?? (isThisMachine(req.remoteAddress) ? options.mode.token : null);
  if (token === null) return { status: 403, reason: 'a shared bridge gives its token only to join links and to this machine' };
  return { status: 200, token };
}

/** Answers the request if it is for the token path (then true); else leaves it alone. */
export function handleBridgeTokenRequest(req: IncomingMessage, res: ServerResponse, options: TokenEndpointOptions): boolean {
  const url = req.url ?? '/';
  if ((url.split(/[?#]/, 1)[0] ?? '') !== BRIDGE_TOKEN_PATH) return false;
  const decision = decideTokenRequest({ method: req.method, url, headers: req.headers, remoteAddress: req.socket.remoteAddress }, options);
  const body = Buffer.from(decision.status === 200 ? JSON.stringify({ token: decision.token }) : JSON.stringify({ error: decision.reason }), 'utf8');
  res.writeHead(decision.status, {
    ...EVERY_RESPONSE_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    Vary: 'Origin, Sec-Fetch-Site',
    ...(decision.status === 405 ? { Allow: 'GET' } : {}),
  });
  res.end(body);
  return true;
}
