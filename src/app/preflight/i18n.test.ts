import { describe, expect, it } from 'vitest';
import { preflightEn, preflightZhCN } from './i18n.ts';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}
const leaf = (resource: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('preflight text', () => {
  it('has the same keys in English and Simplified Chinese, every value a non-empty string', () => {
    expect(keyPaths(preflightZhCN).sort()).toEqual(keyPaths(preflightEn).sort());
    for (const resource of [preflightEn, preflightZhCN]) {
      for (const path of keyPaths(resource)) expect(String(leaf(resource, path)).trim(), path).not.toBe('');
    }
  });

  it('uses the same interpolation variables in both languages', () => {
    for (const path of keyPaths(preflightEn)) expect(variables(leaf(preflightZhCN, path) as string), path).toEqual(variables(leaf(preflightEn, path) as string));
  });

  it('is translated, not copied', () => {
    const copied = keyPaths(preflightEn).filter((path) => {
      const zh = leaf(preflightZhCN, path) as string;
      return zh === leaf(preflightEn, path) && /[a-z]{4,}\s+[a-z]{4,}/i.test(zh);
    });
    expect(copied).toEqual([]);
  });
});
