import { describe, expect, it } from 'vitest';
import { countFrames, DEPTH_MARKER, formatId, formatTapTime, MAX_PRETTY_DEPTH, prettyJson, prettyJsonSafe, showControlCharacters } from './log-format.ts';

describe('log formatting', () => {
  it('makes CR, LF and other control characters visible', () => {
    expect(showControlCharacters('Content-Length: 2\r\n\r\n{}')).toBe('Content-Length: 2\\r\\n\n\\r\\n\n{}');
    expect(showControlCharacters('a\u0000b')).toBe('a\\x00b');
    expect(showControlCharacters('你好')).toBe('你好');
  });

  it('shows ids as JSON so 1 and "1" differ, and 0 is a real id', () => {
    expect(formatId(0)).toBe('#0');
    expect(formatId('1')).toBe('#"1"');
    expect(formatId(null)).toBe('');
  });

  it('formats tap time with one decimal', () => {
    expect(formatTapTime(12)).toBe('12.0');
    expect(formatTapTime(3.14159)).toBe('3.1');
  });

  it('counts messages and unreadable frames apart', () => {
    expect(
      countFrames([
        { type: 'message', kind: 'request', method: 'initialize', id: 0, value: {}, invalidReason: null, length: 10, startedEarlier: false },
        { type: 'message', kind: 'invalid', method: null, id: null, value: 1, invalidReason: 'x', length: 1, startedEarlier: false },
        { type: 'error', kind: 'bad-header', detail: 'no length', length: 5, startedEarlier: false },
      ]),
    ).toEqual({ messages: 1, errors: 2 });
  });
});

describe('prettyJson, depth-safe', () => {
  /** `{"a":{"a":…{"a":1}}}` built without recursion, then parsed as a trace would parse it. */
  function nested(depth: number): unknown {
    return JSON.parse(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
  }

  it('prints ordinary messages exactly as JSON.stringify does', () => {
    const message = { jsonrpc: '2.0', id: 1, result: { list: [1, 'two', { three: null }], text: '你好' } };
    expect(prettyJsonSafe(message)).toEqual({ text: JSON.stringify(message, null, 2), truncated: false });
    expect(prettyJson(nested(MAX_PRETTY_DEPTH))).toBe(JSON.stringify(nested(MAX_PRETTY_DEPTH), null, 2));
  });

  it('renders a message nested 200,000 levels deep, cut with a marker, instead of throwing RangeError', () => {
    const deep = nested(200_000);
    // The control: what the printer did before.
    expect(() => JSON.stringify(deep, null, 2)).toThrow(RangeError);
    const { text, truncated } = prettyJsonSafe(deep);
    expect(truncated).toBe(true);
    expect(text).toContain(JSON.stringify(DEPTH_MARKER));
    // Still valid JSON: MAX_PRETTY_DEPTH levels of "a", then the marker.
    let cursor: unknown = JSON.parse(text);
    for (let level = 0; level < MAX_PRETTY_DEPTH; level++) cursor = (cursor as { a: unknown }).a;
    expect(cursor).toBe(DEPTH_MARKER);
  });

  it('cuts deep arrays too, and takes another marker', () => {
    const deepArray = JSON.parse(`${'['.repeat(50_000)}${']'.repeat(50_000)}`);
    const { text, truncated } = prettyJsonSafe(deepArray, 3, '<cut>');
    expect(truncated).toBe(true);
    expect(JSON.parse(text)).toEqual([[['<cut>']]]);
  });
});
