import { describe, expect, it } from 'vitest';
import { contentLengthFraming, MAX_HEADER_BYTES } from './content-length.ts';
import type { FrameReader, ReadItem } from './types.ts';

const utf8 = new TextEncoder();
const text = new TextDecoder();
const bytes = (value: string) => utf8.encode(value);
const frame = (message: unknown) => contentLengthFraming.encode(message);

function concat(...parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

/** Push every chunk and collect what the reader found. */
function readAll(chunks: Uint8Array[], reader: FrameReader = contentLengthFraming.createReader()): ReadItem[] {
  return chunks.flatMap((chunk) => reader.push(chunk));
}

const values = (items: ReadItem[]) => items.map((item) => (item.type === 'message' ? item.value : `${item.kind}`));

describe('contentLengthFraming.encode', () => {
  it('counts UTF-8 bytes, not characters: "你好" is 6 bytes', () => {
    expect(text.decode(frame('你好'))).toBe('Content-Length: 8\r\n\r\n"你好"'); // 6 bytes + 2 quotes
    const body = '{"text":"你好"}';
    expect(body.length).toBe(13);
    expect(text.decode(frame({ text: '你好' }))).toBe(`Content-Length: 17\r\n\r\n${body}`);
  });

  it('writes compact JSON and refuses values JSON cannot carry', () => {
    expect(text.decode(frame({ a: [1, { b: null }] }))).toBe('Content-Length: 20\r\n\r\n{"a":[1,{"b":null}]}');
    expect(() => frame(undefined)).toThrow(TypeError);
    expect(() => frame(() => 1)).toThrow(TypeError);
  });
});

describe('content-length reader: splitting', () => {
  it('reads three frames from one chunk, with offsets and lengths', () => {
    const frames = [frame({ id: 1 }), frame({ id: 2, text: '你好' }), frame([true])];
    const items = readAll([concat(...frames)]);
    expect(items).toEqual([
      { type: 'message', value: { id: 1 }, offset: 0, length: frames[0]!.length },
      { type: 'message', value: { id: 2, text: '你好' }, offset: frames[0]!.length, length: frames[1]!.length },
      { type: 'message', value: [true], offset: frames[0]!.length + frames[1]!.length, length: frames[2]!.length },
    ]);
  });

  it('reads one frame pushed a byte at a time, and only once the last byte is in', () => {
    const whole = frame({ jsonrpc: '2.0', method: 'ping', params: { text: 'héllo 🌍 世界' } });
    const reader = contentLengthFraming.createReader();
    for (let i = 0; i < whole.length - 1; i++) {
      expect(reader.push(whole.subarray(i, i + 1))).toEqual([]);
      expect(reader.bufferedBytes).toBeGreaterThan(0);
    }
    expect(values(reader.push(whole.subarray(whole.length - 1)))).toEqual([{ jsonrpc: '2.0', method: 'ping', params: { text: 'héllo 🌍 世界' } }]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('copes with a chunk that ends inside a 3-byte character and one inside a 4-byte emoji', () => {
    const whole = frame('a你b🚀c');
    const bodyStart = whole.indexOf(0x22); // the opening quote
    const insideCjk = bodyStart + 3; // 你 is bytes bodyStart+2 .. +4
    const insideEmoji = bodyStart + 8; // 🚀 is bytes bodyStart+6 .. +9
    const items = readAll([whole.subarray(0, insideCjk), whole.subarray(insideCjk, insideEmoji), whole.subarray(insideEmoji)]);
    expect(values(items)).toEqual(['a你b🚀c']);
  });

  it('keeps the bytes after a frame for the next one', () => {
    const first = frame({ n: 1 });
    const second = frame({ n: 2 });
    const reader = contentLengthFraming.createReader();
    const cut = first.length + 10;
    expect(values(reader.push(concat(first, second).subarray(0, cut)))).toEqual([{ n: 1 }]);
    expect(reader.bufferedBytes).toBe(10);
    expect(reader.push(concat(first, second).subarray(cut))).toEqual([{ type: 'message', value: { n: 2 }, offset: first.length, length: second.length }]);
  });

  it('reads a Content-Length: 0 frame as an empty, non-JSON body', () => {
    expect(readAll([bytes('Content-Length: 0\r\n\r\n'), frame(1)])).toMatchObject([
      { type: 'error', kind: 'bad-json', offset: 0, length: 21 },
      { type: 'message', value: 1, offset: 21 },
    ]);
  });
});

describe('content-length reader: headers', () => {
  it('accepts any case, other headers and whitespace around the value', () => {
    const body = '{"ok":true}';
    const stream = bytes(
      `content-length: 11\r\n\r\n${body}` +
        `CONTENT-LENGTH:11\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n${body}` +
        `Content-Type: application/json\r\ncOnTeNt-LeNgTh: \t 11 \t\r\n\r\n${body}`,
    );
    expect(values(readAll([stream]))).toEqual([{ ok: true }, { ok: true }, { ok: true }]);
  });

  it('accepts the same Content-Length twice', () => {
    expect(values(readAll([bytes('Content-Length: 2\r\nContent-Length: 2\r\n\r\n[]')]))).toEqual([[]]);
  });

  it.each([
    ['missing', 'Content-Type: application/json\r\n\r\n', 'no Content-Length header'],
    ['not digits', 'Content-Length: abc\r\n\r\n', 'not a byte count'],
    ['negative', 'Content-Length: -5\r\n\r\n', 'not a byte count'],
    ['a float', 'Content-Length: 1.5\r\n\r\n', 'not a byte count'],
    ['empty', 'Content-Length: \r\n\r\n', 'not a byte count'],
    ['absurdly long', `Content-Length: ${'9'.repeat(20)}\r\n\r\n`, 'not a byte count'],
    ['conflicting duplicates', 'Content-Length: 3\r\nContent-Length: 4\r\n\r\n', 'conflicting'],
  ])('reports a header block with a %s length as bad-header, then reads the next frame', (_case, header, detail) => {
    const next = frame({ next: true });
    const items = readAll([concat(bytes(header), next)]);
    expect(items).toEqual([
      { type: 'error', kind: 'bad-header', detail: expect.stringContaining(detail), offset: 0, length: header.length },
      { type: 'message', value: { next: true }, offset: header.length, length: next.length },
    ]);
  });

  it('resynchronises after a log line written to stdout between frames', () => {
    const first = frame({ n: 1 });
    const log = bytes('listening on stdio...\n');
    const second = frame({ n: 2 });
    const items = readAll([concat(first, log, second)]);
    expect(items).toEqual([
      { type: 'message', value: { n: 1 }, offset: 0, length: first.length },
      { type: 'error', kind: 'bad-header', detail: 'not a header line', offset: first.length, length: log.length },
      { type: 'message', value: { n: 2 }, offset: first.length + log.length, length: second.length },
    ]);
  });

  it('treats a log line that looks like a header but ends in a bare LF as garbage', () => {
    const log = bytes('Server: started on port 3000\n');
    expect(values(readAll([concat(log, frame(7))]))).toEqual(['bad-header', 7]);
  });

  it('drops a stray blank line and a log line split across chunks', () => {
    const stream = concat(bytes('\r\n'), bytes('booting (pid 42)\n'), frame('ok'));
    const items = readAll([stream.subarray(0, 5), stream.subarray(5, 9), stream.subarray(9)]);
    expect(items).toMatchObject([
      { kind: 'bad-header', offset: 0, length: 2 },
      { kind: 'bad-header', offset: 2, length: 17 },
      { type: 'message', value: 'ok', offset: 19 },
    ]);
  });

  it('finds the next header when garbage without a newline runs into it', () => {
    const garbage = bytes('{"orphan":"body"}');
    const next = frame({ n: 2 });
    expect(readAll([concat(garbage, next)])).toEqual([
      { type: 'error', kind: 'bad-header', detail: 'not a header line', offset: 0, length: garbage.length },
      { type: 'message', value: { n: 2 }, offset: garbage.length, length: next.length },
    ]);
  });

  it('drops a single stray byte before a header', () => {
    expect(readAll([concat(bytes('}'), frame(5))])).toMatchObject([
      { type: 'error', kind: 'bad-header', offset: 0, length: 1 },
      { type: 'message', value: 5, offset: 1 },
    ]);
  });

  it('loses only the bad frame when a header without a length is followed by its body', () => {
    // The body cannot be skipped (its length is unknown), so it is read as garbage; it runs into
    // the next header, which the resync rule finds.
    const bad = bytes('Content-Type: application/json\r\n\r\n{"lost":1}');
    const items = readAll([concat(frame(1), bad, frame(2), frame(3))]);
    expect(values(items)).toEqual([1, 'bad-header', 'bad-header', 2, 3]);
  });

  it('reads on after a body whose declared length was too short', () => {
    // Content-Length says 5, the body is 7 bytes: the 2 extra bytes run into the next header.
    const items = readAll([concat(bytes('Content-Length: 5\r\n\r\n[1,2,3]'), frame('next'))]);
    expect(values(items)).toEqual(['bad-json', 'bad-header', 'next']);
  });

  it('drops an endless header block, keeping memory bounded, and reads on after it', () => {
    const reader = contentLengthFraming.createReader();
    const noise = bytes('x'.repeat(1024));
    const items: ReadItem[] = [];
    for (let i = 0; i < 40; i++) {
      items.push(...reader.push(noise));
      expect(reader.bufferedBytes).toBeLessThanOrEqual(MAX_HEADER_BYTES);
    }
    expect(items).toEqual([{ type: 'error', kind: 'bad-header', detail: expect.stringContaining('no end of header'), offset: 0, length: MAX_HEADER_BYTES + 1024 }]);
    expect(values(reader.push(concat(bytes('\n'), frame({ after: 'noise' }))))).toEqual([{ after: 'noise' }]);
  });

  it('drops a header block made of too many valid lines', () => {
    const many = bytes('X-Padding: 0123456789\r\n'.repeat(Math.ceil(MAX_HEADER_BYTES / 20)));
    expect(values(readAll([many, frame(1)]))).toEqual(['bad-header', 1]);
  });
});

describe('content-length reader: bodies', () => {
  it('reports a body that is not JSON as bad-json and reads the next frame', () => {
    const items = readAll([concat(bytes('Content-Length: 5\r\n\r\nhello'), frame({ n: 2 }))]);
    expect(items[0]).toEqual({ type: 'error', kind: 'bad-json', detail: expect.stringContaining('not JSON'), offset: 0, length: 26 });
    expect(items[1]).toMatchObject({ type: 'message', value: { n: 2 }, offset: 26 });
  });

  it('reports a body that is not UTF-8 as bad-json, even when split mid-sequence', () => {
    // 0xE4 0xBD starts 你 but 0x22 (") cannot continue it.
    const bad = concat(bytes('Content-Length: 5\r\n\r\n"'), new Uint8Array([0xe4, 0xbd]), bytes('"]'));
    const items = readAll([bad.subarray(0, 23), bad.subarray(23), frame(2)]);
    expect(items).toEqual([
      { type: 'error', kind: 'bad-json', detail: 'body is not valid UTF-8', offset: 0, length: bad.length },
      { type: 'message', value: 2, offset: bad.length, length: frame(2).length },
    ]);
  });

  it('reports a 2 GB declared length as too-large without holding the body', () => {
    const reader = contentLengthFraming.createReader();
    const header = bytes('Content-Length: 2000000000\r\n\r\n');
    expect(reader.push(header)).toEqual([
      { type: 'error', kind: 'too-large', detail: expect.stringContaining('2000000000'), offset: 0, length: header.length + 2_000_000_000 },
    ]);
    const megabyte = new Uint8Array(1024 * 1024).fill(0x61);
    for (let i = 0; i < 8; i++) {
      expect(reader.push(megabyte)).toEqual([]);
      expect(reader.bufferedBytes).toBe(0);
    }
  });

  it('skips exactly the declared bytes of a too-large body, then reads the next frame', () => {
    const reader = contentLengthFraming.createReader({ maxMessageBytes: 100 });
    const header = bytes('Content-Length: 150\r\n\r\n');
    const body = bytes(`"${'x'.repeat(148)}"`);
    const next = frame({ small: true });
    const stream = concat(header, body, next);
    const items = [40, 90, 100, 130, stream.length].flatMap((end, i, ends) => reader.push(stream.subarray(ends[i - 1] ?? 0, end)));
    expect(items).toEqual([
      { type: 'error', kind: 'too-large', detail: expect.any(String), offset: 0, length: header.length + 150 },
      { type: 'message', value: { small: true }, offset: header.length + 150, length: next.length },
    ]);
  });

  it('accepts a body of exactly maxMessageBytes', () => {
    const reader = contentLengthFraming.createReader({ maxMessageBytes: 8 });
    expect(values(reader.push(frame('你好')))).toEqual(['你好']);
  });
});
