import { describe, expect, it } from 'vitest';
import type { Hint } from '../../exercise/hints.ts';
import { failingSections, nextHint, sectionOfTest } from './next-hint.ts';

const lesson = ['shapes', 'errors', 'parse', 'ids'];
const hints: Hint[] = [
  { sections: ['shapes'], text: 'h0' },
  { sections: ['errors'], text: 'h1' },
  { sections: ['parse', 'errors'], text: 'h2' },
  { sections: ['parse'], text: 'h3' },
  { sections: ['ids'], text: 'h4' },
];

describe('nextHint', () => {
  it('with nothing open and no run, starts at the first rule of the lesson', () => {
    expect(nextHint(hints, [], lesson)).toBe(0);
  });

  it("goes on from the rule of the hint opened last, not from the file's first hint", () => {
    // A failing test opened the parse hint: next is parse's second hint, then ids, then around to shapes.
    expect(nextHint(hints, [2], lesson)).toBe(3);
    expect(nextHint(hints, [2, 3], lesson)).toBe(4);
    expect(nextHint(hints, [2, 3, 4], lesson)).toBe(0);
    expect(nextHint(hints, [2, 3, 4, 0], lesson)).toBe(1);
    expect(nextHint(hints, [2, 3, 4, 0, 1], lesson)).toBeUndefined();
  });

  it("puts a rule the latest run fails before the ones that pass, nearest after the last one first", () => {
    expect(nextHint(hints, [4], lesson, ['errors', 'shapes'])).toBe(0);
    expect(nextHint(hints, [0], lesson, ['ids', 'errors'])).toBe(1);
    expect(nextHint(hints, [0, 1], lesson, ['ids', 'errors'])).toBe(2); // h2 also addresses errors
    expect(nextHint(hints, [0, 1, 2], lesson, ['ids', 'errors'])).toBe(4);
  });

  it('opens a hint naming no lesson section after the others', () => {
    const withLoose: Hint[] = [{ sections: [], text: 'loose' }, ...hints.slice(0, 2)];
    expect(nextHint(withLoose, [], lesson)).toBe(1);
    expect(nextHint(withLoose, [1, 2], lesson)).toBe(0);
  });
});

describe('sectionOfTest and failingSections', () => {
  const rules = { shapes: ['A › one'], parse: ['B › two', 'Any › all'], ids: ['Any › all'] };

  it("links a test to its rule, preferring its describe block's section among several", () => {
    expect(sectionOfTest(rules, { name: 'A › one', step: 'errors' })).toBe('shapes');
    expect(sectionOfTest(rules, { name: 'Any › all', step: 'ids' })).toBe('ids');
    expect(sectionOfTest(rules, { name: 'Any › all' })).toBe('parse');
    expect(sectionOfTest(undefined, { name: 'A › one', step: 'shapes' })).toBe('shapes');
    expect(sectionOfTest(undefined, { name: 'A › one' })).toBeUndefined();
  });

  it('lists the sections of the tests that did not pass, in lesson order, once each', () => {
    const tests = [
      { name: 'Any › all', status: 'fail' as const },
      { name: 'A › one', status: 'pass' as const },
      { name: 'B › two', status: 'error' as const },
      { name: 'C › x', step: 'shapes', status: 'fail' as const },
    ];
    expect(failingSections(rules, tests, lesson)).toEqual(['shapes', 'parse']);
  });
});
