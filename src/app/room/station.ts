// Where on the chapter path an attendee is, as the room names it: the exercise they are building
// (`exercise-3`), its live scene (`exercise-3-live`) or its failure cards (`exercise-3-break`), or
// one of the views off the path (`protocol`, `chapter-loop`, `trace`, `preflight`).

import { viewOfHash } from '../router.ts';
import { stationAt } from '../exercise/next-station.ts';

export function stationOf(hash: string, selectedOrder: number | null): string {
  const view = viewOfHash(hash);
  if (selectedOrder !== null) {
    const kind = stationAt(selectedOrder, hash);
    if (kind !== null) return `exercise-${selectedOrder}-${kind}`;
    if (view === 'study') return `exercise-${selectedOrder}`;
  }
  return view === 'study' ? 'welcome' : view;
}

