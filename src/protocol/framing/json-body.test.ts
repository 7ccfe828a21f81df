import { describe, expect, it } from 'vitest';
import { readJsonBody, toJsonText } from './json-body.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('readJsonBody', () => {
  it('decodes UTF-8 JSON into a message carrying the given offset and length', () => {
    expect(readJsonBody(bytes('{"text":"你好 🚀"}'), 10, 30)).toEqual({ type: 'message', value: { text: '你好 🚀' }, offset: 10, length: 30 });
  });

  it('refuses invalid UTF-8 instead of patching it with U+FFFD', () => {
    for (const raw of [[0x22, 0xe4, 0xbd, 0x22], [0x22, 0xc0, 0xaf, 0x22], [0x22, 0xed, 0xa0, 0x80, 0x22], [0x22, 0xf0, 0x9f, 0x9a]]) {
      expect(readJsonBody(new Uint8Array(raw), 0, raw.length)).toEqual({ type: 'error', kind: 'bad-json', detail: 'body is not valid UTF-8', offset: 0, length: raw.length });
    }
  });

  it('reports text that is not JSON, with the parser message', () => {
    expect(readJsonBody(bytes('{"a":'), 1, 2)).toEqual({ type: 'error', kind: 'bad-json', detail: expect.stringMatching(/^body is not JSON: /), offset: 1, length: 2 });
    expect(readJsonBody(bytes(''), 0, 0)).toMatchObject({ kind: 'bad-json' });
  });
});

describe('toJsonText', () => {
  it('is JSON.stringify for values JSON can carry', () => {
    expect(toJsonText({ a: [1, 'x', null, true] })).toBe('{"a":[1,"x",null,true]}');
    expect(toJsonText(-0)).toBe('0');
  });

  it('throws a TypeError for undefined, functions and symbols', () => {
    expect(() => toJsonText(undefined)).toThrow(TypeError);
    expect(() => toJsonText(() => 1)).toThrow(TypeError);
    expect(() => toJsonText(Symbol('s'))).toThrow(TypeError);
  });
});
