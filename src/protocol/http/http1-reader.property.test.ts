// Properties of the HTTP/1.1 reader, as the stdio and SSE readers have them: any split of the
// bytes into chunks reads the same, write-then-read gives back the message, and no bytes make
// push() throw.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt } from '../../../tests/support/byte-chunks.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { Http1Reader } from './http1-reader.ts';
import { mergedItems, messagesOf, readAll } from '../../../tests/support/http1-items.ts';
import { encodeChunk, LAST_CHUNK, serializeRequest, serializeResponseHead, type HeaderLine } from './http1-writer.ts';

const utf8 = new TextEncoder();
const cuts = fc.array(fc.nat(), { maxLength: 24 });
const token = fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/).filter((name) => !/^(content-length|transfer-encoding)$/i.test(name));
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,30}[\x21-\x7e])?$/);
const headers = fc.array(fc.tuple(token, headerValue) as fc.Arbitrary<HeaderLine>, { maxLength: 6 });
const body = fc.oneof(fc.string({ unit: 'grapheme', maxLength: 80 }).map((text) => utf8.encode(text)), fc.uint8Array({ maxLength: 80 }));

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'DELETE'),
  target: fc.constantFrom('/mcp', '/mcp?x=1', '/'),
  headers,
  body: fc.option(body, { nil: undefined }),
});

/** A response with a Content-Length body, or a chunked one cut into the given pieces. */
const response = fc.record({
  status: fc.constantFrom(200, 202, 400, 404, 405),
  headers,
  chunks: fc.option(fc.array(body.filter((piece) => piece.length > 0), { maxLength: 5 }), { nil: undefined }),
  body,
});

function responseBytes(value: { status: number; headers: HeaderLine[]; chunks?: Uint8Array[]; body: Uint8Array }): Uint8Array {
  if (value.chunks === undefined) return concatBytes([serializeResponseHead(value.status, [...value.headers, ['Content-Length', String(value.body.length)]]), value.body]);
  return concatBytes([serializeResponseHead(value.status, [...value.headers, ['Transfer-Encoding', 'chunked']]), ...value.chunks.map(encodeChunk), LAST_CHUNK]);
}

describe('Http1Reader properties', () => {
  it('reads the same requests however the bytes are cut', () => {
    fc.assert(
      fc.property(fc.array(request, { minLength: 1, maxLength: 3 }), cuts, (requests, at) => {
        const wire = concatBytes(requests.map(serializeRequest));
        const whole = mergedItems(readAll('request', [wire]));
        expect(mergedItems(readAll('request', cutAt(wire, at)))).toEqual(whole);
        // And what is read is what was written.
        const read = messagesOf(readAll('request', [wire]));
        expect(read).toHaveLength(requests.length);
        read.forEach((message, index) => {
          const sent = requests[index]!;
          expect(message.head).toMatchObject({ method: sent.method, target: sent.target });
          expect(message.body).toBe(new TextDecoder().decode(sent.body ?? new Uint8Array(0)));
        });
      }),
    );
  });

  it('reads the same responses however the bytes are cut, Content-Length or chunked', () => {
    fc.assert(
      fc.property(fc.array(response, { minLength: 1, maxLength: 3 }), cuts, (responses, at) => {
        const wire = concatBytes(responses.map(responseBytes));
        const whole = readAll('response', [wire]);
        expect(whole.some((item) => item.type === 'error')).toBe(false);
        expect(mergedItems(readAll('response', cutAt(wire, at)))).toEqual(mergedItems(whole));
        const decoded = messagesOf(whole).map((message) => message.body);
        expect(decoded).toEqual(responses.map((value) => new TextDecoder().decode(value.chunks === undefined ? value.body : concatBytes(value.chunks))));
      }),
    );
  });

  it('the spans it reports tile the stream: every byte belongs to exactly one item', () => {
    fc.assert(
      fc.property(fc.array(response, { minLength: 1, maxLength: 2 }), cuts, (responses, at) => {
        const wire = concatBytes(responses.map(responseBytes));
        let next = 0;
        for (const item of readAll('response', cutAt(wire, at))) {
          if (item.type === 'error') throw new Error(item.detail);
          const length = item.type === 'data' ? item.bytes.length : item.length;
          expect(item.offset).toBe(next);
          next += length;
        }
        expect(next).toBe(wire.length);
      }),
    );
  });

  it('never throws, whatever the bytes, and stops at the first error', () => {
    fc.assert(
      fc.property(fc.constantFrom<'request' | 'response'>('request', 'response'), fc.array(fc.uint8Array({ maxLength: 64 }), { maxLength: 8 }), (kind, chunks) => {
        const reader = new Http1Reader(kind);
        const items = [...chunks.flatMap((chunk) => reader.push(chunk)), ...reader.finish()];
        const errors = items.filter((item) => item.type === 'error');
        expect(errors.length).toBeLessThanOrEqual(1);
        if (errors.length === 1) expect(items.at(-1)).toBe(errors[0]);
      }),
    );
  });
});
