import { describe, expect, it } from 'vitest';
import { encodeFrame } from '../../protocol/framing/index.ts';
import { bytesToBase64, type TapEvent } from '../../runtime/tap-protocol.ts';
import { appendToLog, EMPTY_LOG, TapEventDecoder, type MessageLog } from '../live-session/message-log.ts';
import { getFraming } from '../../protocol/framing/index.ts';
import { framingOfArgv, targetFromLog } from './log-frames.ts';

const first = { jsonrpc: '2.0', id: 0, result: { text: '你好' } };
const second = { jsonrpc: '2.0', id: 1, result: {} };

function logOf(chunks: Uint8Array[]): MessageLog {
  const decoder = new TapEventDecoder(getFraming('content-length'));
  let log = EMPTY_LOG;
  chunks.forEach((chunk, i) => {
    log = appendToLog(log, decoder.decode({ tap: 1, ev: 's2c', t: i, b64: bytesToBase64(chunk) }));
  });
  return log;
}

describe('targetFromLog', () => {
  const a = encodeFrame(first);
  const b = encodeFrame(second);
  const all = new Uint8Array([...a, ...b]);
  // chunk 0: half of frame one; chunk 1: the rest of it, all of frame two and nothing more.
  const log = logOf([all.subarray(0, 10), all.subarray(10, a.length + b.length - 4), all.subarray(a.length + b.length - 4)]);

  it('finds a frame that began in an earlier chunk, with its chunk boundaries', () => {
    const target = targetFromLog(log, 'content-length', 1, 0)!;
    expect(target.bytes).toEqual(a);
    expect(target.value).toEqual(first);
    expect(target.chunks.map((chunk) => [chunk.index, chunk.start, chunk.end])).toEqual([
      [0, 0, 10],
      [1, 10, a.length],
    ]);
    expect(target).toMatchObject({ kind: 'response', streamOffset: 0 });
  });

  it('finds a frame whose last bytes came alone in a small chunk', () => {
    const target = targetFromLog(log, 'content-length', 2, 0)!;
    expect(target.bytes).toEqual(b);
    expect(target.streamOffset).toBe(a.length);
  });

  it('reads only the run the entry belongs to, in the framing its spawn names', () => {
    const decoder = new TapEventDecoder(getFraming('ndjson'));
    let two = log;
    const line = new TextEncoder().encode('{"jsonrpc":"2.0","id":5,"result":{}}\n');
    const events: TapEvent[] = [
      { tap: 1, ev: 'spawn', t: 9, pid: 2, argv: ['node', 'echo-server.mjs', '--framing=ndjson'] },
      { tap: 1, ev: 's2c', t: 10, b64: bytesToBase64(line) },
    ];
    for (const event of events) {
      const entry = decoder.decode(event);
      two = appendToLog(two, { ...entry, seq: entry.seq + 100 });
    }
    const target = targetFromLog(two, 'content-length', 101, 0)!;
    expect(target).toMatchObject({ framing: 'ndjson', streamOffset: 0, value: { id: 5 } });
    expect(target.bytes).toEqual(line);
    expect(framingOfArgv(['node', 'sdk-echo-server.mjs'])).toBe('ndjson');
    expect(framingOfArgv(['node', 'echo-server.mjs'])).toBe('ndjson');
    expect(framingOfArgv(['node', 'echo-server.mjs', '--framing=content-length'])).toBe('content-length');
    expect(framingOfArgv(['node', 'other-server.mjs'])).toBeNull();
  });

  it('answers null for an entry or frame that is not there', () => {
    expect(targetFromLog(log, 'content-length', 0, 0)).toBeNull();
    expect(targetFromLog(log, 'content-length', 99, 0)).toBeNull();
  });
});
