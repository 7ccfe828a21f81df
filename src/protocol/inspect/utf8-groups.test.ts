import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCodePoint, nonAsciiRuns, utf8Groups, utf8SequenceLength } from './utf8-groups.ts';

const utf8 = new TextEncoder();

describe('utf8Groups', () => {
  it('groups each multi-byte character with its bytes', () => {
    const groups = utf8Groups(utf8.encode('a你好!'));
    expect(groups.map(({ start, length, char }) => ({ start, length, char }))).toEqual([
      { start: 1, length: 3, char: '你' },
      { start: 4, length: 3, char: '好' },
    ]);
    expect(formatCodePoint(groups[0]!.codePoint)).toBe('U+4F60');
  });

  it('counts an emoji as 4 bytes and 2 UTF-16 units', () => {
    const [wave] = utf8Groups(utf8.encode('👋'));
    expect(wave).toMatchObject({ length: 4, utf16Units: 2, codePoint: 0x1f44b });
  });

  it('leaves out a character cut short by the end of the bytes', () => {
    const bytes = utf8.encode('你好').subarray(0, 5);
    expect(utf8Groups(bytes).map((group) => group.char)).toEqual(['你']);
  });

  it('refuses an overlong encoding and stray continuation bytes', () => {
    expect(utf8Groups(new Uint8Array([0xc0, 0xaf, 0x80, 0xbf]))).toEqual([]);
    expect(utf8SequenceLength(0xc0)).toBe(0);
  });

  it('agrees with TextEncoder on any string: the groups cover exactly the non-ASCII characters', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        const bytes = utf8.encode(text);
        const groups = utf8Groups(bytes);
        // Grapheme strings are well-formed: no lone surrogates, which TextEncoder would replace.
        expect(groups.map((group) => group.char).join('')).toBe([...text].filter((char) => char.codePointAt(0)! >= 0x80).join(''));
      }),
    );
  });
});

describe('nonAsciiRuns', () => {
  it('shows 你好 as 6 bytes but 2 UTF-16 units', () => {
    const runs = nonAsciiRuns(utf8.encode('"你好, MCP 👋"'));
    expect(runs).toEqual([
      { start: 1, end: 7, text: '你好', byteLength: 6, utf16Length: 2, characters: 2 },
      { start: 13, end: 17, text: '👋', byteLength: 4, utf16Length: 2, characters: 1 },
    ]);
  });
});
