// The era switch's runs: which plan the stepper walks in each era, which client drives it and
// which server era it meets. Plain data, so the stepper, the view and the tests share one source.
//
//   handshake era  exercise 3's McpClient: initialize → result → initialized → tools/list → tools/call
//   2026-07-28     the dual-era client pinned: server/discover → tools/list → tools/call, `_meta` on
//                  every request, `resultType` on every result, no initialize
//   probe          the dual-era client in auto mode: server/discover; a modern answer keeps it
//                  modern, a legacy server's error makes it fall back to the handshake on the same pipe

import type { EchoEra } from '../../runtime/echo-server-args.ts';
import { HANDSHAKE_PLAN, ECHO_TEXT, type PlanStep } from './step-plan.ts';
import type { RunConfig } from './stepper-types.ts';

export const ERA_CHOICES = ['handshake', 'modern', 'probe'] as const;
export type EraChoice = (typeof ERA_CHOICES)[number];

/** The server eras a learner can start the live echo server in (`--era`). */
export const SERVER_ERAS: readonly EchoEra[] = ['dual', 'legacy', 'modern'];

const CALL_AND_GOODBYE: readonly PlanStep[] = [
  { kind: 'list-tools' },
  { kind: 'receive' },
  { kind: 'call-tool', name: 'echo', args: { text: ECHO_TEXT } },
  { kind: 'receive' },
  { kind: 'close' },
  { kind: 'exit' },
];

export const MODERN_PLAN: readonly PlanStep[] = [{ kind: 'connect' }, { kind: 'receive' }, ...CALL_AND_GOODBYE];
export const PROBE_PLAN: readonly PlanStep[] = [{ kind: 'connect' }, { kind: 'receive' }, { kind: 'fallback' }, ...CALL_AND_GOODBYE];

/**
 * The stepper's config for an era and a server era. Era runs speak NDJSON, the stdio framing of
 * the specification (the handshake era keeps the live panel's framing, as the chapter's stepper does).
 */
export function eraConfig(choice: EraChoice, serverEra: EchoEra = 'dual'): RunConfig {
  const base: RunConfig = { plan: HANDSHAKE_PLAN, scenario: null, client: 'reference', register: 'reference', settings: null };
  const server = serverEra === 'dual' ? {} : { serverEra };
  switch (choice) {
    case 'handshake':
      return { ...base, ...server };
    case 'modern':
      return { ...base, plan: MODERN_PLAN, settings: { framing: 'ndjson', faults: [] }, eraClient: { mode: 'modern' }, ...server };
    case 'probe':
      return { ...base, plan: PROBE_PLAN, settings: { framing: 'ndjson', faults: [] }, eraClient: { mode: 'probe' }, ...server };
  }
}

/** Which era a config runs (what the switch shows), and against which server. */
export function eraOfConfig(config: RunConfig): { choice: EraChoice; serverEra: EchoEra } {
  const choice: EraChoice = config.eraClient === undefined ? 'handshake' : config.eraClient.mode;
  return { choice, serverEra: config.serverEra ?? 'dual' };
}
