import { describe, expect, it } from 'vitest';
import { FirstLineWatch, framingMismatchHint, MAX_FIRST_LINE_BYTES } from './framing-mismatch.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const JSON_LINE = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}\n';

describe('framingMismatchHint', () => {
  it('a Content-Length header under NDJSON names --framing=content-length', () => {
    const hint = framingMismatchHint('ndjson', bytes('Content-Length: 52\r\n'));
    expect(hint).toContain('Content-Length frames');
    expect(hint).toContain('--framing=content-length');
    // Any case: header names are case-insensitive.
    expect(framingMismatchHint('ndjson', bytes('content-length: 52\r\n'))).toContain('--framing=content-length');
  });

  it('a JSON line under Content-Length names NDJSON and the default flag', () => {
    const hint = framingMismatchHint('content-length', bytes(JSON_LINE));
    expect(hint).toContain('newline-delimited JSON');
    expect(hint).toContain('--framing=ndjson');
  });

  it('says nothing when the line fits the framing, or shows neither', () => {
    expect(framingMismatchHint('ndjson', bytes(JSON_LINE))).toBeNull();
    expect(framingMismatchHint('content-length', bytes('Content-Length: 5\r\n'))).toBeNull();
    expect(framingMismatchHint('content-length', bytes('hello\n'))).toBeNull();
    expect(framingMismatchHint('ndjson', bytes('\r\n'))).toBeNull();
  });
});

describe('FirstLineWatch', () => {
  it('judges the first line once it is complete, however it is split, and only once', () => {
    const watch = new FirstLineWatch('content-length');
    expect(watch.push(bytes('{"jsonrpc":'))).toBeNull();
    expect(watch.push(bytes('"2.0"}\n{'))).toContain('--framing=ndjson');
    expect(watch.push(bytes(JSON_LINE))).toBeNull();
  });

  it('judges a line with no end after MAX_FIRST_LINE_BYTES', () => {
    const watch = new FirstLineWatch('ndjson');
    expect(watch.push(bytes(`Content-Length: ${'9'.repeat(MAX_FIRST_LINE_BYTES)}`))).toContain('--framing=content-length');
  });
});
