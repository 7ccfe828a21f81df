import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../../tools/project-root.ts';
import { viewOfHash } from '../router.ts';
import { liveSceneOf, nextExerciseId } from './next-station.ts';
import en from '../../locales/en/exercise.json';
import zh from '../../locales/zh-CN/exercise.json';

const orders = readdirSync(join(PROJECT_ROOT, 'exercises'))
  .filter((name) => /^\d\d-/.test(name))
  .map((name) => (JSON.parse(readFileSync(join(PROJECT_ROOT, 'exercises', name, 'meta.json'), 'utf8')) as { order: number }).order);

describe('the next station after an exercise passes', () => {
  it('every exercise has a live scene in a view other than the study view, named in both languages', () => {
    expect(orders.length).toBeGreaterThanOrEqual(7);
    for (const order of orders) {
      const scene = liveSceneOf(order);
      expect(scene, `exercise ${order}`).toBeDefined();
      expect(viewOfHash(scene!.hash)).not.toBe('study');
      const scenes = [en, zh].map((text) => (text as { next: { scene: Record<string, string> } }).next.scene[scene!.key]);
      expect(scenes.every((name) => typeof name === 'string' && name.length > 0), `exercise ${order}: ${scene!.key}`).toBe(true);
    }
  });

  it('walks the chapter in order and ends after the last', () => {
    const ids = ['01-a', '02-b', '03-c'];
    expect(nextExerciseId(ids, '01-a')).toBe('02-b');
    expect(nextExerciseId(ids, '02-b')).toBe('03-c');
    expect(nextExerciseId(ids, '03-c')).toBeUndefined();
    expect(nextExerciseId(ids, 'none')).toBeUndefined();
  });
});
