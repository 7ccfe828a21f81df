// Which view of the page is showing, from the address's hash: `#protocol…` is the protocol view,
// `#agent…` the Chapter loop, `#preflight` the workshop preflight checks, anything else (`#workspace`, `#live-panel`, none) the study view.
// The hash is the only state, so the back button, reloads and shared links all land on the same view.

import { isProtocolHash } from './protocol/step-link.ts';

export type AppView = 'study' | 'protocol' | 'agent' | 'preflight';

export const PREFLIGHT_HASH = '#preflight';

export const AGENT_HASH = '#agent';

export function isAgentHash(hash: string): boolean {
  return hash === AGENT_HASH || hash.startsWith(`${AGENT_HASH}/`);
}

export function viewOfHash(hash: string): AppView {
  if (isProtocolHash(hash)) return 'protocol';
  if (hash === PREFLIGHT_HASH) return 'preflight';
  return isAgentHash(hash) ? 'agent' : 'study';
}
