import { describe, expect, it } from 'vitest';
import { joinCodeOfHash, viewOfHash } from './router.ts';

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

  it('opens the workshop room at #room, #join and #join=CODE, and reads the code a join link carries', () => {
    expect([viewOfHash('#room'), viewOfHash('#join'), viewOfHash('#join=K7QM2X'), viewOfHash('#joined'), viewOfHash('#rooms')]).toEqual(['room', 'room', 'room', 'study', 'study']);
    expect(joinCodeOfHash('#join=k7q-m2x')).toBe('k7q-m2x');
    expect(joinCodeOfHash('#join=%E4%BD%A0')).toBe('你');
    expect(joinCodeOfHash('#join')).toBe('');
    expect(joinCodeOfHash('#room')).toBe('');
  });

  it('still opens the Chapter loop at its first address, #agent', () => {
    expect(viewOfHash('#agent')).toBe('chapter-loop');
    expect(viewOfHash('#agent/x')).toBe('chapter-loop');
    expect(viewOfHash('#agents')).toBe('study');
  });
});
