import { describe, expect, it } from 'vitest';
import { viewOfHash } from './router.ts';

describe('the view chosen by the hash', () => {
  it('tells the three views apart', () => {
    expect(viewOfHash('#protocol')).toBe('protocol');
    expect(viewOfHash('#protocol/step/3')).toBe('protocol');
    expect(viewOfHash('#agent')).toBe('agent');
    expect(viewOfHash('#agent/x')).toBe('agent');
    expect(viewOfHash('#agents')).toBe('study');
    expect(viewOfHash('#workspace')).toBe('study');
    expect(viewOfHash('')).toBe('study');
  });
});
