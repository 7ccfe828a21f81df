import { describe, expect, it } from 'vitest';
import { countFrames, formatId, formatTapTime, showControlCharacters } from './log-format.ts';

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
