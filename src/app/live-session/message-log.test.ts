import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getFraming } from '../../protocol/framing/index.ts';
import { FRAMING_NAMES } from '../../protocol/framing/types.ts';
import { bytesToBase64, type TapEvent } from '../../runtime/tap-protocol.ts';
import { appendToLog, EMPTY_LOG, TapEventDecoder, type LogEntry } from './message-log.ts';

function chunkEvent(ev: 'c2s' | 's2c' | 'stderr', bytes: Uint8Array, t = 0): TapEvent {
  return { tap: 1, ev, t, b64: bytesToBase64(bytes) };
}

function concat(parts: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
}

/** Cut `bytes` at the given positions (any order, duplicates allowed). */
function cut(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const points = [...new Set(positions.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const point of [...points, bytes.length]) {
    if (point > start) chunks.push(bytes.slice(start, point));
    start = point;
  }
  return chunks;
}

const message = fc.record({
  jsonrpc: fc.constant('2.0'),
  id: fc.oneof(fc.nat(), fc.string()),
  method: fc.string({ minLength: 1 }),
  params: fc.dictionary(fc.string(), fc.string({ unit: 'grapheme' })),
});

describe('TapEventDecoder', () => {
  for (const name of FRAMING_NAMES) {
    it(`any split of a ${name} stream shows the same messages, each in the chunk that completes it`, () => {
      fc.assert(
        fc.property(fc.array(message, { minLength: 1, maxLength: 5 }), fc.array(fc.nat(), { maxLength: 12 }), (messages, positions) => {
          const framing = getFraming(name);
          const stream = concat(messages.map((m) => framing.encode(m)));
          const decoder = new TapEventDecoder(framing);
          const entries = cut(stream, positions).map((chunk) => decoder.decode(chunkEvent('c2s', chunk)));
          const bytes = entries.filter((entry): entry is Extract<LogEntry, { type: 'bytes' }> => entry.type === 'bytes');
          expect(bytes.flatMap((entry) => entry.frames.map((frame) => (frame.type === 'message' ? frame.value : frame)))).toEqual(messages);
          expect(bytes.reduce((sum, entry) => sum + entry.bytes.length, 0)).toBe(stream.length);
          expect(bytes.at(-1)?.bufferedBytes).toBe(0);
        }),
        { numRuns: 150 },
      );
    });
  }

  it('keeps the two directions apart: a half frame on stdin does not disturb stdout', () => {
    const framing = getFraming('content-length');
    const decoder = new TapEventDecoder(framing);
    const request = framing.encode({ jsonrpc: '2.0', id: 7, method: 'tools/list' });
    const response = framing.encode({ jsonrpc: '2.0', id: 7, result: { tools: [] } });
    const half = decoder.decode(chunkEvent('c2s', request.slice(0, 5)));
    expect(half).toMatchObject({ type: 'bytes', frames: [], bufferedBytes: 5 });
    decoder.decode(chunkEvent('c2s', request.slice(5)));
    expect(decoder.decode(chunkEvent('s2c', response))).toMatchObject({
      frames: [{ type: 'message', kind: 'response', method: 'tools/list', id: 7, startedEarlier: false }],
      bufferedBytes: 0,
    });
  });

  it('classifies notifications, error responses and JSON that is not JSON-RPC', () => {
    const framing = getFraming('ndjson');
    const decoder = new TapEventDecoder(framing);
    const text = [
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}',
      '{"jsonrpc":"2.0","result":{}}',
      '[1,2]',
      'not json',
      '',
    ].join('\n');
    const entry = decoder.decode(chunkEvent('s2c', new TextEncoder().encode(text)));
    expect(entry.type === 'bytes' && entry.frames.map((frame) => (frame.type === 'message' ? frame.kind : `error:${frame.kind}`))).toEqual([
      'notification',
      'error-response',
      'invalid',
      'invalid',
      'error:bad-json',
    ]);
  });

  it('decodes stderr as a stream, so a character split across chunks arrives whole', () => {
    const decoder = new TapEventDecoder(getFraming('ndjson'));
    const bytes = new TextEncoder().encode('你好\n');
    const first = decoder.decode(chunkEvent('stderr', bytes.slice(0, 2)));
    const second = decoder.decode(chunkEvent('stderr', bytes.slice(2)));
    expect(first).toMatchObject({ type: 'stderr', byteLength: 2, text: '' });
    expect(second).toMatchObject({ type: 'stderr', byteLength: 5, text: '你好\n' });
  });

  it('turns exit, error and spawn events into system entries with increasing seq', () => {
    const decoder = new TapEventDecoder(getFraming('ndjson'));
    const entries = [
      decoder.decode({ tap: 1, ev: 'spawn', t: 0, pid: 3, argv: ['node'] }),
      decoder.decode({ tap: 1, ev: 'error', t: 1, message: 'boom' }),
      decoder.decode({ tap: 1, ev: 'exit', t: 2, code: 1, signal: null }),
      decoder.closed('socket closed'),
    ];
    expect(entries.map((entry) => [entry.seq, entry.type])).toEqual([
      [0, 'spawn'],
      [1, 'error'],
      [2, 'exit'],
      [3, 'closed'],
    ]);
    expect(entries[3]).toMatchObject({ t: null, reason: 'socket closed' });
  });
});

describe('appendToLog', () => {
  it('never mutates the previous log and drops the oldest beyond the cap', () => {
    const decoder = new TapEventDecoder(getFraming('ndjson'));
    let log = EMPTY_LOG;
    const snapshots = [];
    for (let i = 0; i < 4; i++) {
      snapshots.push(log);
      log = appendToLog(log, decoder.closed(`r${i}`), 3);
    }
    expect(log.entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(log.dropped).toBe(1);
    expect(snapshots.map((snapshot) => snapshot.entries.length)).toEqual([0, 1, 2, 3]);
  });
});
