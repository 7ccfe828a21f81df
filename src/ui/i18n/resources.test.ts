import { describe, expect, it } from 'vitest';
import { en } from './en.ts';
import { zhCN } from './zh-CN.ts';

function keyPaths(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keyPaths(child, prefix === '' ? key : `${prefix}.${key}`));
}

function interpolations(text: string): string[] {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] ?? '').sort();
}

function leaf(resource: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], resource);
}

describe('translation resources', () => {
  it('English and Simplified Chinese have exactly the same keys', () => {
    expect(keyPaths(zhCN).sort()).toEqual(keyPaths(en).sort());
  });

  it('every value is a non-empty string', () => {
    for (const resource of [en, zhCN]) {
      for (const path of keyPaths(resource)) {
        const value = leaf(resource, path);
        expect(typeof value, path).toBe('string');
        expect((value as string).trim(), path).not.toBe('');
      }
    }
  });

  it('both languages use the same interpolation variables in each string', () => {
    for (const path of keyPaths(en)) {
      expect(interpolations(leaf(zhCN, path) as string), path).toEqual(interpolations(leaf(en, path) as string));
    }
  });

  it('the Chinese text is really translated (not English copied over)', () => {
    const untranslated = keyPaths(en).filter((path) => {
      const zh = leaf(zhCN, path) as string;
      return zh === leaf(en, path) && /[a-z]{4,}\s+[a-z]{4,}/i.test(zh);
    });
    expect(untranslated).toEqual([]);
  });
});
