// Where on the chapter path an attendee is, as the room names it: the exercise they are building
// (`exercise-3`), its live scene (`exercise-3-live`) or its failure cards (`exercise-3-break`), a
// scene of the protocol view (`scene-stdio-modern`, sent at a step: `scene-stdio-modern-step-4`),
// or one of the views off the path (`protocol`, `chapter-loop`, `trace`, `preflight`). `follow` is
// the presenter's screen, which the instructor can send everyone to (a tab of its own).

import { viewOfHash } from '../router.ts';
import { breakItOf, liveSceneOf, stationAt } from '../exercise/next-station.ts';
import { CHAPTER_LOOP_HASH, PREFLIGHT_HASH, TRACE_HASH } from '../router.ts';
import { parseSceneHash, PROTOCOL_HASH, sceneHash } from '../protocol/step-link.ts';
import { SCENES, sceneTransport, type Scene } from '../protocol/scene-names.ts';

/** The presenter's screen: an attendee who accepts opens the follow view beside their work. */
export const FOLLOW_STATION = 'follow';

export function stationOf(hash: string, selectedOrder: number | null): string {
  const view = viewOfHash(hash);
  if (selectedOrder !== null) {
    const kind = stationAt(selectedOrder, hash);
    if (kind !== null) return `exercise-${selectedOrder}-${kind}`;
    if (view === 'study') return `exercise-${selectedOrder}`;
  }
  const scene = parseSceneHash(hash);
  if (scene !== null && !scene.yours && !scene.breakIt) return `scene-${scene.scene}`;
  return view === 'study' ? 'welcome' : view;
}

/** The station of a scene, at a step of its run when one is given (stdio scenes only). */
export function sceneStation(scene: Scene, step: number | null = null): string {
  return step === null || !hasSteps(scene) ? `scene-${scene}` : `scene-${scene}-step-${step}`;
}

/** Whether the room can send the class to a step of this scene: the stdio stepper can go to one. */
export function hasSteps(scene: Scene): boolean {
  return sceneTransport(scene) === 'stdio';
}

/** The scene and step a scene station names; null for any other station. */
export function sceneOfStation(station: string): { scene: Scene; step: number | null } | null {
  const match = /^scene-([a-z-]+?)(?:-step-(\d{1,3}))?$/.exec(station);
  if (match === null || !(SCENES as readonly string[]).includes(match[1]!)) return null;
  const scene = match[1] as Scene;
  if (match[2] !== undefined && !hasSteps(scene)) return null;
  return { scene, step: match[2] === undefined ? null : Number(match[2]) };
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
  const scene = sceneOfStation(station);
  if (scene !== null) return { exercise: null, hash: sceneHash(scene.scene, false, false, scene.step) };
  const views: Record<string, string> = { welcome: '#workspace', protocol: PROTOCOL_HASH, 'chapter-loop': CHAPTER_LOOP_HASH, trace: TRACE_HASH, preflight: PREFLIGHT_HASH };
  return station in views ? { exercise: null, hash: views[station]! } : null;
}

/** Every station an instructor can send the class to, in the chapter's order, then the scenes, the views and the presenter's screen. */
export function sendableStations(exercises: number): string[] {
  const stations: string[] = [];
  for (let order = 1; order <= exercises; order++) {
    stations.push(`exercise-${order}`);
    if (liveSceneOf(order) !== undefined) stations.push(`exercise-${order}-live`);
    if (breakItOf(order) !== undefined) stations.push(`exercise-${order}-break`);
  }
  return [...stations, ...SCENES.map((scene) => sceneStation(scene)), 'protocol', 'chapter-loop', 'trace', FOLLOW_STATION];
}
