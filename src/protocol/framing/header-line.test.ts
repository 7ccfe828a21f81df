import { describe, expect, it } from 'vitest';
import { classifyHeaderLine, indexOfContentLength } from './header-line.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const classify = (text: string) => {
  const line = bytes(text);
  return classifyHeaderLine(line, 0, line.length);
};

describe('classifyHeaderLine', () => {
  it('recognises the blank line that ends a header block', () => {
    expect(classify('\r\n')).toEqual({ kind: 'blank' });
  });

  it('reads Content-Length in any case, with spaces or tabs around the value', () => {
    expect(classify('Content-Length: 42\r\n')).toEqual({ kind: 'content-length', value: 42 });
    expect(classify('content-length:7\r\n')).toEqual({ kind: 'content-length', value: 7 });
    expect(classify('CONTENT-LENGTH: \t 007 \t\r\n')).toEqual({ kind: 'content-length', value: 7 });
  });

  it('gives null for a value that is not a byte count', () => {
    for (const value of ['', ' ', '-1', '+1', '1e3', '0x10', '12 34', '１２', '1234567890123456']) {
      expect(classify(`Content-Length: ${value}\r\n`), value).toEqual({ kind: 'content-length', value: null });
    }
    expect(classify('Content-Length: 123456789012345\r\n')).toEqual({ kind: 'content-length', value: 123456789012345 });
  });

  it('accepts other fields without reading them', () => {
    expect(classify('Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n')).toEqual({ kind: 'other-field' });
    expect(classify('X-Empty:\r\n')).toEqual({ kind: 'other-field' });
    expect(classify('Content-Lengthy: 3\r\n')).toEqual({ kind: 'other-field' });
  });

  it('calls anything else garbage', () => {
    for (const line of ['listening...\n', 'Content-Length: 5\n', '\n', 'no colon here\r\n', ': no name\r\n', 'Bad Name: x\r\n', '{"a":1}\r\n', '\r', 'x']) {
      expect(classify(line), JSON.stringify(line)).toEqual({ kind: 'garbage' });
    }
  });

  it('looks only at the given range', () => {
    const line = bytes('junk Content-Length: 3\r\n');
    expect(classifyHeaderLine(line, 5, line.length)).toEqual({ kind: 'content-length', value: 3 });
  });
});

describe('indexOfContentLength', () => {
  it('finds the marker in any case, only within the range', () => {
    const text = bytes('abc}CONTENT-length: 5');
    expect(indexOfContentLength(text, 0, text.length)).toBe(4);
    expect(indexOfContentLength(text, 5, text.length)).toBe(-1);
    expect(indexOfContentLength(text, 0, 18)).toBe(-1); // the colon is outside the range
    expect(indexOfContentLength(bytes('Content-Length 5'), 0, 16)).toBe(-1);
  });
});
