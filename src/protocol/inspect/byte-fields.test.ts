import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeFrame, encodeLine } from '../framing/index.ts';
import { frameLayout, highlightOf, jsonByteRanges, pathKey, rangeAtByte, utf8Length, type FieldRange } from './byte-fields.ts';

const decode = (bytes: Uint8Array, range: { start: number; end: number }) => new TextDecoder().decode(bytes.subarray(range.start, range.end));
const message = { jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text', text: '你好' }], isError: false } };

function texts(bytes: Uint8Array, fields: readonly FieldRange[]): Array<[string, string]> {
  return fields.map((field) => [field.kind, decode(bytes, field)]);
}

describe('frameLayout: Content-Length', () => {
  it('splits header name, value, the CRLFCRLF separator and the body', () => {
    const bytes = encodeFrame(message);
    const layout = frameLayout(bytes, 'content-length');
    const body = JSON.stringify(message);
    expect(texts(bytes, layout.fields)).toEqual([
      ['header-name', 'Content-Length: '],
      ['header-value', String(new TextEncoder().encode(body).length)],
      ['separator', '\r\n\r\n'],
      ['body', body],
    ]);
    expect(layout.declaredLength).toBe(new TextEncoder().encode(body).length);
    expect(layout.body).toEqual({ start: bytes.length - layout.declaredLength!, end: bytes.length });
  });

  it('marks the line end between two header lines', () => {
    const bytes = new TextEncoder().encode('Content-Type: x\r\nContent-Length: 2\r\n\r\n{}');
    expect(texts(bytes, frameLayout(bytes, 'content-length').fields).map(([kind]) => kind)).toEqual([
      'header-name',
      'header-value',
      'line-end',
      'header-name',
      'header-value',
      'separator',
      'body',
    ]);
  });

  it('calls bytes without a header block junk (a log line on stdout)', () => {
    const bytes = new TextEncoder().encode('[echo-server] answering initialize\n');
    expect(frameLayout(bytes, 'content-length')).toEqual({ fields: [{ kind: 'junk', start: 0, end: bytes.length }], body: null, declaredLength: null });
  });
});

describe('frameLayout: NDJSON', () => {
  it('has the body and the final newline', () => {
    const bytes = encodeLine(message);
    const layout = frameLayout(bytes, 'ndjson');
    expect(layout.fields.map((field) => field.kind)).toEqual(['body', 'newline']);
    expect(layout.fields[1]).toEqual({ kind: 'newline', start: bytes.length - 1, end: bytes.length });
    expect(layout.declaredLength).toBeNull();
  });

  it('counts a CR before the LF as part of the line ending', () => {
    const bytes = new TextEncoder().encode('{}\r\n');
    expect(texts(bytes, frameLayout(bytes, 'ndjson').fields)).toEqual([
      ['body', '{}'],
      ['newline', '\r\n'],
    ]);
  });
});

describe('jsonByteRanges', () => {
  const frame = encodeFrame(message);
  const layout = frameLayout(frame, 'content-length');
  const bodyStart = layout.body!.start;
  const ranges = jsonByteRanges(message, frame.subarray(bodyStart), bodyStart)!;
  const find = (path: Array<string | number>) => ranges.find((range) => pathKey(range.path) === pathKey(path))!;

  it('maps each value to its bytes in the frame, in UTF-8 bytes', () => {
    expect(decode(frame, find(['result', 'content', 0, 'text']))).toBe('"你好"');
    const text = find(['result', 'content', 0, 'text']);
    expect(text.end - text.start).toBe(8);
    expect(decode(frame, { start: text.keyStart!, end: text.keyEnd! })).toBe('"text"');
    expect(decode(frame, find(['id']))).toBe('2');
    expect(decode(frame, find([]))).toBe(JSON.stringify(message));
  });

  it('finds the innermost value under a byte, keys included', () => {
    const text = find(['result', 'content', 0, 'text']);
    expect(rangeAtByte(ranges, text.start + 3)?.path).toEqual(['result', 'content', 0, 'text']);
    expect(rangeAtByte(ranges, text.keyStart! + 1)?.path).toEqual(['result', 'content', 0, 'text']);
    expect(rangeAtByte(ranges, bodyStart)?.path).toEqual([]);
    expect(rangeAtByte(ranges, 0)).toBeUndefined();
    expect(highlightOf(text)).toEqual({ start: text.keyStart, end: text.end });
  });

  it('says null instead of guessing when the body is not compact JSON', () => {
    const pretty = new TextEncoder().encode(JSON.stringify({ a: 1 }, null, 2));
    expect(jsonByteRanges({ a: 1 }, pretty)).toBeNull();
  });

  it('lands on the right bytes for any JSON value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const body = new TextEncoder().encode(JSON.stringify(value));
        const parsed = JSON.parse(JSON.stringify(value)) as unknown;
        const found = jsonByteRanges(parsed, body);
        expect(found).not.toBeNull();
        for (const range of found!) {
          const slice = JSON.parse(decode(body, range)) as unknown;
          let expected: unknown = parsed;
          for (const step of range.path) expected = (expected as Record<string | number, unknown>)[step];
          expect(slice).toEqual(expected);
        }
      }),
    );
  });
});

describe('utf8Length', () => {
  it('matches TextEncoder', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(utf8Length(text)).toBe(new TextEncoder().encode(text).length);
      }),
    );
  });
});
