// Properties the SSE reader must keep, as the two stdio readers do: chunking never changes what is
// read, no bytes make push() throw, and encode-then-read gives back the event. And one more: it
// reports exactly what the reader it replaced reported (kept here, verbatim, as the oracle).

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cutAt } from '../../../tests/support/byte-chunks.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { encodeSseEvent, SseReader, type SseEvent, type SseEventInit, type SseReadItem } from './sse.ts';
import { DEFAULT_MAX_MESSAGE_BYTES, type ReaderOptions } from './types.ts';

const utf8 = new TextEncoder();
// `ignoreBOM`: a U+FEFF at the start of a field's value is text; only the stream's first one is a BOM.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

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

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const NOTHING_FOUND: SseReadItem[] = Object.freeze([]) as unknown as SseReadItem[];

/**
 * The reader as it was before it read bytes first (a verbatim copy, but for its BOM): it decoded
 * each chunk whole, with a streaming decoder, and cut lines from that text. It is the oracle for
 * the byte-first reader, which must report exactly the same for any stream cut anywhere.
 *
 * Its BOM: it let the decoder drop the stream's first one, but Node 24's streaming TextDecoder
 * drops a second BOM too when the first chunk ends inside the first (EF | BB BF EF BB BF "data"),
 * where the standard drops exactly one (Node 20 agrees). So the copy drops the first BOM itself.
 */
class ChunkDecodingSseReader {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /** The stream's first character has been decoded (and dropped if it was a BOM). */
  private pastStart = false;
  /** The text of the line so far, when it started in an earlier chunk, and its size in bytes. */
  private lineText = '';
  private lineBytes = 0;
  /** The previous chunk ended in CR: a LF first in the next chunk belongs to that line ending. */
  private skipLf = false;
  /** A too-long line was reported; drop its bytes until its end. */
  private discardingLine = false;
  /** The current event went over the limit; drop its fields until the blank line. */
  private discardingEvent = false;

  private chunkOffset = 0;
  private lineOffset = 0;
  /** Offset of the current event's first line, or -1 when no line of it has been seen. */
  private eventOffset = -1;

  private dataLines: string[] = [];
  private dataBytes = 0;
  private eventType = '';
  private idBuffer = '';
  private lastId = '';
  private retryMs: number | undefined;

  private readonly maxEventBytes: number;
  private found: SseReadItem[] = [];

  constructor(options?: ReaderOptions) {
    this.maxEventBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** The last event ID so far: what a client sends as `Last-Event-ID` when it reconnects. */
  get lastEventId(): string {
    return this.lastId;
  }

  /** The latest `retry` value, in milliseconds, or undefined when the stream has sent none. */
  get retry(): number | undefined {
    return this.retryMs;
  }

  /** Bytes held back waiting for the end of a line. */
  get bufferedBytes(): number {
    return this.discardingLine ? 0 : this.lineBytes;
  }

  /**
   * Take the next chunk; return every item it completed, in stream order. Never throws. The
   * result is the caller's to read (an empty one is shared and frozen: do not add to it).
   */
  push(chunk: Uint8Array): SseReadItem[] {
    // Most chunks of a long event complete nothing: they share one frozen empty result instead of
    // allocating an array each (measurable with small chunks).
    const items = this.found;
    let text = this.decoder.decode(chunk, { stream: true });
    if (!this.pastStart && text !== '') {
      this.pastStart = true;
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    }
    let at = 0; // in bytes
    let textAt = 0; // in text
    if (this.skipLf && chunk.length > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        at = 1;
        textAt = 1;
        this.lineOffset = this.chunkOffset + 1;
      }
    }
    // Find each line end: LF is the common one; CR is looked up only while one may lie ahead.
    // The text tells whether a line end is there at all (a string search is faster than a byte
    // one): a chunk in the middle of a long line is held without scanning its bytes, and a CR-free
    // stream costs one byte scan per chunk, for LF.
    const hasLf = text.indexOf('\n', textAt) !== -1;
    const hasCr = text.indexOf('\r', textAt) !== -1;
    if (!hasLf && !hasCr) {
      if (at < chunk.length) this.hold(text.slice(textAt), chunk.length - at, items);
      this.chunkOffset += chunk.length;
      return this.takeFound();
    }
    let nextLf = hasLf ? chunk.indexOf(LF, at) : -1;
    let nextCr = hasCr ? chunk.indexOf(CR, at) : -1;
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      const textEnd = text.indexOf(chunk[end] === LF ? '\n' : '\r', textAt);
      this.endLine(text.slice(textAt, textEnd), end - at, items);
      at = end + 1;
      textAt = textEnd + 1;
      if (chunk[end] === CR) {
        if (at === chunk.length) this.skipLf = true;
        else if (chunk[at] === LF) {
          at++;
          textAt++;
        }
      }
      this.lineOffset = this.chunkOffset + at;
      if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = chunk.indexOf(CR, at);
    }
    if (at < chunk.length) this.hold(text.slice(textAt), chunk.length - at, items);
    this.chunkOffset += chunk.length;
    return this.takeFound();
  }

  /** What this push found, handed over; the reader starts a new list only when it needs one. */
  private takeFound(): SseReadItem[] {
    if (this.found.length === 0) return NOTHING_FOUND;
    const found = this.found;
    this.found = [];
    return found;
  }

  /** The current line ends with `tail` (`tailBytes` long); anything held comes before it. */
  private endLine(tail: string, tailBytes: number, items: SseReadItem[]): void {
    const length = this.lineBytes + tailBytes;
    const line = this.lineText === '' ? tail : this.lineText + tail;
    this.lineText = '';
    this.lineBytes = 0;
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    if (length > this.maxEventBytes) {
      this.tooLarge(items, length, `line of ${length} bytes is over the ${this.maxEventBytes}-byte limit`);
      return;
    }
    // Blank: no text. (A line of only the stream's first BOM has bytes but no text, and is blank too.)
    if (line === '') return this.dispatch(items);
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    if (line.charCodeAt(0) === COLON || this.discardingEvent) return;
    const colon = line.indexOf(':');
    if (colon === -1) return this.field(line, '', 0, items);
    const valueStart = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    // The name and separator are ASCII when the name is one we use, so the value's bytes are the rest.
    this.field(line.slice(0, colon), line.slice(valueStart), length - valueStart, items);
  }

  /** One field of the current event, by the standard's rules; unknown names are ignored. */
  private field(name: string, value: string, valueBytes: number, items: SseReadItem[]): void {
    switch (name) {
      case 'data':
        this.dataBytes += valueBytes + 1;
        if (this.dataBytes > this.maxEventBytes) {
          this.tooLarge(items, valueBytes, `event data over the ${this.maxEventBytes}-byte limit; dropping the event`);
          return;
        }
        this.dataLines.push(value);
        return;
      case 'event':
        this.eventType = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.idBuffer = value;
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        return;
    }
  }

  /** A blank line: hand out the event built so far, if it has data, and start a new one. */
  private dispatch(items: SseReadItem[]): void {
    this.lastId = this.idBuffer;
    const offset = this.eventOffset;
    const hasData = this.dataLines.length > 0 && !this.discardingEvent;
    if (hasData) {
      const data = this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join('\n');
      const event: SseEvent = { type: this.eventType === '' ? 'message' : this.eventType, data, id: this.lastId };
      items.push({ type: 'event', event, offset, length: this.lineOffset + 1 - offset });
    }
    this.dataLines = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.eventOffset = -1;
    this.discardingEvent = false;
  }

  /** Keep the start of a line whose end has not arrived yet. */
  private hold(text: string, bytes: number, items: SseReadItem[]): void {
    if (this.discardingLine) return;
    const held = this.lineBytes + bytes;
    if (held > this.maxEventBytes) {
      // Report once, as soon as it is certain, then drop the rest of the line without holding it.
      this.lineText = '';
      this.lineBytes = 0;
      this.discardingLine = true;
      this.tooLarge(items, held, `no line end within ${this.maxEventBytes} bytes; dropping the rest of the line`);
      return;
    }
    this.lineText += text;
    this.lineBytes = held;
  }

  /** Report at the current line, and drop the event it belongs to. */
  private tooLarge(items: SseReadItem[], length: number, detail: string): void {
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    this.discardingEvent = true;
    this.dataLines = [];
    items.push({ type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length });
  }
}

/** Everything a reader shows after each chunk: what it found, and what it holds and remembers. */
function traceOf(reader: SseReader | ChunkDecodingSseReader, chunks: readonly Uint8Array[]): unknown[] {
  return chunks.map((chunk) => ({ items: reader.push(chunk), bufferedBytes: reader.bufferedBytes, lastEventId: reader.lastEventId, retry: reader.retry }));
}

const bytesOf = (...texts: string[]) => texts.map((text) => utf8.encode(text));
/** Bits of values: text, every kind of UTF-8 character, and UTF-8 that is broken. */
const valuePiece = fc.oneof(
  fc.constantFrom(
    ...bytesOf('1', '42', 'x', ' ', ':', '\0', '\t', '{"a":"你好"}', '\ufeff', '你', '🚀', '👍🏽'),
    new Uint8Array([0xe4, 0xbd]), // 你 without its last byte
    new Uint8Array([0xf0, 0x9f]), // the start of an emoji
    new Uint8Array([0xff]),
    new Uint8Array([0x80]),
    new Uint8Array([0xc0, 0x80]), // an overlong NUL
    new Uint8Array([0xed, 0xa0, 0x80]), // an encoded surrogate
    new Uint8Array([0x0b, 0x0c, 0x00]), // control bytes that are not line ends
  ),
  fc.string({ unit: 'grapheme', maxLength: 8 }).map((text) => utf8.encode(text)),
  fc.uint8Array({ maxLength: 8 }),
);
/** One line: a field (or a comment, or nothing: a blank line), a value, a line end. */
const lineOf = (names: fc.Arbitrary<string>) =>
  fc
    .tuple(names, fc.constantFrom(': ', ':', ':  ', ''), fc.array(valuePiece, { maxLength: 4 }), fc.constantFrom('\n', '\n', '\r', '\r\n'))
    .map(([name, separator, value, end]) => concatBytes([utf8.encode(name), name === '' && value.length === 0 ? new Uint8Array() : utf8.encode(separator), ...value, utf8.encode(end)]));
const streamLine = lineOf(fc.constantFrom('', '', 'data', 'data', 'id', 'id', 'event', 'retry', ':', 'dat', 'foo', '\ufeff', '\ufeffdata'));
/** Data lines and blank lines only: events whose data adds up to around a small limit. */
const dataLine = fc.oneof(lineOf(fc.constantFrom('data', 'data', 'data', '')), fc.constantFrom(...bytesOf('data\n', 'data:\n', '\n')));
/** A stream of lines, maybe after a BOM, with stray bytes here and there. */
const streamOf = (line: fc.Arbitrary<Uint8Array>) =>
  fc
    .tuple(fc.boolean(), fc.array(fc.oneof({ weight: 5, arbitrary: line }, { weight: 1, arbitrary: valuePiece }), { maxLength: 30 }))
    .map(([bom, parts]) => concatBytes([bom ? new Uint8Array([0xef, 0xbb, 0xbf]) : new Uint8Array(), ...parts]));
const sseStreamBytes = fc.oneof(streamOf(streamLine), streamOf(dataLine));
/** Cut points, or "every byte on its own". */
const anyCuts = fc.oneof({ weight: 4, arbitrary: fc.array(fc.nat(), { maxLength: 30 }) }, { weight: 1, arbitrary: fc.constant('bytewise' as const) });
const cutStream = (bytes: Uint8Array, cutPoints: number[] | 'bytewise') => cutAt(bytes, cutPoints === 'bytewise' ? Array.from({ length: bytes.length }, (_, i) => i) : cutPoints);

describe('SSE reader: properties', () => {
  it('reads the same events from a valid stream however it is chunked', () => {
    fc.assert(
      fc.property(fc.array(eventInit, { minLength: 1, maxLength: 6 }), cuts, (inits, cutPoints) => {
        const stream = concatBytes(inits.map((init) => encodeSseEvent(init)));
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
        const stream = concatBytes(pieces);
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

describe('SSE reader: the same as the chunk-decoding reader it replaced', () => {
  it('reports the same items, buffered bytes, last id and retry after every chunk, for any stream cut anywhere', () => {
    fc.assert(
      fc.property(sseStreamBytes, anyCuts, fc.option(fc.integer({ min: 0, max: 80 })), (bytes, cutPoints, max) => {
        const chunks = cutStream(bytes, cutPoints);
        const options = max === null ? undefined : { maxMessageBytes: max };
        expect(traceOf(new SseReader(options), chunks)).toEqual(traceOf(new ChunkDecodingSseReader(options), chunks));
      }),
      { numRuns: 2000 },
    );
  });

  it('does the same with a BOM and data lines that add up to around the limit', () => {
    // The BOM counts in the first line's size; where the limit falls matters to the byte.
    const stream = fc.array(dataLine, { minLength: 1, maxLength: 6 }).map((lines) => concatBytes([new Uint8Array([0xef, 0xbb, 0xbf]), ...lines]));
    fc.assert(
      fc.property(stream, anyCuts, fc.integer({ min: 0, max: 40 }), (bytes, cutPoints, max) => {
        const chunks = cutStream(bytes, cutPoints);
        expect(traceOf(new SseReader({ maxMessageBytes: max }), chunks)).toEqual(traceOf(new ChunkDecodingSseReader({ maxMessageBytes: max }), chunks));
      }),
      { numRuns: 1000 },
    );
  });

  it('does the same for a BOM before data lines, at every limit (cases random streams seldom hit)', () => {
    for (const text of ['data\ndata: abcd\n\n', 'data:a\ndata:bcde\n\n', 'data: \ndata:abcdef\n\n', 'data\r\n\r\n']) {
      const stream = [concatBytes([new Uint8Array([0xef, 0xbb, 0xbf]), utf8.encode(text)])];
      for (let max = 0; max <= 20; max++) {
        expect(traceOf(new SseReader({ maxMessageBytes: max }), stream)).toEqual(traceOf(new ChunkDecodingSseReader({ maxMessageBytes: max }), stream));
      }
    }
  });

  it("does the same with lines longer than the reader's buffer, up to ones it lets go of afterwards", () => {
    const longLine = fc.constantFrom(...bytesOf(`data: ${'x你'.repeat(1500)}\n`, `${'y'.repeat(5000)}\r\n`, `data: ${'z'.repeat(300_000)}\r`));
    // Chunks of one size, mostly small, so that what follows a long line fits the small buffer again.
    const chunkSize = fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 64, max: 2000 }) }, { weight: 1, arbitrary: fc.integer({ min: 64, max: 100_000 }) });
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 3, arbitrary: streamLine }, { weight: 1, arbitrary: longLine }), { maxLength: 16 }),
        chunkSize,
        // Mostly limits the longest line fits in, so that the buffer grows for it.
        fc.constantFrom(undefined, undefined, 400_000, 0, 100, 4096, 10_000),
        (lines, size, max) => {
          // Then a few KiB of small events, read in the buffer the reader went back to.
          const stream = concatBytes([...lines, utf8.encode('id: 7\ndata: {"a":"你好"}\n\n'.repeat(200))]);
          const chunks = cutAt(stream, Array.from({ length: Math.floor(stream.length / size) }, (_, i) => (i + 1) * size));
          const options = max === undefined ? undefined : { maxMessageBytes: max };
          expect(traceOf(new SseReader(options), chunks)).toEqual(traceOf(new ChunkDecodingSseReader(options), chunks));
        },
      ),
      { numRuns: 50 },
    );
  });
});
