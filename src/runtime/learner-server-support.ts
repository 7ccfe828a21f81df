// Which live hosts can run "Check my server" (the learner's exercise-4 server, program
// learner-server) and "Check my client" (the official SDK's server, sdk-echo-server), and why not
// when one cannot, so the page can say so before anyone presses a button. The reason comes as a
// code (for the page's translated text, src/app/sdk-checks/i18n.ts) and as English (for logs).

import type { HostKind } from './host.ts';
import { SHARED_BRIDGE_LEARNER_REFUSAL } from './bridge-messages.ts';

export type SupportReasonCode = 'shared-bridge';

export type ProgramSupport = { ok: true } | { ok: false; code: SupportReasonCode; reason: string };

/**
 * learner-server runs in every host except a shared (`npm start --host`) bridge, which never runs
 * code a page sends. `bridgeShared` comes from the page's <meta name="mcp-bridge-shared"> tag
 * (bridgeIsSharedFromPage() in bridge-host.ts).
 */
export function learnerServerSupport(host: HostKind, bridgeShared: boolean): ProgramSupport {
  if (host === 'bridge' && bridgeShared) return { ok: false, code: 'shared-bridge', reason: SHARED_BRIDGE_LEARNER_REFUSAL };
  return { ok: true };
}

/** sdk-echo-server runs everywhere: as a Node program on the bridge and in a WebContainer, bundled into a worker in the worker host. */
export function sdkEchoServerSupport(_host: HostKind): ProgramSupport {
  return { ok: true };
}
