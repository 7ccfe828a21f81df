import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import { encodeFrame, encodeLine, FrameReader, LineReader } from '@learner';
import type { FrameReader as FrameReaderContract, ReadItem } from '@protocol/framing/types';
// The reference solution: the properties below compare your results with its results.
import * as reference from '@reference/framing/index';

const utf8 = new TextEncoder();
const text = new TextDecoder();

// Three messages: ASCII, Chinese (3 bytes a character) and an emoji (4 bytes, 2 UTF-16 units).
const ping = { jsonrpc: '2.0', id: 0, method: 'ping' };
const hello = { jsonrpc: '2.0', method: 'notifications/message', params: { text: '你好' } };
const globe = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '你好 🌍' }] } };

/** A Content-Length frame built by hand, so the reader tests do not depend on your encodeFrame. */
function frame(json: string): string {
  return `Content-Length: ${utf8.encode(json).length}\r\n\r\n${json}`;
}
const frames = (...messages: unknown[]) => utf8.encode(messages.map((message) => frame(JSON.stringify(message))).join(''));
const lines = (...messages: unknown[]) => utf8.encode(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));

/** What a reader found, without the offsets: `{ message }` or `{ error: kind }`. */
function found(items: ReadItem[]): unknown[] {
  return items.map((item) => (item.type === 'message' ? { message: item.value } : { error: item.kind }));
}

/** Push every chunk into `reader`, in order, and collect what it found. */
function readAll(reader: FrameReaderContract, chunks: Uint8Array[]): unknown[] {
  return chunks.flatMap((chunk) => found(reader.push(chunk)));
}

/** The stream cut in two at `at`. */
const cutAt = (bytes: Uint8Array, at: number) => [bytes.subarray(0, at), bytes.subarray(at)];
/** The stream one byte at a time. */
const byteByByte = (bytes: Uint8Array) => Array.from(bytes, (byte) => Uint8Array.of(byte));

// ---------------------------------------------------------------------------------------------
// Properties: generated inputs, your results against the reference's. Only what the lesson
// defines is compared: the bytes written; per push, each item's type, message or error kind,
// offset and length (never the wording of `detail`); and bufferedBytes where the lesson fixes it.
// A failing input is shrunk to a small one and shown as expected (the reference) vs actual (yours).
// ---------------------------------------------------------------------------------------------

const RUNS = { numRuns: 100, seed: 2 };

/** `run(input)`, or what it threw, so a throw is a difference like any other. */
function attempt(run: () => unknown): unknown {
  try {
    return run();
  } catch (error) {
    return { threw: error instanceof Error ? `${error.name}: ${error.message}` : String(error) };
  }
}

/** For every generated input, `yours(input)` equals `theirs(input)` (the reference's). */
async function sameAsReference<T>(inputs: fc.Arbitrary<T>, theirs: (input: T) => unknown, yours: (input: T) => unknown, show: (input: T) => string): Promise<void> {
  // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
  const pace = propertyPacer();
  const details = await fc.check(
    fc.asyncProperty(inputs, async (input) => {
      await pace();
      expect(attempt(() => yours(input))).toEqual(theirs(input));
    }),
    RUNS,
  );
  if (!details.failed || !details.counterexample) return;
  const [input] = details.counterexample;
  expect(attempt(() => yours(input)), `for ${show(input)}`).toEqual(theirs(input));
  throw new Error(`differs from the reference for ${show(input)} (only on some runs)`);
}

/** What the lesson defines about an item: no `detail`. */
function observed(item: ReadItem): unknown {
  return item.type === 'message'
    ? { type: 'message', value: item.value, offset: item.offset, length: item.length }
    : { type: 'error', kind: item.kind, offset: item.offset, length: item.length };
}

/** The stream cut at `cuts` (any numbers: taken modulo its length, sorted, repeats dropped). */
function chunked(stream: Uint8Array, cuts: number[]): Uint8Array[] {
  const at = [...new Set(cuts.map((cut) => cut % (stream.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, index) => stream.subarray(start, index < at.length ? at[index] : stream.length)).filter((chunk) => chunk.length > 0);
}

/** Per push, what it returned, and bufferedBytes when `withBuffered`. */
function pushEach(reader: FrameReaderContract, chunks: Uint8Array[], withBuffered: boolean): unknown[] {
  return chunks.map((chunk) => {
    const items = reader.push(chunk).map(observed);
    return withBuffered ? { items, bufferedBytes: reader.bufferedBytes } : items;
  });
}

const joinBytes = (parts: Uint8Array[]) => {
  const all = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return all;
};
const showStream = ({ parts, cuts }: { parts: Uint8Array[]; cuts: number[] }) => {
  const stream = joinBytes(parts);
  const sizes = chunked(stream, cuts).map((chunk) => chunk.length);
  return `the stream ${JSON.stringify(text.decode(stream))} (${stream.length} bytes) pushed in chunks of ${JSON.stringify(sizes)} bytes`;
};

// Text with ASCII, JSON's special characters, a newline, 3-byte and 4-byte characters.
const someText = fc.string({ unit: fc.constantFrom('a', 'Z', ' ', '"', '\\', '\n', '\r', '你', '好', '🌍', 'é'), maxLength: 8 });
const someMessage = fc.oneof(
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(99), method: fc.constantFrom('ping', 'tools/list') }),
  fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/message'), params: fc.record({ text: someText }) }),
  fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(99), result: fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text: someText }), { maxLength: 2 }) }) }),
);
// Bodies that are not JSON, or not UTF-8.
const notJson = fc.oneof(
  fc.constantFrom('{"jsonrpc":', 'not json', '', '}{', 'Server listening on stdio').map((body) => utf8.encode(body)),
  fc.constant(Uint8Array.of(0xff, 0x7d)),
  fc.constant(joinBytes([utf8.encode('{"text":"'), Uint8Array.of(0xe4, 0xbd), utf8.encode('"}')])), // JSON, but half a character
  someMessage.map((message) => utf8.encode(JSON.stringify(message).slice(0, -1))),
);

/** One Content-Length frame as the lesson allows it: other header fields may stand before or after Content-Length. */
const contentLengthFrame = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(fc.oneof(someMessage.map((message) => utf8.encode(JSON.stringify(message))), notJson), fc.constantFrom('none', 'before', 'after')) },
  { weight: 1, arbitrary: fc.tuple(fc.constant(undefined), fc.constantFrom('Content-Length: abc', 'Content-Length: -5', 'Content-Length: ', 'Content-Type: application/json')) },
).map(([body, extra]) => {
  if (body === undefined) return utf8.encode(`${extra}\r\n\r\n`); // a header block without a usable length
  const otherField = 'Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n';
  const length = `Content-Length: ${body.length}\r\n`;
  const header = extra === 'before' ? otherField + length : extra === 'after' ? length + otherField : length;
  return joinBytes([utf8.encode(`${header}\r\n`), body]);
});
const cuts = fc.array(fc.nat(), { maxLength: 6 });
const contentLengthStream = fc.record({ parts: fc.array(contentLengthFrame, { minLength: 1, maxLength: 4 }), cuts });

/** One NDJSON line: a message, a blank line or a line that is not JSON, ended by LF or CRLF. */
const ndjsonLine = fc
  .tuple(
    fc.oneof(
      { weight: 3, arbitrary: someMessage.map((message) => utf8.encode(JSON.stringify(message))) },
      { weight: 1, arbitrary: fc.constantFrom('', ' ', '\t', '  ').map((blank) => utf8.encode(blank)) },
      { weight: 1, arbitrary: notJson.filter((body) => body.length > 0 && !/^[ \t]*$/.test(text.decode(body))) },
    ),
    fc.constantFrom('\n', '\r\n'),
  )
  .map(([body, ending]) => joinBytes([body, utf8.encode(ending)]));
// Maybe an unfinished last line: the stream may stop anywhere.
const ndjsonStream = fc.record({
  parts: fc.tuple(fc.array(ndjsonLine, { minLength: 1, maxLength: 5 }), fc.option(someMessage.map((message) => utf8.encode(JSON.stringify(message))), { nil: undefined })).map(([full, rest]) => (rest ? [...full, rest] : full)),
  cuts,
});

describe('encodeFrame', () => {
  it('writes "Content-Length: N", a blank line, then the compact JSON body', () => {
    const bytes = encodeFrame(ping);
    expect(bytes).toBeInstanceOf(Uint8Array);
    expect(text.decode(bytes)).toBe('Content-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":0,"method":"ping"}');
  });

  it('for any message: writes the same frame as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(someMessage, (message) => text.decode(reference.encodeFrame(message)), (message) => text.decode(encodeFrame(message)), (message) => JSON.stringify(message));
  });

  it('counts UTF-8 bytes, not characters: "你好" is 6 bytes but only 2 characters', () => {
    // {"text":"你好"} is 13 characters and 17 bytes.
    expect(text.decode(encodeFrame({ text: '你好' }))).toBe('Content-Length: 17\r\n\r\n{"text":"你好"}');
    const bytes = encodeFrame(globe);
    const body = utf8.encode(JSON.stringify(globe));
    expect(text.decode(bytes.subarray(0, bytes.length - body.length))).toBe(`Content-Length: ${body.length}\r\n\r\n`);
  });
});

describe('FrameReader: frames in chunks of any size', () => {
  it('reads one frame pushed in one chunk', () => {
    const reader = new FrameReader();
    expect(found(reader.push(frames(ping)))).toEqual([{ message: ping }]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('reads every frame when several arrive in one chunk', () => {
    expect(readAll(new FrameReader(), [frames(ping, hello, globe)])).toEqual([{ message: ping }, { message: hello }, { message: globe }]);
  });

  it('reads frames whose bodies hold multi-byte characters', () => {
    expect(readAll(new FrameReader(), [frames(hello), frames(globe)])).toEqual([{ message: hello }, { message: globe }]);
  });

  it('reads Content-Length in any case, with spaces or tabs around the number', () => {
    const body = JSON.stringify(ping); // ASCII: its length in characters is its length in bytes
    const headers = [`content-length: ${body.length}`, `CONTENT-LENGTH:${body.length}`, `Content-Length: \t${body.length} `];
    const stream = utf8.encode(headers.map((header) => `${header}\r\n\r\n${body}`).join(''));
    expect(readAll(new FrameReader(), [stream])).toEqual([{ message: ping }, { message: ping }, { message: ping }]);
  });

  it('holds back an unfinished frame, and counts what it holds in bufferedBytes', () => {
    // A reader may keep the header once it has read the length, or drop it and keep only the
    // body's bytes: bufferedBytes counts whatever it holds, more than 0 and at most what arrived.
    const reader = new FrameReader();
    const stream = frames(ping); // 22 header bytes + 40 body bytes
    expect(reader.push(stream.subarray(0, 10))).toEqual([]);
    expect(reader.bufferedBytes).toBe(10);
    expect(reader.push(stream.subarray(10, 30))).toEqual([]);
    expect(reader.bufferedBytes).toBeGreaterThan(0);
    expect(reader.bufferedBytes).toBeLessThanOrEqual(30);
    expect(found(reader.push(stream.subarray(30)))).toEqual([{ message: ping }]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('gives the same messages wherever the stream is cut in two', () => {
    const stream = frames(ping, hello);
    for (let at = 0; at <= stream.length; at++) {
      expect(readAll(new FrameReader(), cutAt(stream, at)), `cut after byte ${at}`).toEqual([{ message: ping }, { message: hello }]);
    }
  });

  it('gives the same messages when the stream arrives one byte at a time', () => {
    expect(readAll(new FrameReader(), byteByByte(frames(ping, hello, globe)))).toEqual([{ message: ping }, { message: hello }, { message: globe }]);
  });

  it('survives a chunk that ends in the middle of a character', () => {
    const stream = frames(hello);
    const start = stream.indexOf(0xe4); // the first byte of 你 (E4 BD A0)
    for (const at of [start + 1, start + 2, start + 4]) {
      expect(readAll(new FrameReader(), cutAt(stream, at)), `cut after byte ${at}`).toEqual([{ message: hello }]);
    }
  });

  it('says where each message sits in the stream: offset and length, in bytes', () => {
    const reader = new FrameReader();
    const first = frames(ping);
    const [item] = reader.push(first);
    const [next] = reader.push(frames(hello));
    expect(item).toMatchObject({ type: 'message', offset: 0, length: first.length });
    expect(next).toMatchObject({ type: 'message', offset: first.length, length: frames(hello).length });
  });

  it('for any frames in any chunks: returns the same items from each push as the reference, and holds nothing at the end', PROPERTY_TEST, async () => {
    await sameAsReference(
      contentLengthStream,
      ({ parts, cuts }) => [...pushEach(new reference.FrameReader(), chunked(joinBytes(parts), cuts), false), { bufferedBytesAtTheEnd: 0 }],
      ({ parts, cuts }) => {
        const reader = new FrameReader();
        return [...pushEach(reader, chunked(joinBytes(parts), cuts), false), { bufferedBytesAtTheEnd: reader.bufferedBytes }];
      },
      showStream,
    );
  });
});

describe('FrameReader: broken input', () => {
  it('reports a body that is not JSON as a bad-json error, then reads the next frame', () => {
    const stream = utf8.encode(`${frame('{"jsonrpc":')}${frame(JSON.stringify(ping))}`);
    expect(readAll(new FrameReader(), [stream])).toEqual([{ error: 'bad-json' }, { message: ping }]);
    expect(readAll(new FrameReader(), byteByByte(stream))).toEqual([{ error: 'bad-json' }, { message: ping }]);
  });

  it('reports a header without a usable Content-Length as bad-header, then reads the next frame', () => {
    for (const header of ['Content-Length: abc\r\n\r\n', 'Content-Type: application/json\r\n\r\n']) {
      const stream = utf8.encode(header + frame(JSON.stringify(ping)));
      expect(readAll(new FrameReader(), [stream]), JSON.stringify(header)).toEqual([{ error: 'bad-header' }, { message: ping }]);
    }
  });

  it('accepts other header fields next to Content-Length', () => {
    const body = JSON.stringify(ping);
    const stream = utf8.encode(`Content-Length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}`);
    expect(readAll(new FrameReader(), [stream])).toEqual([{ message: ping }]);
  });

  it('reports a body that is not valid UTF-8 as bad-json', () => {
    const header = utf8.encode('Content-Length: 2\r\n\r\n');
    const stream = new Uint8Array(header.length + 2);
    stream.set(header);
    stream.set([0xff, 0x7d], header.length); // 0xFF never occurs in UTF-8
    expect(readAll(new FrameReader(), [stream, frames(ping)])).toEqual([{ error: 'bad-json' }, { message: ping }]);
  });

  it('never throws, whatever bytes arrive', () => {
    const reader = new FrameReader();
    expect(() => reader.push(Uint8Array.of(0xff, 0xfe, 0x00, 0x0d, 0x0a, 0x0d, 0x0a))).not.toThrow();
    expect(() => reader.push(utf8.encode('Content-Length: -5\r\n\r\n}{\n'))).not.toThrow();
  });
});

describe('encodeLine', () => {
  it('writes one compact JSON object followed by "\\n"', () => {
    expect(text.decode(encodeLine(ping))).toBe('{"jsonrpc":"2.0","id":0,"method":"ping"}\n');
    expect(encodeLine(hello)).toEqual(utf8.encode(`${JSON.stringify(hello)}\n`));
  });

  it('for any message: writes the same line as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(someMessage, (message) => text.decode(reference.encodeLine(message)), (message) => text.decode(encodeLine(message)), (message) => JSON.stringify(message));
  });

  it('never puts a raw newline inside the line: one in a string stays escaped as \\n', () => {
    const bytes = encodeLine({ text: 'first line\nsecond line' });
    expect(bytes.indexOf(0x0a)).toBe(bytes.length - 1);
  });
});

describe('LineReader', () => {
  it('reads one message per line, several lines in one chunk', () => {
    const reader = new LineReader();
    expect(readAll(reader, [lines(ping, hello, globe)])).toEqual([{ message: ping }, { message: hello }, { message: globe }]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('holds a line until its newline arrives', () => {
    const reader = new LineReader();
    expect(reader.push(utf8.encode('{"jsonrpc":"2.0",'))).toEqual([]);
    expect(reader.bufferedBytes).toBe(17);
    expect(found(reader.push(utf8.encode('"id":0,"method":"ping"}\n')))).toEqual([{ message: ping }]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('gives the same messages wherever the stream is cut in two, or one byte at a time', () => {
    const stream = lines(ping, hello, globe);
    const expected = [{ message: ping }, { message: hello }, { message: globe }];
    for (let at = 0; at <= stream.length; at++) {
      expect(readAll(new LineReader(), cutAt(stream, at)), `cut after byte ${at}`).toEqual(expected);
    }
    expect(readAll(new LineReader(), byteByByte(stream))).toEqual(expected);
  });

  it('strips one "\\r" before the "\\n", so CRLF line endings work, blank CRLF lines included', () => {
    const stream = utf8.encode(`${JSON.stringify(ping)}\r\n\r\n${JSON.stringify(hello)}\r\n`);
    expect(readAll(new LineReader(), [stream])).toEqual([{ message: ping }, { message: hello }]);
    expect(readAll(new LineReader(), byteByByte(stream))).toEqual([{ message: ping }, { message: hello }]);
  });

  it('skips blank lines without reporting anything', () => {
    const stream = utf8.encode(`\n\n${JSON.stringify(ping)}\n\n  \n${JSON.stringify(hello)}\n`);
    expect(readAll(new LineReader(), [stream])).toEqual([{ message: ping }, { message: hello }]);
  });

  it('reports a line that is not JSON (a log line on stdout) as bad-json, then reads the next line', () => {
    const stream = utf8.encode(`Server listening on stdio\n${JSON.stringify(ping)}\n`);
    expect(readAll(new LineReader(), [stream])).toEqual([{ error: 'bad-json' }, { message: ping }]);
  });

  it('for any lines in any chunks: returns the same items from each push, and holds the same bytes, as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(
      ndjsonStream,
      ({ parts, cuts }) => pushEach(new reference.LineReader(), chunked(joinBytes(parts), cuts), true),
      ({ parts, cuts }) => pushEach(new LineReader(), chunked(joinBytes(parts), cuts), true),
      showStream,
    );
  });
});
