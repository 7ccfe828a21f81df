// Where a learner goes once an exercise's tests all pass: first to the place in the playground
// where the code they just wrote meets the real server ("see it live"), then to the failure cards
// that break what it does ("break it"), then on to the next exercise. Pure data, so the path is
// tables that a test walks from the first to the last.

import { CHAPTER_LOOP_YOURS_HASH, CHECK_SERVER_HASH } from '../router.ts';
import { sceneHash } from '../protocol/step-link.ts';

export type SceneKey = 'inspector' | 'reader' | 'stepper' | 'checkServer' | 'merge' | 'http' | 'era' | 'auth';

/** The live scene of each exercise, by its order (1–8): the view's hash and a text key. */
export interface LiveScene {
  /** Where the link goes. */
  hash: string;
  /** `exercise:next.scene.<key>`: what the learner will see there, in their language. */
  key: SceneKey;
}

// Each lands on its scene, with the learner's own code driving where the scene runs it.
const SCENES: Readonly<Record<number, LiveScene>> = {
  1: { hash: sceneHash('stdio-handshake'), key: 'inspector' },
  2: { hash: sceneHash('stdio-handshake'), key: 'reader' },
  3: { hash: sceneHash('stdio-handshake', true), key: 'stepper' },
  4: { hash: CHECK_SERVER_HASH, key: 'checkServer' },
  5: { hash: CHAPTER_LOOP_YOURS_HASH, key: 'merge' },
  6: { hash: sceneHash('http-handshake', true), key: 'http' },
  7: { hash: sceneHash('stdio-modern', true), key: 'era' },
  8: { hash: sceneHash('http-auth', true), key: 'auth' },
};

export function liveSceneOf(order: number): LiveScene | undefined {
  return SCENES[order];
}

export type BreakKey = 'reader' | 'client' | 'register' | 'http' | 'era' | 'auth';

/** The failure cards that break what an exercise built: the view's hash and a text key. */
export interface BreakStation {
  hash: string;
  /** `exercise:next.break.<key>`: which cards, in the learner's language. */
  key: BreakKey;
}

// The stdio lab's cards by the part of the learner's code they meet (failure-scenarios.ts:
// reader, client, register), the six HTTP cards, the two era cards, the five sign-in cards. Exercises 1 and 4 have none:
// no card breaks a codec or a server the learner wrote.
const BREAKS: Readonly<Record<number, BreakStation>> = {
  2: { hash: sceneHash('stdio-handshake', false, true), key: 'reader' },
  3: { hash: sceneHash('stdio-handshake', false, true), key: 'client' },
  5: { hash: sceneHash('stdio-handshake', false, true), key: 'register' },
  6: { hash: sceneHash('http-handshake', false, true), key: 'http' },
  7: { hash: sceneHash('stdio-modern', false, true), key: 'era' },
  8: { hash: sceneHash('http-auth', false, true), key: 'auth' },
};

export function breakItOf(order: number): BreakStation | undefined {
  return BREAKS[order];
}

/** The exercise after `id` in the chapter's order, or undefined after the last. */
export function nextExerciseId(ids: readonly string[], id: string): string | undefined {
  const index = ids.indexOf(id);
  return index === -1 ? undefined : ids[index + 1];
}

/** The two stations of an exercise outside the study view. */
export type StationKind = 'live' | 'break';

/** Which station of exercise `order` the address `hash` is, if any (a scene may serve several exercises: the selected one decides). */
export function stationAt(order: number, hash: string): StationKind | null {
  if (breakItOf(order)?.hash === hash) return 'break';
  if (liveSceneOf(order)?.hash === hash) return 'live';
  return null;
}

/** Where "Next" goes from a station: the exercise's failure cards after its live scene, else the next exercise. */
export function afterStation(order: number, kind: StationKind): { breakIt: BreakStation } | { nextExercise: true } {
  const breakIt = kind === 'live' ? breakItOf(order) : undefined;
  return breakIt ? { breakIt } : { nextExercise: true };
}
