import { describe, expect, it } from 'vitest';
import { findTestCalls, testCallAt, tokenize } from './test-code.ts';

const SPEC = [
  "import { describe, expect, it, test } from 'vitest';", // 1
  '', // 2
  "describe('codec', () => {", // 3
  "  it('encodes', () => {", // 4
  "    const text = `it('not a test') ${'}'} `;", // 5
  '    // it("also not a test")', // 6
  '    expect(/\\)/.test(text)).toBe(false);', // 7
  '  });', // 8
  '', // 9
  "  test.each([[1, 2], [2, 3]])('adds one to %i', (a, b) => {", // 10
  '    expect(a + 1).toBe(b);', // 11
  '  });', // 12
  '', // 13
  "  it('has a timeout', async () => {}, 500);", // 14
  '});', // 15
].join('\n');

describe('findTestCalls', () => {
  it('finds it(), test.each()() and their extents, skipping strings, templates, comments and regexes', () => {
    const calls = findTestCalls(SPEC);
    expect(calls.map(({ startLine, endLine }) => [startLine, endLine])).toEqual([
      [4, 8],
      [10, 12],
      [14, 14],
    ]);
  });

  it('removes the call indentation from its code', () => {
    const [first] = findTestCalls(SPEC);
    expect(first?.code).toBe(["it('encodes', () => {", "  const text = `it('not a test') ${'}'} `;", '  // it("also not a test")', '  expect(/\\)/.test(text)).toBe(false);', '})'].join('\n'));
  });

  it('picks the innermost call covering a line', () => {
    const calls = findTestCalls(SPEC);
    expect(testCallAt(calls, 11)?.startLine).toBe(10);
    expect(testCallAt(calls, 14)?.code).toBe("it('has a timeout', async () => {}, 500)");
    expect(testCallAt(calls, 2)).toBeUndefined();
  });

  it('ignores member calls such as foo.it() and unfinished calls', () => {
    expect(findTestCalls("suite.it('x', () => {});\nit('open', () => {")).toEqual([]);
  });
});

describe('tokenize', () => {
  it('reads a division after a value and a regex after an operator', () => {
    const texts = tokenize('const r = a / b / c; const s = x => /y/g;').map((token) => token.text);
    expect(texts.filter((text) => text === '/')).toHaveLength(2);
    expect(texts).toContain('regex');
  });
});
