import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { compareResources, untranslatedKeys } from './resource-check.ts';
import { zhCN } from './zh-CN.ts';

describe('translation resources', () => {
  it('English and Simplified Chinese have the same keys, non-empty strings and the same variables', () => {
    expect(compareResources(en, zhCN)).toEqual([]);
  });

  it('the Chinese text is really translated (not English copied over)', () => {
    expect(untranslatedKeys(en, zhCN)).toEqual([]);
  });
});
