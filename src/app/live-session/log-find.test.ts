import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getFraming } from '../../protocol/framing/index.ts';
import { bytesToBase64, type TapEvent } from '../../runtime/tap-protocol.ts';
import { EMPTY_QUERY, entryHasText, entryKinds, entryMatches, filterEntries, filterInSlices, findPartner, isQueryActive, methodsOf, parseTimeBound, timeSpan, type LogQuery } from './log-find.ts';
import { LogFindStore } from './log-find-store.ts';
import { TapEventDecoder, type LogEntry } from './message-log.ts';

const encoder = new TextEncoder();

function bytesEvent(ev: 'c2s' | 's2c' | 'stderr', text: string, t: number): TapEvent {
  return { tap: 1, ev, t, b64: bytesToBase64(encoder.encode(text)) };
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** A small NDJSON session: handshake, a tool call that fails, a stray line, stderr, and a second run. */
function session(): LogEntry[] {
  const decoder = new TapEventDecoder(getFraming('ndjson'));
  const events: TapEvent[] = [
    { tap: 1, ev: 'spawn', t: 0, pid: 10, argv: ['node', 'server.mjs'] },
    bytesEvent('c2s', line({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { clientInfo: { name: 'Ada' } } }), 1), // seq 1
    bytesEvent('s2c', line({ jsonrpc: '2.0', id: 0, result: { serverInfo: { name: 'echo' } } }), 2), // seq 2
    bytesEvent('c2s', line({ jsonrpc: '2.0', method: 'notifications/initialized' }) + line({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fail' } }), 3), // seq 3
    bytesEvent('stderr', 'warning: 你好 something odd\n', 4), // seq 4
    bytesEvent('s2c', 'garbage line\n', 5), // seq 5
    bytesEvent('s2c', line({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'It failed on purpose' } }), 6), // seq 6
    { tap: 1, ev: 'exit', t: 7, code: 0, signal: null }, // seq 7
    { tap: 1, ev: 'spawn', t: 8, pid: 11, argv: ['node', 'server.mjs'] }, // seq 8
    bytesEvent('c2s', line({ jsonrpc: '2.0', id: 1, method: 'ping' }), 9), // seq 9
  ];
  return events.map((event) => decoder.decode(event));
}

const query = (patch: Partial<LogQuery>): LogQuery => ({ ...EMPTY_QUERY, ...patch });
const seqs = (entries: readonly LogEntry[]) => entries.map((entry) => entry.seq);
const none = new Set<number>();

describe('find in the message log', () => {
  const entries = session();

  it('shows every entry when no criterion is set', () => {
    expect(isQueryActive(EMPTY_QUERY)).toBe(false);
    expect(filterEntries(entries, EMPTY_QUERY, none)).toBe(entries);
  });

  it('searches methods, ids and text in the body, ignoring case, across languages', () => {
    expect(seqs(filterEntries(entries, query({ text: 'TOOLS/CALL' }), none))).toEqual([3, 6]); // the error response answers tools/call
    expect(seqs(filterEntries(entries, query({ text: 'ada' }), none))).toEqual([1]);
    expect(seqs(filterEntries(entries, query({ text: 'on purpose' }), none))).toEqual([6]);
    expect(seqs(filterEntries(entries, query({ text: '你好' }), none))).toEqual([4]);
    expect(seqs(filterEntries(entries, query({ text: '#1' }), none))).toEqual([3, 6, 9]);
    expect(seqs(filterEntries(entries, query({ text: 'garbage' }), none))).toEqual([5]);
    expect(seqs(filterEntries(entries, query({ text: 'nothing like this' }), none))).toEqual([]);
  });

  it('filters by direction: entries without one (stderr, the process) drop out', () => {
    expect(seqs(filterEntries(entries, query({ directions: ['c2s'] }), none))).toEqual([1, 3, 9]);
    expect(seqs(filterEntries(entries, query({ directions: ['s2c'] }), none))).toEqual([2, 5, 6]);
    expect(seqs(filterEntries(entries, query({ directions: ['c2s', 's2c'] }), none))).toEqual([1, 2, 3, 5, 6, 9]);
  });

  it('tells the kinds apart: request, notification, response, error, stray bytes, stderr', () => {
    expect(entryKinds(entries[3]!)).toEqual(['notification', 'request']);
    expect(entryKinds(entries[5]!)).toEqual(['stray']);
    expect(entryKinds(entries[6]!)).toEqual(['error']);
    expect(seqs(filterEntries(entries, query({ kinds: ['request'] }), none))).toEqual([1, 3, 9]);
    expect(seqs(filterEntries(entries, query({ kinds: ['notification'] }), none))).toEqual([3]);
    expect(seqs(filterEntries(entries, query({ kinds: ['response'] }), none))).toEqual([2]);
    expect(seqs(filterEntries(entries, query({ kinds: ['error', 'stray'] }), none))).toEqual([5, 6]);
    expect(seqs(filterEntries(entries, query({ kinds: ['stderr'] }), none))).toEqual([4]);
  });

  it('filters by method, counting a response under the method it answers', () => {
    expect(methodsOf(entries)).toEqual(['initialize', 'notifications/initialized', 'ping', 'tools/call']);
    expect(seqs(filterEntries(entries, query({ method: 'initialize' }), none))).toEqual([1, 2]);
    expect(seqs(filterEntries(entries, query({ method: 'tools/call' }), none))).toEqual([3, 6]);
  });

  it('filters by time range, both ends included', () => {
    expect(timeSpan(entries)).toEqual({ first: 0, last: 9 });
    expect(seqs(filterEntries(entries, query({ from: 2, to: 4 }), none))).toEqual([2, 3, 4]);
    expect(seqs(filterEntries(entries, query({ from: 8 }), none))).toEqual([8, 9]);
    expect(parseTimeBound(' 12.5 ')).toBe(12.5);
    expect(parseTimeBound('')).toBeNull();
    expect(parseTimeBound('soon')).toBeNull();
  });

  it('combines criteria with AND and keeps pinned or revealed entries on request', () => {
    expect(seqs(filterEntries(entries, query({ directions: ['c2s'], text: 'ping' }), none))).toEqual([9]);
    expect(seqs(filterEntries(entries, query({ pinnedOnly: true }), new Set([2, 6])))).toEqual([2, 6]);
    expect(seqs(filterEntries(entries, query({ text: 'ping' }), none, 1))).toEqual([1, 9]);
    const decoder = new TapEventDecoder(getFraming('ndjson'));
    const closed = decoder.closed('socket closed');
    expect(entryMatches(closed, query({ from: 0 }), none)).toBe(false);
  });
});

describe('filtering a long log a slice at a time', () => {
  const entries = session();

  it('gives what filterEntries gives, one slice per scheduled task, and can be cancelled', () => {
    const tasks: (() => void)[] = [];
    const schedule = (run: () => void) => {
      tasks.push(run);
      return () => tasks.splice(tasks.indexOf(run), 1);
    };
    const q = query({ directions: ['s2c'] });
    let result: readonly LogEntry[] | null = null;
    filterInSlices(entries, q, none, null, (shown) => (result = shown), { slice: 3, schedule });
    let runs = 0;
    while (tasks.length > 0) {
      expect(result).toBeNull();
      tasks.shift()!();
      runs++;
    }
    expect(runs).toBe(Math.ceil(entries.length / 3));
    expect(seqs(result!)).toEqual(seqs(filterEntries(entries, q, none)));

    let cancelled: readonly LogEntry[] | null = null;
    const cancel = filterInSlices(entries, q, none, 1, (shown) => (cancelled = shown), { slice: 3, schedule });
    tasks.shift()!();
    cancel();
    expect(tasks).toEqual([]);
    expect(cancelled).toBeNull();
  });

  it('answers at once when there is nothing to filter', () => {
    let result: readonly LogEntry[] | null = null;
    filterInSlices(entries, EMPTY_QUERY, none, null, (shown) => (result = shown));
    expect(result).toBe(entries);
  });
});

describe('go to the request or response of an id', () => {
  const entries = session();

  it('goes from a request to its response and back', () => {
    expect(findPartner(entries, 1, 0)).toEqual({ seq: 2, frameIndex: 0 });
    expect(findPartner(entries, 2, 0)).toEqual({ seq: 1, frameIndex: 0 });
    // The second frame of seq 3 is tools/call #1; its answer is an error response.
    expect(findPartner(entries, 3, 1)).toEqual({ seq: 6, frameIndex: 0 });
    expect(findPartner(entries, 6, 0)).toEqual({ seq: 3, frameIndex: 1 });
  });

  it('finds nothing for notifications, stray bytes, or across a restart (ids start again)', () => {
    expect(findPartner(entries, 3, 0)).toBeNull();
    expect(findPartner(entries, 5, 0)).toBeNull();
    // ping #1 after the second spawn must not pair with the first run's error response #1.
    expect(findPartner(entries, 9, 0)).toBeNull();
    expect(findPartner(entries, 99, 0)).toBeNull();
  });

  it('the store remembers the jump, or the miss, and pins toggle', () => {
    const find = new LogFindStore();
    expect(find.goToPartner(entries, 1, 0)).toEqual({ seq: 2, frameIndex: 0 });
    const first = find.getSnapshot().target;
    find.goToPartner(entries, 1, 0);
    expect(find.getSnapshot().target?.at).not.toBe(first?.at);
    find.setText('ping');
    expect(find.getSnapshot().target).toBeNull();
    find.goToPartner(entries, 9, 0);
    expect(find.getSnapshot()).toMatchObject({ target: null, missing: { seq: 9, frameIndex: 0 } });
    find.togglePin(4);
    find.togglePin(6);
    find.togglePin(4);
    expect([...find.getSnapshot().pins]).toEqual([6]);
    find.toggleKind('error');
    find.toggleDirection('s2c');
    find.setText('x');
    expect(find.getSnapshot().query).toMatchObject({ kinds: ['error'], directions: ['s2c'], text: 'x' });
    find.toggleKind('error');
    expect(find.getSnapshot().query.kinds).toEqual([]);
    find.clearQuery();
    expect(find.getSnapshot().query).toEqual(EMPTY_QUERY);
    find.reset();
    expect(find.getSnapshot().pins.size).toBe(0);
  });
});

describe('search text', () => {
  it('finds a needle in any case exactly where lowercasing both would (regex characters, CJK, spaces)', () => {
    const piece = fc.constantFrom('a', 'B', 'ç', 'Ç', '你', '好', '.', '*', '(', ']', '\\', '$', '^', '|', ' ', '-', '"', '{');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(piece, { minLength: 1, maxLength: 4 }), (text, needle) => {
        const entry: LogEntry = { seq: 0, t: 0, type: 'stderr', byteLength: 0, text: text.join('') };
        const expected = text.join('').toLowerCase().includes(needle.join('').toLowerCase());
        expect(entryHasText(entry, needle.join(''))).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });
});
