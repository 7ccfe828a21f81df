// Properties the SSE reader must keep, as the two stdio readers do: chunking never changes what is
// read, no bytes make push() throw, and encode-then-read gives back the event.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concat, cutAt } from '../../../tests/support/byte-chunks.ts';
import { encodeSseEvent, SseReader, type SseEventInit, type SseReadItem } from './sse.ts';

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();



function readChunks(chunks: readonly Uint8Array[], maxMessageBytes?: number): { items: SseReadItem[]; reader: SseReader } {
  const reader = new SseReader(maxMessageBytes === undefined ? undefined : { maxMessageBytes });
  return { items: chunks.flatMap((chunk) => reader.push(chunk)), reader };
}

/** What must not depend on chunking: every event in full, and each error's kind and offset. */
function essentials(items: readonly SseReadItem[]): unknown[] {
  return items.map((item) => (item.type === 'event' ? item : { kind: item.kind, offset: item.offset }));
}

/** What a string becomes after UTF-8 (lone surrogates turn into U+FFFD) and SSE line splitting. */
const afterWire = (text: string): string => utf8Decoder.decode(utf8.encode(text)).replace(/\r\n|\r/g, '\n');

const cuts = fc.array(fc.nat(), { maxLength: 24 });
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const anyText = fc.oneof(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.string({ unit: anyCodeUnit }));
/** Single-line text for event names and ids: no CR, LF or NUL, which SSE cannot carry there. */
const fieldText = anyText.map((text) => text.replace(/[\r\n\0]/g, ''));
const eventInit: fc.Arbitrary<SseEventInit> = fc.record(
  {
    data: anyText,
    event: fieldText.filter((text) => text !== ''),
    id: fieldText,
    retry: fc.nat(),
    comment: anyText,
  },
  { requiredKeys: ['data'] },
);

const nearMiss = fc.constantFrom(
  ...['data:', 'data: ', 'id: ', 'event: x', 'retry: 12', ':', '\r\n', '\r', '\n', '\n\n', '\r\r', 'data: {"a":1}\n\n', '\ufeff', '你', '🚀'].map((text) => utf8.encode(text)),
  new Uint8Array([0xef, 0xbb, 0xbf]),
  new Uint8Array([0xe4, 0xbd]),
  new Uint8Array([0xff, 0x00]),
);

describe('SSE reader: properties', () => {
  it('reads the same events from a valid stream however it is chunked', () => {
    fc.assert(
      fc.property(fc.array(eventInit, { minLength: 1, maxLength: 6 }), cuts, (inits, cutPoints) => {
        const stream = concat(inits.map((init) => encodeSseEvent(init)));
        const whole = readChunks([stream]);
        expect(whole.items.map((item) => (item.type === 'event' ? item.event.data : item))).toEqual(inits.map((init) => afterWire(init.data!)));
        const chunked = readChunks(cutAt(stream, cutPoints));
        expect(chunked.items).toEqual(whole.items);
        expect(chunked.reader.retry).toBe(whole.reader.retry);
        expect(chunked.reader.lastEventId).toBe(whole.reader.lastEventId);
      }),
      { numRuns: 200 },
    );
  });

  it('gives back every field after encode then read', () => {
    fc.assert(
      fc.property(eventInit, cuts, (init, cutPoints) => {
        const block = encodeSseEvent(init);
        const { items, reader } = readChunks(cutAt(block, cutPoints));
        expect(items).toEqual([
          {
            type: 'event',
            event: { type: init.event === undefined ? 'message' : afterWire(init.event), data: afterWire(init.data!), id: afterWire(init.id ?? '') },
            offset: 0,
            length: block.length,
          },
        ]);
        expect(reader.retry).toBe(init.retry);
        expect(reader.bufferedBytes).toBe(0);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on arbitrary bytes, and chunking changes no event and no error position', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), cuts, fc.option(fc.integer({ min: 0, max: 40 })), (bytes, cutPoints, max) => {
        const limit = max ?? undefined;
        const whole = readChunks([bytes], limit);
        const chunked = readChunks(cutAt(bytes, cutPoints), limit);
        expect(essentials(chunked.items)).toEqual(essentials(whole.items));
        expect(chunked.reader.lastEventId).toBe(whole.reader.lastEventId);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on garbage interleaved with valid events, whatever the chunking and limit', () => {
    const piece = fc.oneof(eventInit.map((init) => encodeSseEvent(init)), fc.uint8Array({ maxLength: 40 }), nearMiss);
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 20 }), cuts, fc.option(fc.integer({ min: 0, max: 60 })), (pieces, cutPoints, max) => {
        const stream = concat(pieces);
        const limit = max ?? undefined;
        const chunked = readChunks(cutAt(stream, cutPoints), limit);
        expect(essentials(chunked.items)).toEqual(essentials(readChunks([stream], limit).items));
        expect(chunked.reader.bufferedBytes).toBeLessThanOrEqual(stream.length);
        let previous = 0;
        for (const item of chunked.items) {
          expect(item.offset).toBeGreaterThanOrEqual(previous);
          previous = item.offset;
          if (item.type === 'event') expect(item.offset + item.length).toBeLessThanOrEqual(stream.length);
        }
      }),
      { numRuns: 300 },
    );
  });
});
