// Which live hosts can run "Check my server" (the learner's exercise-4 server, program
// learner-server) and "Check my client" (the official SDK's server, sdk-echo-server), and why not
// when one cannot, so the page can say so before anyone presses a button. The reason comes as a
// code (for the page's translated text, src/app/sdk-checks/i18n.ts) and as English (for logs).

import type { HostKind } from './host.ts';
import { LEARNER_CODE_REFUSALS, type LearnerCodeMode, type LearnerCodeRefusal } from './bridge-messages.ts';

export type SupportReasonCode = LearnerCodeRefusal;

export type ProgramSupport = { ok: true } | { ok: false; code: SupportReasonCode; reason: string };

/**
 * learner-server runs in the worker and the WebContainer, and on a bridge only when that bridge
 * runs learner code in its OS sandbox (`npm start -- --learner-code-in-node` on a machine with
 * bubblewrap). `bridgeLearnerCode` comes from the page's <meta name="mcp-bridge-learner-code">
 * (bridgeLearnerCodeFromPage() in bridge-host.ts).
 */
export function learnerServerSupport(host: HostKind, bridgeLearnerCode: LearnerCodeMode): ProgramSupport {
  if (host === 'bridge' && bridgeLearnerCode !== 'sandboxed') return { ok: false, code: bridgeLearnerCode, reason: LEARNER_CODE_REFUSALS[bridgeLearnerCode] };
  return { ok: true };
}

/** sdk-echo-server runs everywhere: as a Node program on the bridge and in a WebContainer, bundled into a worker in the worker host. */
export function sdkEchoServerSupport(_host: HostKind): ProgramSupport {
  return { ok: true };
}
