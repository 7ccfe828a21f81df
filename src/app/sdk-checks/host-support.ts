// Which SDK check each host can run, and where it runs instead when it cannot: decided here, apart
// from React, so the panel only renders it. The checks start their own program on the live host:
//   Check my client  → sdk-echo-server (the official SDK's McpServer)
//   Check my server  → learner-server  (the learner's exercise-4 code serving the echo tools)
// Every host runs Check my client. Check my server runs learner-written code, so a bridge runs it
// only in its OS sandbox, opted in (`npm start -- --learner-code-in-node`); a bridge that does not
// (shared on the LAN, not opted in, no sandbox on its machine) leaves it to the in-browser worker,
// and the panel says why. A host that is not available at all says so with the reason host
// selection found.

import type { HostAvailability, HostKind, HostReasonCode, ProgramName } from '../../runtime/host.ts';
import type { LearnerCodeMode, LearnerCodeRefusal } from '../../runtime/bridge-messages.ts';
import { learnerServerSupport, sdkEchoServerSupport } from '../../runtime/learner-server-support.ts';
import type { HostSelectionState } from '../live-session/live-session-store.ts';
import type { CheckSuite } from './check-run.ts';

export const PROGRAM_OF: Record<CheckSuite, ProgramName> = { client: 'sdk-echo-server', server: 'learner-server' };

/** Why a check cannot run right now; the panel words each one. */
export type Blocker = { kind: 'probing' } | { kind: 'no-host' };

export function blockerFor(selection: HostSelectionState): Blocker | null {
  if (selection.status === 'probing') return { kind: 'probing' };
  if (selection.status === 'none') return { kind: 'no-host' };
  return null;
}

/** Check my server on a bridge that does not run learner code: it runs in the worker, and why. */
export function workerFallbackFor(suite: CheckSuite, host: HostKind | null, bridgeLearnerCode: LearnerCodeMode): LearnerCodeRefusal | null {
  if (suite !== 'server' || host === null) return null;
  const support = learnerServerSupport(host, bridgeLearnerCode);
  return support.ok ? null : support.code;
}

/** One row of the panel's "where the checks run" list. */
export interface HostRow {
  kind: HostKind;
  chosen: boolean;
  /** Why this host is not in use (from host selection), when it is not. */
  unavailable: string | null;
  /** Its code, when the host knows it: the panel words it in the page's language (host-reason-text.ts). */
  unavailableWhy?: HostReasonCode;
  client: 'runs' | 'in-worker';
  server: 'runs' | 'in-worker';
}

export function hostRows(selection: HostSelectionState, bridgeLearnerCode: LearnerCodeMode): HostRow[] {
  if (selection.status === 'probing') return [];
  const chosen = selection.status === 'chosen' ? selection.kind : null;
  return selection.availability.map((entry: HostAvailability) => ({
    kind: entry.kind,
    chosen: entry.kind === chosen,
    unavailable: entry.status === 'unavailable' ? entry.reason : null,
    ...(entry.status === 'unavailable' && entry.why ? { unavailableWhy: entry.why } : {}),
    client: sdkEchoServerSupport(entry.kind).ok ? 'runs' : 'in-worker',
    server: learnerServerSupport(entry.kind, bridgeLearnerCode).ok ? 'runs' : 'in-worker',
  }));
}
