// How the page learns about the bridge: <meta> tags injected into index.html by whoever serves it
// (server/start.ts, or the Vite plugin), and which origins may then connect. The per-start token
// itself is NOT in the page: the page asks GET /__bridge/token for it (bridge-token-endpoint.ts),
// which gives it to the same requests `bridgeMetaFor` gives a token to.
//
//   <meta name="mcp-bridge-shared" content="1">    the bridge is shared on a LAN (--host mode): it then
//                                                  refuses learner-server, so the page says so up front
//                                                  (learnerServerSupport in src/runtime/learner-server-support.ts)
//   <meta name="mcp-bridge-learner-code" content="sandboxed|not-enabled|no-sandbox|shared-bridge">
//                                                  whether the bridge runs learner code (only sandboxed,
//                                                  opted in with --learner-code-in-node), and why not
//
// Loopback mode always gives the token: only this machine can load the page, and the Origin
// check stops other sites from using it. A shared bridge is reachable by anyone on the network,
// so there the token goes only to pages whose URL already carries it (the join link the
// instructor hands out); everyone else gets the page without a bridge.

import { hostname, networkInterfaces } from 'node:os';
import type { LearnerCodeMode } from '../src/runtime/bridge-messages.ts';
import { tokensEqual } from './bridge-auth.ts';

export const SHARED_META_NAME = 'mcp-bridge-shared';
export const LEARNER_CODE_META_NAME = 'mcp-bridge-learner-code';

export interface BridgeMode {
  token: string;
  /** True for --host mode: reachable from the LAN, token only for join links. */
  shared: boolean;
  /** Whether the bridge runs learner code, told to pages that get the token. */
  learnerCode?: LearnerCodeMode;
}

export interface BridgeMeta {
  token: string | null;
  shared: boolean;
  learnerCode?: LearnerCodeMode;
}

/** The meta tags for one request: `requestUrl` is the path and query the browser asked for. */
export function bridgeMetaFor(requestUrl: string, mode: BridgeMode): BridgeMeta {
  const learner = mode.learnerCode === undefined ? {} : { learnerCode: mode.learnerCode };
  if (!mode.shared) return { token: mode.token, shared: false, ...learner };
  const given = new URL(requestUrl, 'http://page.invalid').searchParams.get('token');
  return { token: given !== null && tokensEqual(given, mode.token) ? mode.token : null, shared: true, ...learner };
}

/**
 * Put the meta tags first in <head>, before any script that might look for them. `meta.token` only
 * decides whether the learner-code tag is written: the token itself never goes into the page.
 */
export function injectBridgeMeta(html: string, meta: BridgeMeta): string {
  const tags: string[] = [];
  if (meta.shared) tags.push(`<meta name="${SHARED_META_NAME}" content="1">`);
  if (meta.token !== null && meta.learnerCode !== undefined) tags.push(`<meta name="${LEARNER_CODE_META_NAME}" content="${escapeAttribute(meta.learnerCode)}">`);
  if (tags.length === 0) return html;
  const head = /<head(\s[^>]*)?>/i.exec(html);
  if (!head) return `${tags.join('')}${html}`;
  const at = head.index + head[0].length;
  return `${html.slice(0, at)}\n    ${tags.join('\n    ')}${html.slice(at)}`;
}

/** The page's own origins when served on loopback: the three names a browser may use for it. */
export function loopbackOrigins(port: number): string[] {
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`];
}

/**
 * Every origin under which this machine's server can be reached at `port`: each interface
 * address, plus the host name. All of them name our own server, so allowing them all lets in
 * nothing but our page, whichever address a learner typed.
 */
export function allInterfaceOrigins(port: number): string[] {
  const origins = new Set(loopbackOrigins(port));
  for (const address of interfaceAddresses()) origins.add(`http://${hostForUrl(address)}:${port}`);
  origins.add(`http://${hostname()}:${port}`);
  return [...origins];
}

/** The IPv4 addresses other machines on the LAN can use to reach this one. */
export function lanAddresses(): string[] {
  return interfaceAddresses({ externalOnly: true }).filter((address) => !address.includes(':'));
}

function interfaceAddresses(filter: { externalOnly?: boolean } = {}): string[] {
  const addresses: string[] = [];
  for (const entries of Object.values(networkInterfaces())) {
    for (const entry of entries ?? []) {
      if (filter.externalOnly && entry.internal) continue;
      // Link-local IPv6 needs a zone id that browsers do not put in an origin: skip it.
      if (entry.family === 'IPv6' && entry.address.toLowerCase().startsWith('fe80:')) continue;
      addresses.push(entry.address);
    }
  }
  return addresses;
}

/** A bind address (or host name) only this machine can reach. */
/**
 * Whether a TCP peer is this machine: a loopback address, or one of this machine's own interface
 * addresses (a browser here that opened the LAN URL connects from it). Attendees connect from
 * other addresses.
 */
export function isThisMachine(remoteAddress: string | undefined): boolean {
  if (remoteAddress === undefined) return false;
  const address = remoteAddress.toLowerCase().startsWith('::ffff:') ? remoteAddress.slice(7) : remoteAddress;
  if (address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address)) return true;
  return interfaceAddresses().some((own) => own.toLowerCase() === address.toLowerCase());
}

export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function hostForUrl(address: string): string {
  return address.includes(':') ? `[${address}]` : address;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
