import { describe, expect, it } from 'vitest';
import { FrameReader, encodeFrame, encodeLine, getFraming } from '../framing/index.ts';
import type { FrameReader as FrameReaderContract } from '../framing/types.ts';
import { ByteStream } from './byte-stream.ts';
import { chunkSpans, compareReplays, heldBytes, replayChunks, replayInput, sanitizeReadItems } from './chunk-replay.ts';

const first = { jsonrpc: '2.0', id: 0, result: { text: '你好' } };
const second = { jsonrpc: '2.0', id: 1, result: {} };

/** Two frames arriving as: 5 bytes, the rest of frame one plus 3 bytes of frame two, the rest. */
function splitStream() {
  const a = encodeFrame(first);
  const b = encodeFrame(second);
  const all = new Uint8Array([...a, ...b]);
  const stream = new ByteStream('s2c');
  stream.append(all.subarray(0, 5), 1, 1);
  stream.append(all.subarray(5, a.length + 3), 2, 2);
  stream.append(all.subarray(a.length + 3), 3, 3);
  return { stream, a, b };
}

describe('ByteStream', () => {
  it('keeps every byte and where each chunk began, growing past its first buffer', () => {
    const stream = new ByteStream('c2s');
    const big = new Uint8Array(3000).fill(7);
    stream.append(new Uint8Array([1, 2]), null, 0);
    stream.append(big, 5, 6);
    expect(stream.length).toBe(3002);
    expect(stream.chunks.map((chunk) => [chunk.offset, chunk.length])).toEqual([
      [0, 2],
      [2, 3000],
    ]);
    expect([...stream.slice(0, 3)]).toEqual([1, 2, 7]);
  });
});

describe('chunkSpans', () => {
  it('places chunk boundaries inside each frame, a shared chunk in both', () => {
    const { stream, a, b } = splitStream();
    expect(chunkSpans(stream.chunks, 0, a.length)).toEqual([
      { index: 0, start: 0, end: 5, chunkLength: 5, t: 1 },
      { index: 1, start: 5, end: a.length, chunkLength: a.length - 2, t: 2 },
    ]);
    expect(chunkSpans(stream.chunks, a.length, b.length).map((span) => [span.index, span.start, span.end])).toEqual([
      [1, 0, 3],
      [2, 3, b.length],
    ]);
  });
});

describe('replayChunks', () => {
  it('shows the reference reader holding bytes until a frame completes, then emitting it', () => {
    const { stream, a } = splitStream();
    const input = replayInput(stream.chunks, 0, a.length, (chunk) => stream.chunkBytes(chunk));
    const steps = replayChunks(() => getFraming('content-length').createReader(), input);
    expect(steps.map((step) => step.bufferedBytes)).toEqual([5, 3]);
    expect(steps.map((step) => step.items.map((item) => item.type))).toEqual([[], ['message']]);
    expect(steps[1]!.items[0]).toMatchObject({ type: 'message', value: first, offset: 0, length: a.length });
    // The three bytes of the next frame are what it holds afterwards.
    expect(new TextDecoder().decode(heldBytes(input, 1, 3))).toBe('Con');
  });

  it('cuts the first chunk at the frame start so a fresh reader starts between frames', () => {
    const { stream, a, b } = splitStream();
    const input = replayInput(stream.chunks, a.length, b.length, (chunk) => stream.chunkBytes(chunk));
    expect(input.map((chunk) => chunk.length)).toEqual([3, b.length - 3]);
    expect(replayChunks(() => new FrameReader(), input)[1]!.items).toMatchObject([{ type: 'message', value: second }]);
  });

  it('records what a broken reader throws and returns, and never throws itself', () => {
    const throwing: FrameReaderContract = {
      push: () => {
        throw new Error('TODO: FrameReader.push');
      },
      get bufferedBytes(): number {
        throw new Error('TODO: bufferedBytes');
      },
    };
    const [step] = replayChunks(() => throwing, [encodeLine(first)]);
    expect(step).toMatchObject({ error: 'push() threw: TODO: FrameReader.push', bufferedBytes: null, items: [] });
    expect(replayChunks(() => { throw new TypeError('nope'); }, [new Uint8Array(1)])[0]!.error).toContain('TypeError: nope');
  });

  it('names items that are not ReadItems', () => {
    expect(sanitizeReadItems('x')).toEqual([{ type: 'malformed', detail: 'push() returned "x", not an array of items' }]);
    expect(sanitizeReadItems([{ type: 'msg' }, null])).toEqual([
      { type: 'malformed', detail: 'an item had type "msg"' },
      { type: 'malformed', detail: 'an item was null' },
    ]);
  });
});

describe('compareReplays', () => {
  it('finds the first push after which a reader that decodes each chunk as text goes wrong', () => {
    const bytes = encodeLine(first);
    const chunks = [bytes.subarray(0, 30), bytes.subarray(30)];
    const reference = replayChunks(() => getFraming('ndjson').createReader(), chunks);
    // Emits one message per chunk it can parse on its own: here none.
    const naive: FrameReaderContract = {
      push: (chunk) => {
        try {
          return [{ type: 'message', value: JSON.parse(new TextDecoder().decode(chunk)) as unknown, offset: 0, length: chunk.length }];
        } catch {
          return [];
        }
      },
      bufferedBytes: 0,
    };
    const learner = replayChunks(() => naive, chunks);
    expect(compareReplays(reference, reference)).toEqual({ same: true, firstDifference: null, expectedMessages: 1, actualMessages: 1 });
    expect(compareReplays(reference, learner)).toEqual({ same: false, firstDifference: 1, expectedMessages: 1, actualMessages: 0 });
  });
});
