import { describe, expect, it } from 'vitest';
import { compareResources, untranslatedKeys } from './resource-check.ts';

describe('compareResources', () => {
  it('finds nothing wrong with matching bundles', () => {
    expect(compareResources({ a: { b: 'Hi {{name}}' }, c: 'x' }, { a: { b: '你好 {{name}}' }, c: '叉' })).toEqual([]);
  });

  it('names a key missing on either side, empty strings and different variables', () => {
    const problems = compareResources({ a: 'one', b: 'two {{n}}', c: 'three' }, { b: '二 {{count}}', c: ' ', d: '四' });
    expect(problems).toEqual(['a: missing in zh-CN', 'd: missing in en', 'b: variables {{n}} in en but {{count}} in zh-CN', 'c: empty in zh-CN']);
  });

  it('notices a nested object where the other side has a string', () => {
    expect(compareResources({ a: { b: 'x' } }, { a: 'x' })).toEqual(['a.b: missing in zh-CN', 'a: missing in en']);
  });
});

describe('untranslatedKeys', () => {
  it('flags English sentences copied into the translation, not names', () => {
    expect(untranslatedKeys({ a: 'Local bridge', b: 'WebContainer', c: 'Reset your code' }, { a: '本地桥接', b: 'WebContainer', c: 'Reset your code' })).toEqual(['c']);
  });
});
