import { describe, expect, it } from 'vitest';
import { readCatalogueFromDisk } from '../../../tools/catalogue-node.ts';
import { viewOfHash } from '../router.ts';
import { parseSceneHash } from '../protocol/step-link.ts';
import { sceneCards } from '../protocol/scenes.ts';
import { afterStation, breakItOf, liveSceneOf, nextExerciseId, stationAt, type StationKind } from './next-station.ts';
import en from '../../locales/en/exercise.json';
import zh from '../../locales/zh-CN/exercise.json';

// The exercises on the learner's path: the page's catalogue (a draft is not on it).
const orders = readCatalogueFromDisk().exercises.map((exercise) => exercise.meta.order);

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

  it('every exercise whose code a failure card meets links to those cards, open, named in both languages; 1 and 4 have none', () => {
    const withCards = orders.filter((order) => breakItOf(order) !== undefined).sort();
    expect(withCards).toEqual([2, 3, 5, 6, 7, 8]);
    for (const order of withCards) {
      const station = breakItOf(order)!;
      const link = parseSceneHash(station.hash);
      expect(link, `exercise ${order}`).toMatchObject({ breakIt: true, yours: false });
      // The scene it lands on has the cards it names: the stdio lab, the era cards, the HTTP cards or the sign-in's.
      expect(sceneCards(link!.scene)).toBe({ reader: 'lab', client: 'lab', register: 'lab', http: 'http', era: 'era', auth: 'auth' }[station.key]);
      const names = [en, zh].map((text) => (text as { next: { break: Record<string, string> } }).next.break[station.key]);
      expect(names.every((name) => typeof name === 'string' && name.length > 0), `exercise ${order}: ${station.key}`).toBe(true);
    }
  });

  it('"Next" alone walks every station of every exercise: live scene, then its cards if it has any, then the next exercise', () => {
    const walked: string[] = [];
    for (const order of [...orders].sort((a, b) => a - b)) {
      let kind: StationKind | null = 'live';
      while (kind !== null) {
        const hash: string = kind === 'live' ? liveSceneOf(order)!.hash : breakItOf(order)!.hash;
        // The address names the station back, for the exercise the learner is on.
        expect(stationAt(order, hash), `exercise ${order}: ${hash}`).toBe(kind);
        walked.push(`${order} ${kind}`);
        const after = afterStation(order, kind);
        kind = 'breakIt' in after ? 'break' : null;
        if ('breakIt' in after) expect(after.breakIt).toBe(breakItOf(order));
      }
    }
    expect(walked).toEqual(['1 live', '2 live', '2 break', '3 live', '3 break', '4 live', '5 live', '5 break', '6 live', '6 break', '7 live', '7 break', '8 live', '8 break']);
    // Another exercise's address is no station of this one; the cards come after the scene, never before.
    expect(stationAt(1, breakItOf(2)!.hash)).toBeNull();
    expect(stationAt(4, liveSceneOf(5)!.hash)).toBeNull();
    expect(stationAt(3, '#protocol')).toBeNull();
    expect(afterStation(2, 'break')).toEqual({ nextExercise: true });
  });

  it('walks the chapter in order and ends after the last', () => {
    const ids = ['01-a', '02-b', '03-c'];
    expect(nextExerciseId(ids, '01-a')).toBe('02-b');
    expect(nextExerciseId(ids, '02-b')).toBe('03-c');
    expect(nextExerciseId(ids, '03-c')).toBeUndefined();
    expect(nextExerciseId(ids, 'none')).toBeUndefined();
  });
});
