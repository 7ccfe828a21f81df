import { describe, expect, it } from 'vitest';
import { formatBytes, formatOffset, hexByte, hexRows, textCells } from './hex-rows.ts';
import { utf8Groups } from './utf8-groups.ts';

const utf8 = new TextEncoder();

describe('hexRows', () => {
  it('makes rows of 16 bytes, the last one short', () => {
    expect(hexRows(40)).toEqual([
      { offset: 0, end: 16 },
      { offset: 16, end: 32 },
      { offset: 32, end: 40 },
    ]);
    expect(hexRows(0)).toEqual([]);
  });

  it('writes offsets in hex, at least four digits, wider when the frame is long', () => {
    expect(formatOffset(16, 40)).toBe('0010');
    expect(formatOffset(0x10000, 0x10010)).toBe('10000');
    expect(hexByte(0x0a)).toBe('0a');
  });
});

describe('textCells', () => {
  it('shows printable ASCII, . for control bytes, and a character once on its lead byte', () => {
    const bytes = utf8.encode('A\r\n你');
    const cells = textCells(bytes, utf8Groups(bytes));
    expect(cells.map((cell) => cell.text)).toEqual(['A', '.', '.', '你', '', '']);
    expect(cells.map((cell) => cell.kind)).toEqual(['ascii', 'unprintable', 'unprintable', 'char-lead', 'char-tail', 'char-tail']);
  });

  it('shows a cut character as unprintable bytes', () => {
    const bytes = utf8.encode('你').subarray(0, 2);
    expect(textCells(bytes, utf8Groups(bytes)).map((cell) => cell.text)).toEqual(['.', '.']);
  });
});

describe('formatBytes', () => {
  const bytes = utf8.encode('你');
  it('copies as hex, base64 or text', () => {
    expect(formatBytes(bytes, 'hex')).toBe('e4 bd a0');
    expect(formatBytes(bytes, 'base64')).toBe('5L2g');
    expect(formatBytes(bytes, 'text')).toBe('你');
  });
});
