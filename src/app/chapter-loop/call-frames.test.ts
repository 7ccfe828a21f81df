import { describe, expect, it } from 'vitest';
import type { Arrow } from '../protocol/stepper-records.ts';
import { framesOfCall, turnRecords } from './call-frames.ts';

const arrow = (seq: number, direction: 'c2s' | 's2c', kind: Arrow['kind'], method: string | null, id: number | null): Arrow => ({
  seq, direction, kind, method, id, value: null, detail: null, frame: { offset: 0, length: 1 }, chunks: [], t: null, arrivedAt: 0, drawnAt: 0, aroundClient: false, exit: null,
});

// Handshake and list (0-4), call 1 (5, 6), call 2's request (7) whose answer arrives after call 3's request (8).
const arrows = [
  arrow(0, 'c2s', 'request', 'initialize', 0),
  arrow(1, 's2c', 'response', 'initialize', 0),
  arrow(2, 'c2s', 'notification', 'notifications/initialized', null),
  arrow(3, 'c2s', 'request', 'tools/list', 1),
  arrow(4, 's2c', 'response', 'tools/list', 1),
  arrow(5, 'c2s', 'request', 'tools/call', 2),
  arrow(6, 's2c', 'response', 'tools/call', 2),
  arrow(7, 'c2s', 'request', 'tools/call', 3),
  arrow(8, 'c2s', 'request', 'tools/call', 4),
  arrow(9, 's2c', 'response', 'tools/call', 4),
  arrow(10, 's2c', 'error-response', 'tools/call', 3),
];
const windows = [
  { call: 1, name: 'a', firstSeq: 5, endSeq: 7 },
  { call: 2, name: 'b', firstSeq: 7, endSeq: 8 },
  { call: 3, name: 'c', firstSeq: 8, endSeq: null },
  { call: 4, name: 'denied', firstSeq: 11, endSeq: 11 },
];

describe('frames of a call', () => {
  it('takes the requests sent in the window and pairs responses by id, not by order', () => {
    expect(framesOfCall(windows[1]!, arrows)).toMatchObject({ requests: [{ seq: 7 }], responses: [{ seq: 10, kind: 'error-response' }] });
    expect(framesOfCall(windows[2]!, arrows)).toMatchObject({ requests: [{ seq: 8 }], responses: [{ seq: 9 }] });
    expect(framesOfCall(windows[3]!, arrows)).toEqual({ call: 4, requests: [], responses: [] });
  });

  it('draws the handshake in band 0 and each call that sent something in its own band', () => {
    const { records, bandOfCall } = turnRecords(arrows, windows);
    expect(records.map((record) => record.arrows.map((a) => a.seq))).toEqual([[0, 1, 2, 3, 4], [5, 6], [7, 10], [8, 9]]);
    expect([...bandOfCall]).toEqual([[1, 1], [2, 2], [3, 3]]);
  });
});
