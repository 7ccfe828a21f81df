// The translated test names of exercises/NN-slug/test-names.<locale>.json: read with the catalogue,
// shown by the results panel, English when a name has no translation.

import { describe, expect, it } from 'vitest';
import { buildCatalogue, localizedTestName, parseTestNames } from '../exercise/catalogue.ts';

const meta = { id: '01-jsonrpc', order: 1, title: { en: 'JSON-RPC' }, learnerFile: 'jsonrpc.ts', solution: ['src/protocol/jsonrpc.ts'] };
const folder = (extra: Record<string, string>) => ({ 'meta.json': JSON.stringify(meta), 'content.en.md': '# Lesson', 'starter.ts': 'export {}', 'spec.ts': "import 'vitest';", ...extra });

describe('test name translations', () => {
  it('parses a JSON object of English name → translation, and says why anything else is unusable', () => {
    expect(parseTestNames('{"Pairing › id 0 pairs": "配对 › id 0 配对"}')).toEqual({ 'Pairing › id 0 pairs': '配对 › id 0 配对' });
    expect(parseTestNames('[]')).toMatch(/JSON object/);
    expect(parseTestNames('{')).toMatch(/not valid JSON/);
    expect(parseTestNames('{"a": 1}')).toMatch(/"a".*non-empty string/);
    expect(parseTestNames('{"a": " "}')).toMatch(/non-empty string/);
  });

  it('loads test-names.zh-CN.json with the catalogue; a broken one is a problem naming the file', () => {
    const { exercises } = buildCatalogue({ '01-jsonrpc': folder({ 'test-names.zh-CN.json': '{"a › b": "甲 › 乙"}' }) });
    expect(exercises[0]?.testNames).toEqual({ 'zh-CN': { 'a › b': '甲 › 乙' } });
    expect(buildCatalogue({ '01-jsonrpc': folder({}) }).exercises[0]?.testNames).toBeUndefined();
    const broken = buildCatalogue({ '01-jsonrpc': folder({ 'test-names.zh-CN.json': '{"a": 2}' }) });
    expect(broken.exercises).toEqual([]);
    expect(broken.problems).toEqual([expect.stringMatching(/^exercises\/01-jsonrpc: test-names\.zh-CN\.json: /)]);
  });

  it('gives the translation in its language and the English name otherwise', () => {
    const exercise = { testNames: { 'zh-CN': { 'a › b': '甲 › 乙' } } };
    expect(localizedTestName(exercise, 'a › b', 'zh-CN')).toBe('甲 › 乙');
    expect(localizedTestName(exercise, 'a › b', 'en')).toBe('a › b');
    expect(localizedTestName(exercise, 'a › afterAll hook', 'zh-CN')).toBe('a › afterAll hook');
    expect(localizedTestName(exercise, 'constructor', 'zh-CN')).toBe('constructor');
    expect(localizedTestName({}, 'a › b', 'zh-CN')).toBe('a › b');
  });
});
