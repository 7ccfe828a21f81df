// Deep links into the protocol view: `#protocol/step/3` opens it showing the first three steps of
// the stepper (recorded already, or stepped live to get there); `#protocol/scene/http-handshake`
// opens a scene, `…/yours` with the learner's own code driving it (where a "See it live" link
// after an exercise lands), `…/break` with the scene's failure cards open (where "Break it" lands),
// and `…/step/3` at its third step (where the workshop room's "Send everyone to" a step lands).

import { SCENES, type Scene } from './scene-names.ts';

export const PROTOCOL_HASH = '#protocol';
const STEP_PATTERN = /^#protocol\/step\/(\d{1,3})$/;

export function stepHash(count: number): string {
  return `${PROTOCOL_HASH}/step/${Math.max(0, Math.floor(count))}`;
}

/** The step count a hash links to; null when it is not a step link. */
export function parseStepHash(hash: string): number | null {
  const match = STEP_PATTERN.exec(hash);
  return match ? Number(match[1]) : null;
}

/** True for any hash inside the protocol view. */
export function isProtocolHash(hash: string): boolean {
  return hash === PROTOCOL_HASH || hash.startsWith(`${PROTOCOL_HASH}/`);
}

const SCENE_PATTERN = /^#protocol\/scene\/([a-z-]+)(\/yours)?(\/break)?(?:\/step\/(\d{1,3}))?$/;

/**
 * A scene, optionally with the learner's code driving it, optionally with its failure cards open,
 * optionally at a step of its run (a stdio scene: the instructor's "Send everyone to" a step).
 */
export interface SceneLink {
  scene: Scene;
  yours: boolean;
  breakIt: boolean;
  step: number | null;
}

export function sceneHash(scene: Scene, yours = false, breakIt = false, step: number | null = null): string {
  return `${PROTOCOL_HASH}/scene/${scene}${yours ? '/yours' : ''}${breakIt ? '/break' : ''}${step === null ? '' : `/step/${step}`}`;
}

/** The scene a hash links to; null when it is not a scene link (or names no scene). */
export function parseSceneHash(hash: string): SceneLink | null {
  const match = SCENE_PATTERN.exec(hash);
  if (!match || !(SCENES as readonly string[]).includes(match[1]!)) return null;
  return { scene: match[1] as Scene, yours: match[2] !== undefined, breakIt: match[3] !== undefined, step: match[4] === undefined ? null : Number(match[4]) };
}
