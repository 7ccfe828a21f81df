// Which SDK check each host can run, and why not when it cannot: decided here, apart from React,
// so the panel only renders it. The checks start their own program on the live host:
//   Check my client  → sdk-echo-server (the official SDK's McpServer)
//   Check my server  → learner-server  (the learner's exercise-4 code serving the echo tools)
// Every host can run both, with one exception by design: a bridge shared on the LAN (`npm start
// -- --host`) never runs learner-written code, because the process would run on the instructor's
// machine. A host that is not available at all says so with the reason host selection found.

import type { HostAvailability, HostKind, ProgramName } from '../../runtime/host.ts';
import { learnerServerSupport, sdkEchoServerSupport } from '../../runtime/learner-server-support.ts';
import type { HostSelectionState } from '../live-session/live-session-store.ts';
import type { CheckSuite } from './check-run.ts';

export const PROGRAM_OF: Record<CheckSuite, ProgramName> = { client: 'sdk-echo-server', server: 'learner-server' };

/** Why a check cannot run right now; the panel words each one. */
export type Blocker =
  | { kind: 'probing' }
  | { kind: 'no-host' }
  | { kind: 'shared-bridge' };

export function blockerFor(suite: CheckSuite, selection: HostSelectionState, sharedBridge: boolean): Blocker | null {
  if (selection.status === 'probing') return { kind: 'probing' };
  if (selection.status === 'none') return { kind: 'no-host' };
  return supports(suite, selection.kind, sharedBridge) ? null : { kind: 'shared-bridge' };
}

/** One row of the panel's "where the checks run" list. */
export interface HostRow {
  kind: HostKind;
  chosen: boolean;
  /** Why this host is not in use (from host selection), when it is not. */
  unavailable: string | null;
  client: 'runs' | 'blocked';
  server: 'runs' | 'blocked';
}

export function hostRows(selection: HostSelectionState, sharedBridge: boolean): HostRow[] {
  if (selection.status === 'probing') return [];
  const chosen = selection.status === 'chosen' ? selection.kind : null;
  return selection.availability.map((entry: HostAvailability) => ({
    kind: entry.kind,
    chosen: entry.kind === chosen,
    unavailable: entry.status === 'unavailable' ? entry.reason : null,
    client: supports('client', entry.kind, sharedBridge) ? 'runs' : 'blocked',
    server: supports('server', entry.kind, sharedBridge) ? 'runs' : 'blocked',
  }));
}

/** The runtime's own rule for each program (src/runtime/learner-server-support.ts). */
function supports(suite: CheckSuite, host: HostKind, sharedBridge: boolean): boolean {
  return (suite === 'server' ? learnerServerSupport(host, sharedBridge) : sdkEchoServerSupport(host)).ok;
}
