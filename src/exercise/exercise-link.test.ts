import { describe, expect, it } from 'vitest';
import { exerciseHash, exerciseIdOfHash } from './exercise-link.ts';

describe('exercise links', () => {
  it('reads the id a #exercise= hash names, and round-trips it', () => {
    expect(exerciseIdOfHash('#exercise=07-stateless-era')).toBe('07-stateless-era');
    expect(exerciseIdOfHash(exerciseHash('03-client'))).toBe('03-client');
  });

  it('refuses anything that is not an exercise id', () => {
    for (const hash of ['', '#exercise=', '#exercise=7', '#exercise=07_Client', '#exercise=07-a/b', '#share=abc', '#protocol', 'exercise=03-client']) {
      expect(exerciseIdOfHash(hash), hash).toBeUndefined();
    }
  });
});
