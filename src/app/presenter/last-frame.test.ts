import { describe, expect, it } from 'vitest';
import type { Arrow, StepRecord } from '../protocol/stepper-records.ts';
import { lastFrameSeq } from './last-frame.ts';

const arrow = (seq: number, frame: boolean): Arrow => ({ seq, direction: 'c2s', kind: frame ? 'request' : 'eof', method: null, id: null, value: null, detail: null, frame: frame ? { offset: 0, length: 10 } : null, chunks: [], t: null, arrivedAt: null, drawnAt: 0, aroundClient: false, exit: null });
const record = (index: number, arrows: Arrow[]): StepRecord => ({ index, step: { kind: 'receive' }, outcome: 'ok', arrows, notes: [], clientState: null, transition: null, pending: [], registry: null, heldBytes: 0 });

describe('the frame `i` opens', () => {
  const records = [record(0, [arrow(1, true)]), record(1, [arrow(2, true), arrow(3, true)]), record(2, [arrow(4, false)]), record(3, [])];

  it('is the last arrow with bytes in the shown steps', () => {
    expect(lastFrameSeq(records, 2)).toBe(3);
    expect(lastFrameSeq(records, 1)).toBe(1);
  });

  it('skips steps whose arrows carry no bytes (EOF, exit) or that drew nothing', () => {
    expect(lastFrameSeq(records, 4)).toBe(3);
  });

  it('is nothing before the first step', () => {
    expect(lastFrameSeq(records, 0)).toBeNull();
    expect(lastFrameSeq([], 3)).toBeNull();
  });
});
