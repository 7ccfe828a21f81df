import { describe, expect, it } from 'vitest';
import { agentViewEn, agentViewZhCN } from './i18n.ts';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}
const leaf = (resource: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('Chapter loop text', () => {
  it('has the same keys in English and Simplified Chinese, every value a non-empty string', () => {
    expect(keyPaths(agentViewZhCN).sort()).toEqual(keyPaths(agentViewEn).sort());
    for (const resource of [agentViewEn, agentViewZhCN]) {
      for (const path of keyPaths(resource)) expect(String(leaf(resource, path)).trim(), path).not.toBe('');
    }
  });

  it('uses the same interpolation variables in both languages, never a bare number (those are script quotes)', () => {
    for (const path of keyPaths(agentViewEn)) {
      expect(variables(leaf(agentViewZhCN, path) as string), path).toEqual(variables(leaf(agentViewEn, path) as string));
      expect(leaf(agentViewEn, path) as string, path).not.toMatch(/\{\{\s*\d+\s*\}\}/);
    }
  });

  it('is translated, not copied', () => {
    const copied = keyPaths(agentViewEn).filter((path) => {
      const zh = leaf(agentViewZhCN, path) as string;
      return zh === leaf(agentViewEn, path) && /[a-z]{4,}\s+[a-z]{4,}/i.test(zh);
    });
    expect(copied).toEqual([]);
  });
});
