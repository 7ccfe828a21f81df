import { describe, expect, it } from 'vitest';
import { hintForSection, parseHints, parseRules, sectionsOfTest, type Hint } from './hints.ts';

describe('parseHints', () => {
  it('splits on lines holding only ---, trims, drops empty hints, and keeps --- inside a line', () => {
    expect(parseHints('First hint.\r\n\r\n---\r\nSecond, with a -- dash and a table:\n| a | --- |\n  ---  \n\n---\n').map((hint) => hint.text)).toEqual([
      'First hint.',
      'Second, with a -- dash and a table:\n| a | --- |',
    ]);
    expect(parseHints('')).toEqual([]);
  });

  it('reads the sections a hint names from its first line, and leaves that line out of the text', () => {
    expect(parseHints('{#ids}\nUse `idKey`.\n\n---\n\n{#handshake} {#ready-gate}\r\nAwait the answer.\n---\nNo section line.')).toEqual([
      { sections: ['ids'], text: 'Use `idKey`.' },
      { sections: ['handshake', 'ready-gate'], text: 'Await the answer.' },
      { sections: [], text: 'No section line.' },
    ]);
  });

  it('keeps a first line that only mentions an anchor inside prose, and drops a chunk that is only a section line', () => {
    expect(parseHints('See {#ids} below.\n---\n{#ids}')).toEqual([{ sections: [], text: 'See {#ids} below.' }]);
  });
});

describe('parseRules', () => {
  it('keeps the sections that list tests and leaves out those that explain why they state none', () => {
    const text = JSON.stringify({ $comment: 'x', sections: { ids: ['A › one', 'A › two'], background: 'why not', gate: ['B › three'] } });
    expect(parseRules(text)).toEqual({ ids: ['A › one', 'A › two'], gate: ['B › three'] });
  });

  it('says why a file is unusable', () => {
    expect(parseRules('{')).toMatch(/^not valid JSON/);
    expect(parseRules('{"sections": []}')).toBe('must hold "sections", an object');
  });
});

describe('sectionsOfTest', () => {
  const rules = { shapes: ['A › one'], ids: ['B › two', 'Any › all'], gate: ['Any › all'] };

  it("finds a test's sections in the rules' order, its describe block's section first", () => {
    expect(sectionsOfTest(rules, 'A › one')).toEqual(['shapes']);
    expect(sectionsOfTest(rules, 'Any › all')).toEqual(['ids', 'gate']);
    expect(sectionsOfTest(rules, 'Any › all', 'gate')).toEqual(['gate', 'ids']);
  });

  it("falls back to the describe block's section, else to none", () => {
    expect(sectionsOfTest(rules, 'C › unknown', 'ids')).toEqual(['ids']);
    expect(sectionsOfTest(undefined, 'A › one', 'shapes')).toEqual(['shapes']);
    expect(sectionsOfTest(rules, 'C › unknown')).toEqual([]);
  });
});

describe('hintForSection', () => {
  const hints: Hint[] = [
    { sections: ['shapes'], text: '0' },
    { sections: ['ids', 'gate'], text: '1' },
    { sections: ['ids'], text: '2' },
  ];

  it('gives the first hint for the section that is not shown yet, then the first one, and -1 for a section without one', () => {
    expect(hintForSection(hints, 'ids')).toBe(1);
    expect(hintForSection(hints, 'ids', [1])).toBe(2);
    expect(hintForSection(hints, 'ids', [1, 2])).toBe(1);
    expect(hintForSection(hints, 'gate', [0])).toBe(1);
    expect(hintForSection(hints, 'nowhere')).toBe(-1);
  });
});
