import { describe, expect, it } from 'vitest';
import { viewOfHash } from './router.ts';

describe('the view chosen by the hash', () => {
  it('tells the views apart', () => {
    expect(viewOfHash('#protocol')).toBe('protocol');
    expect(viewOfHash('#protocol/step/3')).toBe('protocol');
    expect(viewOfHash('#chapter-loop')).toBe('chapter-loop');
    expect(viewOfHash('#chapter-loop/x')).toBe('chapter-loop');
    expect(viewOfHash('#chapter-loops')).toBe('study');
    expect(viewOfHash('#preflight')).toBe('preflight');
    expect(viewOfHash('#workspace')).toBe('study');
    expect(viewOfHash('')).toBe('study');
  });

  it('still opens the Chapter loop at its first address, #agent', () => {
    expect(viewOfHash('#agent')).toBe('chapter-loop');
    expect(viewOfHash('#agent/x')).toBe('chapter-loop');
    expect(viewOfHash('#agents')).toBe('study');
  });
});
