import { describe, expect, it } from 'vitest';
import { presenterEn, presenterZhCN } from './i18n.ts';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}
const leaf = (resource: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('presenter text', () => {
  it('has the same keys in English and Simplified Chinese, every value a non-empty string', () => {
    expect(keyPaths(presenterZhCN).sort()).toEqual(keyPaths(presenterEn).sort());
    for (const resource of [presenterEn, presenterZhCN]) {
      for (const path of keyPaths(resource)) expect(String(leaf(resource, path)).trim(), path).not.toBe('');
    }
  });

  it('uses the same interpolation variables in both languages', () => {
    for (const path of keyPaths(presenterEn)) expect(variables(leaf(presenterZhCN, path) as string), path).toEqual(variables(leaf(presenterEn, path) as string));
  });

  it('is translated, not copied', () => {
    const copied = keyPaths(presenterEn).filter((path) => leaf(presenterZhCN, path) === leaf(presenterEn, path));
    expect(copied).toEqual([]);
    for (const path of keyPaths(presenterZhCN)) expect(leaf(presenterZhCN, path) as string, path).toMatch(/[\u4e00-\u9fff]/);
  });
});
