// Properties both framings must keep whatever the input: chunking never changes what is read,
// no bytes make push() throw, and encode-then-read gives back the value.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt } from '../../../tests/support/byte-chunks.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { FRAMING_NAMES, getFraming } from './index.ts';
import type { Framing, ReadItem } from './types.ts';

const utf8 = new TextEncoder();



function readChunks(framing: Framing, chunks: readonly Uint8Array[], maxMessageBytes?: number): ReadItem[] {
  const reader = framing.createReader(maxMessageBytes === undefined ? undefined : { maxMessageBytes });
  return chunks.flatMap((chunk) => reader.push(chunk));
}

/** What must not depend on chunking: every message in full, and each error's kind and offset. */
function essentials(items: readonly ReadItem[]): unknown[] {
  return items.map((item) => (item.type === 'message' ? item : { kind: item.kind, offset: item.offset }));
}

/** JSON cannot carry -0 (it becomes 0) and drops nothing else from these values. */
const afterJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const cuts = fc.array(fc.nat(), { maxLength: 24 });
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)); // lone surrogates too
const unicodeJson = fc.jsonValue({ stringUnit: 'grapheme', maxDepth: 3 });
const message = fc.oneof(
  unicodeJson,
  fc.jsonValue({ stringUnit: 'binary', maxDepth: 3 }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.string({ unit: 'grapheme' }), params: fc.dictionary(fc.string({ unit: 'binary' }), unicodeJson) }),
);
const asciiBytes = (text: string) => utf8.encode(text);
/** Bytes that look like parts of frames, so garbage often comes close to being valid. */
const nearMiss = fc.constantFrom(
  ...['Content-Length: ', 'content-length:7', 'Content-Length: 2', '\r\n', '\r\n\r\n', '\n', '\r', ':', '{', '}', '"', '[]', '12', '-1', 'Content-Type: x\r\n', 'log line\n', '\u00e4', '你', '🚀'].map(asciiBytes),
  new Uint8Array([0xe4, 0xbd]),
  new Uint8Array([0xff]),
);

describe.each(FRAMING_NAMES)('%s framing: properties', (name) => {
  const framing = getFraming(name);

  it('reads the same messages from a valid stream however it is chunked', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 6 }), cuts, (messages, cutPoints) => {
        const stream = concatBytes(messages.map((value) => framing.encode(value)));
        const whole = readChunks(framing, [stream]);
        expect(whole.map((item) => (item.type === 'message' ? item.value : item))).toEqual(messages.map(afterJson));
        expect(readChunks(framing, cutAt(stream, cutPoints))).toEqual(whole);
      }),
      { numRuns: 200 },
    );
  });

  it('never throws on arbitrary bytes, and chunking changes no message and no error position', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), cuts, fc.option(fc.integer({ min: 0, max: 40 })), (bytes, cutPoints, max) => {
        const limit = max ?? undefined;
        const whole = readChunks(framing, [bytes], limit);
        expect(essentials(readChunks(framing, cutAt(bytes, cutPoints), limit))).toEqual(essentials(whole));
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on garbage interleaved with valid frames, whatever the chunking and limit', () => {
    const piece = fc.oneof(
      message.map((value) => framing.encode(value)),
      fc.uint8Array({ maxLength: 40 }),
      nearMiss,
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), cuts, fc.option(fc.integer({ min: 0, max: 60 })), (pieces, cutPoints, max) => {
        const stream = concatBytes(pieces);
        const limit = max ?? undefined;
        const reader = framing.createReader(limit === undefined ? undefined : { maxMessageBytes: limit });
        const chunked = cutAt(stream, cutPoints).flatMap((chunk) => reader.push(chunk));
        expect(essentials(chunked)).toEqual(essentials(readChunks(framing, [stream], limit)));
        expect(reader.bufferedBytes).toBeLessThanOrEqual(stream.length);
        let previous = 0;
        for (const item of chunked) {
          expect(item.offset).toBeGreaterThanOrEqual(previous); // in stream order
          previous = item.offset;
          // Only a too-large Content-Length frame may reach past what was pushed: its length is the declared one.
          if (item.type === 'message' || item.kind !== 'too-large') expect(item.offset + item.length).toBeLessThanOrEqual(stream.length);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('loses no valid frame to a log line (not JSON, no colon, ends in a newline) written before it', () => {
    const logLine = fc.string({ unit: 'grapheme', maxLength: 30 }).map((text) => `log ${text.replace(/[:\n]/g, '')}\n`);
    fc.assert(
      fc.property(fc.array(fc.tuple(logLine, message), { minLength: 1, maxLength: 5 }), cuts, (pairs, cutPoints) => {
        const stream = concatBytes(pairs.flatMap(([log, value]) => [utf8.encode(log), framing.encode(value)]));
        const read = readChunks(framing, cutAt(stream, cutPoints)).filter((item) => item.type === 'message');
        expect(read.map((item) => item.value)).toEqual(pairs.map(([, value]) => afterJson(value)));
      }),
      { numRuns: 150 },
    );
  });

  it('gives back any JSON value and any string after encode then read', () => {
    const value = fc.oneof(
      fc.jsonValue(),
      unicodeJson,
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: anyCodeUnit }),
    );
    fc.assert(
      fc.property(value, cuts, (original, cutPoints) => {
        const frame = framing.encode(original);
        const items = readChunks(framing, cutAt(frame, cutPoints));
        expect(items).toEqual([{ type: 'message', value: afterJson(original), offset: 0, length: frame.length }]);
      }),
      { numRuns: 300 },
    );
  });
});
