import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../sandbox/spec-results.ts';
import { exerciseUnfinished } from './unfinished.ts';

const done = (status: RunResult['status']) => ({ status: 'done' as const, seq: 1, result: { status, tests: [], durationMs: 1 } });

describe('exerciseUnfinished', () => {
  it('follows the saved mark until the exercise has run in this page', () => {
    expect(exerciseUnfinished(false, { status: 'idle' })).toBe(true);
    expect(exerciseUnfinished(true, { status: 'idle' })).toBe(false);
    expect(exerciseUnfinished(false, { status: 'running', seq: 1, tests: [] })).toBe(true);
  });

  it('then follows the latest run: a completed exercise whose code fails now is unfinished', () => {
    expect(exerciseUnfinished(true, done('fail'))).toBe(true);
    expect(exerciseUnfinished(true, done('error'))).toBe(true);
    expect(exerciseUnfinished(false, done('pass'))).toBe(false);
  });
});
