import { describe, expect, it } from 'vitest';
import { protocolViewEn, protocolViewZhCN } from './i18n.ts';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}
const leaf = (resource: unknown, path: string) => path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
const variables = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();

describe('protocol view text', () => {
  it('has the same keys in English and Simplified Chinese, every value a non-empty string', () => {
    expect(keyPaths(protocolViewZhCN).sort()).toEqual(keyPaths(protocolViewEn).sort());
    for (const resource of [protocolViewEn, protocolViewZhCN]) {
      for (const path of keyPaths(resource)) expect(String(leaf(resource, path)).trim(), path).not.toBe('');
    }
  });

  it('uses the same interpolation variables in both languages', () => {
    for (const path of keyPaths(protocolViewEn)) expect(variables(leaf(protocolViewZhCN, path) as string), path).toEqual(variables(leaf(protocolViewEn, path) as string));
  });

  it('is translated, not copied', () => {
    const copied = keyPaths(protocolViewEn).filter((path) => {
      const zh = leaf(protocolViewZhCN, path) as string;
      return zh === leaf(protocolViewEn, path) && /[a-z]{4,}\s+[a-z]{4,}/i.test(zh);
    });
    expect(copied).toEqual([]);
  });
});
