// Where on the chapter path an attendee is, as the room names it: the exercise they are building
// (`exercise-3`), its live scene (`exercise-3-live`) or its failure cards (`exercise-3-break`), or
// one of the views off the path (`protocol`, `chapter-loop`, `trace`, `preflight`).

import { viewOfHash } from '../router.ts';
import { breakItOf, liveSceneOf, stationAt } from '../exercise/next-station.ts';
import { CHAPTER_LOOP_HASH, PREFLIGHT_HASH, TRACE_HASH } from '../router.ts';
import { PROTOCOL_HASH } from '../protocol/step-link.ts';

export function stationOf(hash: string, selectedOrder: number | null): string {
  const view = viewOfHash(hash);
  if (selectedOrder !== null) {
    const kind = stationAt(selectedOrder, hash);
    if (kind !== null) return `exercise-${selectedOrder}-${kind}`;
    if (view === 'study') return `exercise-${selectedOrder}`;
  }
  return view === 'study' ? 'welcome' : view;
}


/** Where a station is: the exercise to open first (by its order), and the address to go to. Null for a name this page does not know. */
export function placeOfStation(station: string): { exercise: number | null; hash: string } | null {
  const match = /^exercise-([1-9])(?:-(live|break))?$/.exec(station);
  if (match) {
    const exercise = Number(match[1]);
    if (match[2] === undefined) return { exercise, hash: '#workspace' };
    const hash = match[2] === 'live' ? liveSceneOf(exercise)?.hash : breakItOf(exercise)?.hash;
    return hash === undefined ? null : { exercise, hash };
  }
  const views: Record<string, string> = { welcome: '#workspace', protocol: PROTOCOL_HASH, 'chapter-loop': CHAPTER_LOOP_HASH, trace: TRACE_HASH, preflight: PREFLIGHT_HASH };
  return station in views ? { exercise: null, hash: views[station]! } : null;
}

/** Every station an instructor can send the class to, in the chapter's order. */
export function sendableStations(exercises: number): string[] {
  const stations: string[] = [];
  for (let order = 1; order <= exercises; order++) {
    stations.push(`exercise-${order}`);
    if (liveSceneOf(order) !== undefined) stations.push(`exercise-${order}-live`);
    if (breakItOf(order) !== undefined) stations.push(`exercise-${order}-break`);
  }
  return [...stations, 'protocol', 'chapter-loop', 'trace'];
}
