// The attendee's outbox with fake timers: reports go out in order and once, wait while the bridge
// is away (with a growing pause), survive a reload of the page, and stop when the room forgets
// the attendee.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoomReport } from '../../runtime/room-messages.ts';
import type { SendOutcome } from './room-client.ts';
import { ROOM_OUTBOX_KEY, RoomOutbox, type OutboxDeps } from './room-outbox.ts';

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

/** A bridge the test answers by hand: each send waits for `answer`. */
function fakeBridge() {
  const sent: RoomReport[][] = [];
  const answers: ((outcome: SendOutcome) => void)[] = [];
  return {
    sent,
    send: (reports: RoomReport[]) => {
      sent.push(reports);
      return new Promise<SendOutcome>((resolve) => answers.push(resolve));
    },
    answer: async (outcome: SendOutcome) => {
      answers.shift()!(outcome);
      await vi.advanceTimersByTimeAsync(0);
    },
    ackAll: async () => {
      const last = sent.at(-1)!;
      answers.shift()!({ kind: 'acked', seqs: last.map((report) => report.seq) });
      await vi.advanceTimersByTimeAsync(0);
    },
  };
}

beforeEach(() => vi.useFakeTimers({ now: 10_000 }));
afterEach(() => vi.useRealTimers());

function outbox(overrides: Partial<OutboxDeps> & Pick<OutboxDeps, 'send'>, storage = memoryStorage()) {
  const saved: number[] = [];
  const left = vi.fn();
  const box = new RoomOutbox({ storage, now: () => Date.now(), nextSeq: 1, saveNextSeq: (seq) => saved.push(seq), onLeft: left, ...overrides });
  return { box, storage, saved, left };
}

describe('the room outbox', () => {
  it('numbers reports, sends them in order at most one request a second, and forgets them once acknowledged', async () => {
    const bridge = fakeBridge();
    const { box, storage, saved } = outbox({ send: bridge.send });
    box.add({ station: 'exercise-1' });
    await vi.advanceTimersByTimeAsync(0);
    expect(bridge.sent).toEqual([[{ seq: 1, at: 10_000, station: 'exercise-1' }]]);
    box.add({ station: 'exercise-1', run: { exercise: 1, passed: 3, total: 37 } });
    box.add({ station: 'exercise-2' });
    await bridge.ackAll();
    expect(bridge.sent).toHaveLength(1); // the next request waits out the second
    await vi.advanceTimersByTimeAsync(1_000);
    expect(bridge.sent[1]!.map((report) => report.seq)).toEqual([2, 3]);
    await bridge.ackAll();
    expect(box.snapshot).toEqual({ pending: 0, status: 'idle', problem: null });
    expect(storage.items.has(ROOM_OUTBOX_KEY)).toBe(false);
    expect(saved).toEqual([2, 3, 4]);
  });

  it('keeps reports while the bridge is away, waits longer each time, and sends them when it is back', async () => {
    const bridge = fakeBridge();
    const { box } = outbox({ send: bridge.send, maxBackoffMs: 4_000 });
    box.add({ station: 'exercise-3' });
    await vi.advanceTimersByTimeAsync(0);
    await bridge.answer({ kind: 'retry', detail: 'Failed to fetch' });
    expect(box.snapshot).toEqual({ pending: 1, status: 'waiting', problem: 'Failed to fetch' });
    box.add({ station: 'exercise-3', run: { exercise: 3, passed: 1, total: 20 } });
    // Pauses of 1, 2, 4, 4 s: no request in between.
    for (const pause of [1_000, 2_000, 4_000]) {
      await vi.advanceTimersByTimeAsync(pause - 1);
      const before = bridge.sent.length;
      await vi.advanceTimersByTimeAsync(1);
      expect(bridge.sent.length).toBe(before + 1);
      await bridge.answer({ kind: 'retry', detail: 'Failed to fetch' });
    }
    await vi.advanceTimersByTimeAsync(4_000);
    expect(bridge.sent.at(-1)!.map((report) => report.seq)).toEqual([1, 2]);
    await bridge.ackAll();
    expect(box.snapshot.pending).toBe(0);
  });

  it('survives a reload: a new page sends what the old one had not got acknowledged, with new numbers after them', async () => {
    const storage = memoryStorage();
    const first = fakeBridge();
    const { box } = outbox({ send: first.send }, storage);
    box.add({ station: 'exercise-1' });
    await vi.advanceTimersByTimeAsync(0);
    box.stop(); // the page closes before the answer

    const second = fakeBridge();
    const reopened = outbox({ send: second.send, nextSeq: 1 }, storage).box;
    reopened.add({ station: 'exercise-2' });
    await vi.advanceTimersByTimeAsync(0);
    expect(second.sent[0]!.map((report) => [report.seq, report.station])).toEqual([
      [1, 'exercise-1'],
      [2, 'exercise-2'],
    ]);
  });

  it('stops, forgets its reports and says so when the room no longer knows the attendee', async () => {
    const bridge = fakeBridge();
    const { box, left, storage } = outbox({ send: bridge.send });
    box.add({ station: 'welcome' });
    await vi.advanceTimersByTimeAsync(0);
    await bridge.answer({ kind: 'unknown-attendee' });
    expect(left).toHaveBeenCalledOnce();
    expect(box.snapshot.status).toBe('left');
    expect(storage.items.has(ROOM_OUTBOX_KEY)).toBe(false);
    box.add({ station: 'exercise-1' });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(bridge.sent).toHaveLength(1);
  });

  it('drops a batch the bridge refuses for good, and goes on with the rest', async () => {
    const bridge = fakeBridge();
    const { box } = outbox({ send: bridge.send });
    box.add({ station: 'exercise-1' });
    await vi.advanceTimersByTimeAsync(0);
    box.add({ station: 'exercise-2' });
    await bridge.answer({ kind: 'refused', detail: 'report 1: station must be a short lower-case name' });
    expect(box.snapshot).toMatchObject({ pending: 1, problem: 'report 1: station must be a short lower-case name' });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(bridge.sent[1]!.map((report) => report.station)).toEqual(['exercise-2']);
  });
});
