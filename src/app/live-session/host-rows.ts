// One row per host for the host list: live, available but passed over, unusable (with the host's
// own reason), or never tried (a forced host, or an earlier one was chosen first).

import type { HostKind, HostReasonCode } from '../../runtime/host.ts';
import type { HostSelectionState } from './live-session-store.ts';

export type HostRow =
  | { kind: HostKind; status: 'live' | 'available' | 'not-probed' }
  | { kind: HostKind; status: 'unavailable'; reason: string; why?: HostReasonCode };

export function describeHosts(kinds: readonly HostKind[], selection: HostSelectionState): HostRow[] {
  if (selection.status === 'probing') return [];
  return kinds.map((kind): HostRow => {
    if (selection.status === 'chosen' && selection.kind === kind) return { kind, status: 'live' };
    const known = selection.availability.find((entry) => entry.kind === kind);
    if (known === undefined) return { kind, status: 'not-probed' };
    if (known.status === 'available') return { kind, status: 'available' };
    return { kind, status: 'unavailable', reason: known.reason, ...(known.why ? { why: known.why } : {}) };
  });
}
