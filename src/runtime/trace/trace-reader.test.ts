import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbEvent, arbHeader, arbStdioEvent } from '../../../tests/support/trace-arbitraries.ts';
import type { Trace, TraceEvent, TraceHeader } from './trace-format.ts';
import { TraceReader, parseTrace, type TraceParseError } from './trace-reader.ts';
import { serializeTrace, serializeTraceEvent, serializeTraceHeader } from './trace-serialize.ts';
import { isBase64Text } from './trace-validate.ts';

const HEADER: TraceHeader = {
  format: 'mcp-playground-trace',
  version: 1,
  mode: 'stdio',
  framing: 'ndjson',
  framingSource: 'guessed',
  started: '2026-12-01T16:00:00.000Z',
  recorder: 'test',
  program: ['node', 'server.js'],
};
const HTTP_HEADER: TraceHeader = {
  format: 'mcp-playground-trace',
  version: 1,
  mode: 'http',
  framing: 'http',
  framingSource: 'given',
  started: '2026-12-01T16:00:00.000Z',
  recorder: 'test',
  target: 'http://127.0.0.1:3000/mcp',
  listen: 'http://127.0.0.1:4000',
};
const C2S: TraceEvent = { tap: 1, ev: 'c2s', t: 1.5, b64: 'e30K' };

/** Cut `text` at the given positions (each taken modulo the length). */
function cut<T extends string | Uint8Array>(input: T, positions: number[]): T[] {
  const points = [...new Set(positions.map((p) => (input.length === 0 ? 0 : p % (input.length + 1))))].sort((a, b) => a - b);
  const pieces: T[] = [];
  let from = 0;
  for (const point of points) {
    pieces.push(input.slice(from, point) as T);
    from = point;
  }
  pieces.push(input.slice(from) as T);
  return pieces;
}

function readInChunks(chunks: Array<string | Uint8Array>): { trace?: Trace; error?: TraceParseError; errorsSeen: number } {
  const reader = new TraceReader();
  let header: TraceHeader | undefined;
  const events: TraceEvent[] = [];
  let error: TraceParseError | undefined;
  let errorsSeen = 0;
  for (const result of [...chunks.map((chunk) => reader.push(chunk)), reader.end()]) {
    if (result.header) header = result.header;
    events.push(...result.events);
    if (result.error) {
      error = result.error;
      errorsSeen++;
    }
  }
  return error ? { error, errorsSeen } : { trace: { header: header as TraceHeader, events }, errorsSeen };
}

function errorOf(text: string): TraceParseError {
  const result = parseTrace(text);
  if (!('error' in result)) throw new Error(`expected an error for ${JSON.stringify(text)}`);
  return result.error;
}

const lines = (...items: string[]): string => items.map((item) => `${item}\n`).join('');
const header = serializeTraceHeader(HEADER);
const c2s = serializeTraceEvent(C2S);

describe('TraceReader', () => {
  it('reads back what serializeTrace wrote, however the bytes or text are cut', () => {
    fc.assert(
      fc.property(arbHeader, fc.array(arbStdioEvent, { maxLength: 12 }), fc.array(fc.nat(), { maxLength: 8 }), fc.boolean(), (h, events, positions, asBytes) => {
        const stdioHeader: TraceHeader = h.mode === 'http' ? HEADER : h;
        const text = serializeTrace({ header: stdioHeader, events });
        const input = asBytes ? new TextEncoder().encode(text) : text;
        const result = readInChunks(cut<string | Uint8Array>(input, positions));
        expect(result.error).toBeUndefined();
        expect(result.trace).toEqual(JSON.parse(JSON.stringify({ header: stdioHeader, events })));
      }),
      { numRuns: 300 },
    );
  });

  it('reads any bytes, however cut, as the one decode of the whole file reads (BOM, bad UTF-8, CRLF, long lines)', () => {
    // Hand-written UTF-8 (not the serializer's escapes) with every kind of byte a cut may land in.
    const arbText = fc.string({ unit: fc.constantFrom('a', '你', '🙂', 'é', '\uFEFF', '\r', '"', '\\'), maxLength: 40 });
    const arbLine = fc.oneof(
      arbText.map((message) => JSON.stringify({ tap: 1, ev: 'error', t: 0, message })),
      arbStdioEvent.map((event) => JSON.stringify(event)),
      arbText,
    );
    const arbFile = fc.record({
      bom: fc.boolean(),
      lines: fc.array(arbLine, { maxLength: 8 }),
      crlf: fc.boolean(),
      lastNewline: fc.boolean(),
      // Bytes overwritten anywhere: broken characters, stray line ends, a BOM's first byte.
      damage: fc.array(fc.tuple(fc.nat(), fc.constantFrom(0x0a, 0x0d, 0x80, 0xbf, 0xe4, 0xef, 0xf0, 0xff, 0x7b)), { maxLength: 3 }),
    });
    fc.assert(
      fc.property(arbFile, fc.array(fc.nat(), { maxLength: 8 }), ({ bom, lines: body, crlf, lastNewline, damage }, positions) => {
        const end = crlf ? '\r\n' : '\n';
        const text = [JSON.stringify(HEADER), ...body].join(end) + (lastNewline ? end : '');
        const bytes = new TextEncoder().encode(`${bom ? '\uFEFF' : ''}${text}`);
        for (const [at, byte] of damage) if (bytes.length > 0) bytes[at % bytes.length] = byte;
        const expected = readInChunks([new TextDecoder().decode(bytes)]);
        // Each chunk's memory is reused after its push, as a stream's reader may do.
        const chunks = cut(bytes, positions);
        const reader = new TraceReader();
        const got: ReturnType<TraceReader['push']>[] = [];
        for (const chunk of chunks) {
          const copy = chunk.slice();
          got.push(reader.push(copy));
          copy.fill(0x21);
        }
        got.push(reader.end());
        const error = got.find((result) => result.error)?.error;
        const header = got.find((result) => result.header)?.header;
        const events = got.flatMap((result) => result.events);
        expect(error ? { error, errorsSeen: 1 } : { trace: { header, events }, errorsSeen: 0 }).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('writes ASCII only, and a character split between byte chunks survives', () => {
    const trace: Trace = { header: { ...HEADER, program: ['nöde', '服务器', '🙂'] }, events: [{ tap: 1, ev: 'error', t: 0, message: 'é' }] };
    const text = serializeTrace(trace);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
    // Hand-written UTF-8 (not escaped) must read too, even cut inside a character.
    const utf8 = new TextEncoder().encode(lines(JSON.stringify(trace.header), JSON.stringify(trace.events[0])));
    for (let at = 1; at < utf8.length; at++) {
      expect(readInChunks([utf8.slice(0, at), utf8.slice(at)]).trace).toEqual(trace);
    }
  });

  it('accepts CRLF line ends and a valid last line without its newline', () => {
    expect(parseTrace(`${header}\r\n${c2s}\r\n`)).toEqual({ header: HEADER, events: [C2S] });
    expect(parseTrace(`${header}\n${c2s}`)).toEqual({ header: HEADER, events: [C2S] });
  });

  it('counts lines and bytes for progress', () => {
    const reader = new TraceReader();
    reader.push(`${header}\n${c2s}`);
    expect(reader.linesRead).toBe(1);
    reader.push('\n');
    expect(reader.linesRead).toBe(2);
    expect(reader.bytesRead).toBe(header.length + c2s.length + 2);
  });

  it('names the line of each kind of problem', () => {
    const cases: Array<[string, TraceParseError['code'], number]> = [
      ['', 'empty', 1],
      [lines(c2s), 'missing-header', 1],
      [lines('{"hello":1}'), 'missing-header', 1],
      [lines(JSON.stringify({ ...HEADER, version: 2 })), 'version', 1],
      [lines(JSON.stringify({ ...HEADER, recorder: '' })), 'header', 1],
      [lines(header, c2s, '{"tap":1,"ev":"c2s","t":2,', c2s), 'json', 3],
      [lines(header, c2s, c2s) + '{"tap":1,"ev":"s2c","t":3,"b6', 'truncated', 4],
      [lines(header, '', c2s), 'blank', 2],
      [lines(header, c2s, '{"tap":1,"ev":"c2s","t":2,"b64":"not base64!"}'), 'event', 3],
      [lines(header, header), 'sequence', 2],
      [lines(header, '{"tap":1,"ev":"c2s","t":2,"b64":"","conn":1}'), 'sequence', 2],
      [lines(header, '{"tap":1,"ev":"open","t":2,"conn":1}'), 'sequence', 2],
      [lines(header, '{"tap":1,"ev":"stderr","t":2,"b64":"","proc":"client"}'), 'sequence', 2],
      [lines(serializeTraceHeader(HTTP_HEADER), '{"tap":1,"ev":"c2s","t":2,"b64":"","conn":1}'), 'sequence', 2],
      [lines(serializeTraceHeader(HTTP_HEADER), '{"tap":1,"ev":"close","t":2,"conn":1}', '{"tap":1,"ev":"s2c","t":2,"b64":"","conn":1}'), 'sequence', 3],
      [lines(serializeTraceHeader(HTTP_HEADER), '{"tap":1,"ev":"open","t":2,"conn":1}', '{"tap":1,"ev":"open","t":2,"conn":1}'), 'sequence', 3],
      [lines(serializeTraceHeader(HTTP_HEADER), '{"tap":1,"ev":"open","t":2,"conn":1}', '{"tap":1,"ev":"close","t":3,"conn":1,"by":"client"}', '{"tap":1,"ev":"s2c","t":4,"b64":"","conn":1}'), 'sequence', 4],
    ];
    for (const [text, code, line] of cases) {
      const error = errorOf(text);
      expect({ text, code: error.code, line: error.line }).toEqual({ text, code, line });
      expect(error.message.startsWith(`line ${line}: `)).toBe(true);
    }
    expect(errorOf(lines(JSON.stringify({ ...HEADER, version: 2 }))).version).toBe(2);
  });

  it('reads a whole http session: connections opened, used, closed, refused, and the server\'s own stdio', () => {
    const events: TraceEvent[] = [
      { tap: 1, ev: 'spawn', t: 0, pid: 9, argv: ['node', 'mcp-http.mjs'] },
      { tap: 1, ev: 's2c', t: 0.5, b64: 'aHR0cDovLzEyNy4wLjAuMTo0MDAwL21jcAo=' },
      { tap: 1, ev: 'close', t: 0.7, conn: 0, message: 'connect ECONNREFUSED 127.0.0.1:4000' },
      { tap: 1, ev: 'open', t: 0, conn: 1 },
      { tap: 1, ev: 'c2s', t: 1, b64: 'UE9TVA==', conn: 1 },
      { tap: 1, ev: 'open', t: 1.5, conn: 2 },
      { tap: 1, ev: 's2c', t: 2, b64: 'SFRUUA==', conn: 1 },
      { tap: 1, ev: 'close', t: 3, conn: 1, by: 'client' },
      { tap: 1, ev: 'error', t: 3.5, message: 'ECONNRESET', conn: 2 },
      { tap: 1, ev: 'close', t: 4, conn: 2, by: 'server' },
      { tap: 1, ev: 'open', t: 5, conn: 1 },
      { tap: 1, ev: 'close', t: 6, conn: 1 },
      { tap: 1, ev: 'exit', t: 7, code: 0, signal: null },
    ];
    expect(parseTrace(serializeTrace({ header: HTTP_HEADER, events }))).toEqual({ header: HTTP_HEADER, events });
  });

  it('reports the first problem once, wherever the chunks fall, and nothing after it', () => {
    fc.assert(
      fc.property(fc.array(arbStdioEvent, { minLength: 1, maxLength: 6 }), fc.nat(), fc.array(fc.nat(), { maxLength: 6 }), (events, at, positions) => {
        const eventLines = events.map(serializeTraceEvent);
        const broken = at % eventLines.length;
        eventLines[broken] = eventLines[broken]!.slice(0, -1); // drop the closing brace
        const text = lines(header, ...eventLines, ...eventLines);
        const result = readInChunks(cut(text, positions));
        expect(result.errorsSeen).toBe(1);
        expect(result.error).toMatchObject({ code: 'json', line: broken + 2 });
      }),
      { numRuns: 200 },
    );
  });

  it('takes every generated event kind in the mode it belongs to', () => {
    fc.assert(
      fc.property(arbEvent, (event) => {
        const inHttp = event.ev === 'open' || event.ev === 'close' || 'conn' in event;
        const inBetween = 'proc' in event;
        fc.pre(!(inHttp && inBetween));
        const h: TraceHeader = inHttp ? HTTP_HEADER : inBetween ? { ...HEADER, mode: 'between', client: ['client'] } : HEADER;
        const prefix = inHttp && event.ev !== 'open' && 'conn' in event ? [serializeTraceEvent({ tap: 1, ev: 'open', t: 0, conn: event.conn as number })] : [];
        const result = parseTrace(lines(serializeTraceHeader(h), ...prefix, serializeTraceEvent(event)));
        expect('error' in result ? result.error : null).toBeNull();
      }),
      { numRuns: 300 },
    );
  });
});

describe('isBase64Text', () => {
  // The one-pass pattern it replaced (issue 25: half the time per line): the same language.
  const ONE_PASS = /^[A-Za-z0-9+/]*={0,2}$/;
  const same = (text: string): void => {
    expect(isBase64Text(text), JSON.stringify(text)).toBe(text.length % 4 === 0 && ONE_PASS.test(text));
  };

  it('accepts and refuses exactly what the one-pass pattern did, for any text near base64', () => {
    const alphabet = fc.constantFrom(...'AZaz09+/=-_ \n!é'.split(''));
    fc.assert(fc.property(fc.array(alphabet, { maxLength: 12 }).map((chars) => chars.join('')), same), { numRuns: 5000 });
    fc.assert(fc.property(fc.uint8Array({ maxLength: 40 }), fc.nat(60), fc.constantFrom('=', 'A', '!', ''), (bytes, at, put) => {
      const b64 = btoa(String.fromCharCode(...bytes));
      same(b64);
      same(b64.slice(0, at) + put + b64.slice(at + 1));
    }));
  });
});
