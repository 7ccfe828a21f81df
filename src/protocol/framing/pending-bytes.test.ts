import { describe, expect, it } from 'vitest';
import { PendingBytes } from './pending-bytes.ts';

const bytes = (...values: number[]) => new Uint8Array(values);

describe('PendingBytes', () => {
  it('hands back the tail itself, uncopied, when nothing is held', () => {
    const pending = new PendingBytes();
    const tail = bytes(1, 2, 3);
    expect(pending.takeWith(tail)).toBe(tail);
  });

  it('joins the held parts and the tail in order, then is empty', () => {
    const pending = new PendingBytes();
    pending.add(bytes(1, 2));
    pending.add(bytes());
    pending.add(bytes(3));
    expect(pending.length).toBe(3);
    expect([...pending.takeWith(bytes(4, 5))]).toEqual([1, 2, 3, 4, 5]);
    expect(pending.length).toBe(0);
    expect([...pending.takeWith(bytes(6))]).toEqual([6]);
  });

  it('joins parts bigger than its scratch buffer into an array of their own', () => {
    const pending = new PendingBytes();
    const big = new Uint8Array(100_000).fill(7);
    pending.add(big);
    const whole = pending.takeWith(bytes(8));
    expect(whole.length).toBe(100_001);
    expect(whole.buffer.byteLength).toBe(100_001);
    expect(whole[99_999]).toBe(7);
    expect(whole[100_000]).toBe(8);
  });

  it('forgets everything on clear', () => {
    const pending = new PendingBytes();
    pending.add(bytes(1));
    pending.clear();
    expect(pending.length).toBe(0);
    expect([...pending.takeWith(bytes(2))]).toEqual([2]);
  });
});
