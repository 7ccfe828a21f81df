import { describe, expect, it } from 'vitest';
import { ndjsonFraming } from './ndjson.ts';
import type { FrameReader, ReadItem } from './types.ts';

const utf8 = new TextEncoder();
const bytes = (value: string) => utf8.encode(value);
const line = (message: unknown) => ndjsonFraming.encode(message);

function concat(...parts: Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}

function readAll(chunks: Uint8Array[], reader: FrameReader = ndjsonFraming.createReader()): ReadItem[] {
  return chunks.flatMap((chunk) => reader.push(chunk));
}

const values = (items: ReadItem[]) => items.map((item) => (item.type === 'message' ? item.value : `${item.kind}`));

describe('ndjsonFraming.encode', () => {
  it('writes compact JSON and one newline; a newline inside a string stays escaped', () => {
    expect(new TextDecoder().decode(line({ text: 'two\nlines', n: [1, 2] }))).toBe('{"text":"two\\nlines","n":[1,2]}\n');
    expect(line('你好')).toEqual(bytes('"你好"\n'));
    expect(() => line(undefined)).toThrow(TypeError);
  });
});

describe('ndjson reader: splitting', () => {
  it('reads three lines from one chunk, with offsets and lengths', () => {
    const lines = [line({ id: 1 }), line({ id: 2, text: '你好 🚀' }), line(null)];
    expect(readAll([concat(...lines)])).toEqual([
      { type: 'message', value: { id: 1 }, offset: 0, length: lines[0]!.length },
      { type: 'message', value: { id: 2, text: '你好 🚀' }, offset: lines[0]!.length, length: lines[1]!.length },
      { type: 'message', value: null, offset: lines[0]!.length + lines[1]!.length, length: lines[2]!.length },
    ]);
  });

  it('reads one line pushed a byte at a time, holding the bytes until the newline', () => {
    const whole = line({ jsonrpc: '2.0', method: 'ping', params: { text: 'héllo 🌍 世界' } });
    const reader = ndjsonFraming.createReader();
    for (let i = 0; i < whole.length - 1; i++) {
      expect(reader.push(whole.subarray(i, i + 1))).toEqual([]);
      expect(reader.bufferedBytes).toBe(i + 1);
    }
    expect(values(reader.push(whole.subarray(whole.length - 1)))).toEqual([{ jsonrpc: '2.0', method: 'ping', params: { text: 'héllo 🌍 世界' } }]);
    expect(reader.bufferedBytes).toBe(0);
  });

  it('copes with a chunk that ends inside a 3-byte character and one inside a 4-byte emoji', () => {
    const whole = line('a你b🚀c'); // 你 is bytes 2..4, 🚀 bytes 6..9
    const items = readAll([whole.subarray(0, 3), whole.subarray(3, 7), whole.subarray(7)]);
    expect(values(items)).toEqual(['a你b🚀c']);
  });

  it('keeps the bytes after a newline for the next line', () => {
    const stream = concat(line({ n: 1 }), line({ n: 2 }));
    const reader = ndjsonFraming.createReader();
    const cut = line({ n: 1 }).length + 4;
    expect(values(reader.push(stream.subarray(0, cut)))).toEqual([{ n: 1 }]);
    expect(reader.bufferedBytes).toBe(4);
    expect(reader.push(stream.subarray(cut))).toEqual([{ type: 'message', value: { n: 2 }, offset: cut - 4, length: line({ n: 2 }).length }]);
  });
});

describe('ndjson reader: line endings and blank lines', () => {
  it('strips one CR before the newline, even when the CR ends a chunk', () => {
    const stream = bytes('{"a":1}\r\n[2]\r\n');
    expect(readAll([stream.subarray(0, 8), stream.subarray(8)])).toEqual([
      { type: 'message', value: { a: 1 }, offset: 0, length: 9 },
      { type: 'message', value: [2], offset: 9, length: 5 },
    ]);
  });

  it('skips empty and whitespace-only lines without a report, and keeps offsets right', () => {
    const items = readAll([bytes('\n\r\n  \t \n{"x":1}\n\n')]);
    expect(items).toEqual([{ type: 'message', value: { x: 1 }, offset: 8, length: 8 }]);
  });

  it('accepts JSON surrounded by spaces', () => {
    expect(values(readAll([bytes('  {"x":1}  \n')]))).toEqual([{ x: 1 }]);
  });
});

describe('ndjson reader: errors', () => {
  it('reports a line that is not JSON and reads the next one', () => {
    const items = readAll([bytes('listening on stdio...\n{"ok":true}\n')]);
    expect(items).toEqual([
      { type: 'error', kind: 'bad-json', detail: expect.stringContaining('not JSON'), offset: 0, length: 22 },
      { type: 'message', value: { ok: true }, offset: 22, length: 12 },
    ]);
  });

  it('reports a line that is not UTF-8 and reads the next one', () => {
    const bad = concat(bytes('"'), new Uint8Array([0xff, 0xfe]), bytes('"\n'));
    expect(readAll([bad, line(1)])).toEqual([
      { type: 'error', kind: 'bad-json', detail: 'body is not valid UTF-8', offset: 0, length: 5 },
      { type: 'message', value: 1, offset: 5, length: 2 },
    ]);
  });

  it('reports a line growing past the limit once, holds none of it, and reads the line after it', () => {
    const reader = ndjsonFraming.createReader({ maxMessageBytes: 100 });
    const piece = bytes('x'.repeat(60));
    expect(reader.push(piece)).toEqual([]);
    expect(reader.push(piece)).toEqual([
      { type: 'error', kind: 'too-large', detail: expect.stringContaining('no newline within 100 bytes'), offset: 0, length: 120 },
    ]);
    for (let i = 0; i < 5; i++) {
      expect(reader.push(piece)).toEqual([]);
      expect(reader.bufferedBytes).toBe(0);
    }
    const next = line({ after: true });
    expect(reader.push(concat(bytes('tail\n'), next))).toEqual([{ type: 'message', value: { after: true }, offset: 425, length: next.length }]);
  });

  it('reports a too-long line that arrives whole in one chunk', () => {
    const reader = ndjsonFraming.createReader({ maxMessageBytes: 10 });
    const long = line('x'.repeat(20));
    expect(reader.push(concat(long, line(3)))).toEqual([
      { type: 'error', kind: 'too-large', detail: expect.any(String), offset: 0, length: long.length },
      { type: 'message', value: 3, offset: long.length, length: 2 },
    ]);
  });

  it('accepts a body of exactly maxMessageBytes, with or without a CR, split or whole', () => {
    const body = '"你好"'; // 8 bytes
    for (const ending of ['\n', '\r\n']) {
      const stream = bytes(body + ending);
      for (let cut = 1; cut < stream.length; cut++) {
        const reader = ndjsonFraming.createReader({ maxMessageBytes: 8 });
        expect(values(readAll([stream.subarray(0, cut), stream.subarray(cut)], reader)), `cut ${cut}`).toEqual(['你好']);
      }
    }
    expect(values(readAll([bytes(`"你好!"\r\n`)], ndjsonFraming.createReader({ maxMessageBytes: 8 })))).toEqual(['too-large']);
  });
});
