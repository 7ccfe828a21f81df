import { afterEach, describe, expect, it, vi } from 'vitest';
import { Listeners } from './client-events.ts';

describe('Listeners', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('delivers each event to every listener, in subscription order, until unsubscribed', () => {
    const listeners = new Listeners<number>();
    const seen: string[] = [];
    const stopA = listeners.add((n) => seen.push(`a${n}`));
    listeners.add((n) => seen.push(`b${n}`));
    listeners.emit(1);
    stopA();
    listeners.emit(2);
    expect(seen).toEqual(['a1', 'b1', 'b2']);
  });

  it('keeps going when a listener throws, and rethrows its error outside the emit', () => {
    const rethrown: Array<() => void> = [];
    vi.stubGlobal('queueMicrotask', (task: () => void) => rethrown.push(task));
    const listeners = new Listeners<string>();
    const seen: string[] = [];
    listeners.add(() => {
      throw new Error('ui bug');
    });
    listeners.add((event) => seen.push(event));
    expect(() => listeners.emit('frame')).not.toThrow();
    expect(seen).toEqual(['frame']);
    expect(rethrown).toHaveLength(1);
    expect(() => rethrown[0]!()).toThrow('ui bug');
  });
});
