import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HOLD_MS, LineBatch, type BatchClock } from './line-batch.ts';

/** A clock whose turns end, and whose held lines time out, when the test says so. */
function manualClock(): BatchClock & { endTurn(): void; elapse(ms: number): void } {
  let turn: Array<() => void> = [];
  let timers: Array<{ due: number; flush: () => void }> = [];
  let now = 0;
  return {
    endOfTurn: (flush) => void turn.push(flush),
    after: (ms, flush) => {
      const timer = { due: now + ms, flush };
      timers.push(timer);
      return () => (timers = timers.filter((other) => other !== timer));
    },
    endTurn: () => {
      const run = turn;
      turn = [];
      for (const flush of run) flush();
    },
    elapse: (ms) => {
      now += ms;
      const due = timers.filter((timer) => timer.due <= now);
      timers = timers.filter((timer) => timer.due > now);
      for (const timer of due) timer.flush();
    },
  };
}

describe('LineBatch', () => {
  it("delivers nothing during the turn, then the turn's lines as one text", () => {
    const clock = manualClock();
    const delivered: string[] = [];
    const batch = new LineBatch((text) => delivered.push(text), clock);
    batch.add('a');
    batch.add('b');
    batch.add('c');
    expect(delivered).toEqual([]);
    clock.endTurn();
    expect(delivered).toEqual(['a\nb\nc']);
    batch.add('d');
    clock.endTurn();
    expect(delivered).toEqual(['a\nb\nc', 'd']);
  });

  it('with the real clock, delivers by the end of the current event-loop turn', async () => {
    const delivered: string[] = [];
    const batch = new LineBatch((text) => delivered.push(text));
    batch.add('one');
    batch.add('two');
    await new Promise((resolve) => setImmediate(resolve));
    expect(delivered).toEqual(['one\ntwo']);
  });

  it('holds a line nobody waits for until the next awaited line, and sends both in one message', () => {
    const clock = manualClock();
    const delivered: string[] = [];
    const batch = new LineBatch((text) => delivered.push(text), clock);
    batch.add('c2s', true);
    clock.endTurn();
    expect(delivered).toEqual([]);
    batch.add('stderr', true);
    batch.add('s2c');
    clock.endTurn();
    expect(delivered).toEqual(['c2s\nstderr\ns2c']);
    clock.elapse(HOLD_MS);
    expect(delivered).toHaveLength(1);
  });

  it('never holds a line longer than HOLD_MS', () => {
    const clock = manualClock();
    const delivered: string[] = [];
    const batch = new LineBatch((text) => delivered.push(text), clock);
    batch.add('c2s of a notification', true);
    clock.endTurn();
    clock.elapse(HOLD_MS - 1);
    expect(delivered).toEqual([]);
    clock.elapse(1);
    expect(delivered).toEqual(['c2s of a notification']);
  });

  it('flush() delivers at once, clear() drops, and an empty batch delivers nothing', () => {
    const clock = manualClock();
    const delivered: string[] = [];
    const batch = new LineBatch((text) => delivered.push(text), clock);
    batch.add('now');
    batch.flush();
    expect(delivered).toEqual(['now']);
    batch.add('dropped', true);
    batch.clear();
    clock.endTurn();
    clock.elapse(HOLD_MS);
    batch.flush();
    expect(delivered).toEqual(['now']);
  });

  it('sends a big batch without waiting for the end of the turn', () => {
    const clock = manualClock();
    const delivered: string[] = [];
    const batch = new LineBatch((text) => delivered.push(text), clock);
    const big = 'x'.repeat(200 * 1024);
    batch.add(big, true);
    expect(delivered).toEqual([]);
    batch.add(big, true);
    expect(delivered).toEqual([`${big}\n${big}`]);
    clock.endTurn();
    clock.elapse(HOLD_MS);
    expect(delivered).toHaveLength(1);
  });

  it('loses, reorders and splits no line, whatever mix of held and awaited lines (property)', () => {
    const line = fc.record({ text: fc.string({ minLength: 1, maxLength: 40 }).filter((text) => !text.includes('\n')), canWait: fc.boolean() });
    fc.assert(
      fc.property(fc.array(fc.array(line, { maxLength: 8 }), { maxLength: 12 }), (turnsOfLines) => {
        const clock = manualClock();
        const delivered: string[] = [];
        const batch = new LineBatch((text) => delivered.push(text), clock);
        for (const lines of turnsOfLines) {
          for (const { text, canWait } of lines) batch.add(text, canWait);
          clock.endTurn();
          clock.elapse(1);
        }
        clock.elapse(HOLD_MS);
        expect(delivered.flatMap((text) => text.split('\n'))).toEqual(turnsOfLines.flat().map(({ text }) => text));
        // At most one message per turn that had lines.
        expect(delivered.length).toBeLessThanOrEqual(turnsOfLines.filter((lines) => lines.length > 0).length);
      }),
    );
  });
});
