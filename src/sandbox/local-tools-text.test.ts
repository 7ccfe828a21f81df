import { describe, expect, it } from 'vitest';
import { CHAPTER_TOOL_NAMES, localToolSpecs } from './local-tools.ts';
import en from '../locales/en/chapter-loop.json';
import zh from '../locales/zh-CN/chapter-loop.json';

// The Chapter loop's registry table shows a local tool's description in the page's language
// (src/ui/chapter-loop/RegistryTable.tsx): every local tool has one in both, the English one the
// very words the registry holds.
describe('the local tools, described in both languages', () => {
  it('has a description of every local tool in English (the registry’s own) and in Chinese', () => {
    const english = en.table.localDescriptions as Record<string, string>;
    const chinese = zh.table.localDescriptions as Record<string, string>;
    expect(Object.keys(english).sort()).toEqual([...CHAPTER_TOOL_NAMES].sort());
    expect(Object.keys(chinese).sort()).toEqual([...CHAPTER_TOOL_NAMES].sort());
    for (const spec of localToolSpecs()) {
      expect(english[spec.name], spec.name).toBe(spec.description);
      expect(chinese[spec.name], spec.name).toMatch(/[\u4e00-\u9fff]/);
    }
  });
});
