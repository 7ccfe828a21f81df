import { describe, expect, it } from 'vitest';
import { buildCatalogue, groupByFolder, localized, parseMeta, solutionEntry } from './catalogue.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';

const META = { id: '01-jsonrpc', order: 1, title: { en: 'JSON-RPC', 'zh-CN': 'JSON-RPC 编解码' }, learnerFile: 'jsonrpc.ts', solution: ['src/protocol/jsonrpc.ts'], steps: { Encoding: 'encode' } };

function folder(meta: object = META, extra: Record<string, string> = {}) {
  return { 'meta.json': JSON.stringify(meta), 'content.en.md': '# Lesson', 'starter.ts': 'export {}', 'spec.ts': "import 'vitest';", ...extra };
}

describe('buildCatalogue', () => {
  it('reads glob-style paths into exercises sorted by order, with content and hints per language', () => {
    const files = groupByFolder({
      '/exercises/02-framing/meta.json': JSON.stringify({ ...META, id: '02-framing', order: 2 }),
      '/exercises/02-framing/content.en.md': 'en',
      '/exercises/02-framing/starter.ts': 's2',
      '/exercises/02-framing/spec.ts': 'p2',
      ...Object.fromEntries(Object.entries(folder(META, { 'content.zh-CN.md': 'zh', 'hints.en.md': '{#encode}\none\n---\ntwo', 'rules.json': '{"sections":{"encode":["Encoding › a test"]}}' })).map(([file, text]) => [`/exercises/01-jsonrpc/${file}`, text])),
    });
    const { exercises, problems } = buildCatalogue(files);
    expect(problems).toEqual([]);
    expect(exercises.map((exercise) => exercise.meta.id)).toEqual(['01-jsonrpc', '02-framing']);
    expect(exercises[0]).toMatchObject({ content: { en: '# Lesson', 'zh-CN': 'zh' }, hints: { en: [{ sections: ['encode'], text: 'one' }, { sections: [], text: 'two' }] }, rules: { encode: ['Encoding › a test'] }, starter: 'export {}' });
    expect(exercises[1]?.hints).toEqual({});
    expect(exercises[1]?.rules).toBeUndefined();
  });

  it('leaves out a broken folder and says why, keeping the others', () => {
    const { exercises, problems } = buildCatalogue({
      '01-jsonrpc': folder(),
      '02-framing': { ...folder({ ...META, id: '02-framing' }), 'spec.ts': undefined as unknown as string },
      '03-client': folder({ ...META, id: '03-wrong' }),
      '04-server': { ...folder(), 'meta.json': '{ nope' },
      '05-register': { ...folder({ ...META, id: '05-register' }), 'rules.json': '{ nope' },
    });
    expect(exercises.map((exercise) => exercise.meta.id)).toEqual(['01-jsonrpc']);
    expect(problems).toEqual([
      'exercises/02-framing: spec.ts is missing',
      'exercises/03-client: meta.json: "id" is "03-wrong" but the folder is "03-client"',
      expect.stringMatching(/^exercises\/04-server: meta\.json: not valid JSON/),
      expect.stringMatching(/^exercises\/05-register: rules\.json: not valid JSON/),
    ]);
  });
});

describe('parseMeta', () => {
  it('accepts a complete meta.json and refuses missing or mistyped fields', () => {
    expect(parseMeta(JSON.stringify(META))).toEqual(META);
    expect(parseMeta(JSON.stringify({ ...META, steps: undefined }))).toMatchObject({ steps: {} });
    expect(parseMeta(JSON.stringify({ ...META, title: 'JSON-RPC' }))).toMatch(/"title"/);
    expect(parseMeta(JSON.stringify({ ...META, solution: [] }))).toMatch(/"solution"/);
    expect(parseMeta(JSON.stringify({ ...META, learnerFile: '../x.js' }))).toMatch(/"learnerFile"/);
    expect(parseMeta(JSON.stringify({ ...META, id: 'jsonrpc' }))).toMatch(/"id"/);
    expect(parseMeta('[]')).toBe('must be a JSON object');
  });

  it('reads the optional solutionModule, which then stands for the learner’s file', () => {
    const bridged = parseMeta(JSON.stringify({ ...META, solutionModule: 'src/protocol/remote-tools.ts' }));
    expect(bridged).toMatchObject({ solutionModule: 'src/protocol/remote-tools.ts' });
    expect(solutionEntry(bridged as Exclude<typeof bridged, string>)).toBe('src/protocol/remote-tools.ts');
    expect(solutionEntry(META)).toBe('src/protocol/jsonrpc.ts');
    expect(parseMeta(JSON.stringify({ ...META, solutionModule: 3 }))).toMatch(/"solutionModule"/);
  });
});

describe('localized', () => {
  it('falls back to English', () => {
    expect(localized({ en: 'Hello', 'zh-CN': '你好' }, 'zh-CN')).toBe('你好');
    expect(localized({ en: 'Hello' }, 'zh-CN')).toBe('Hello');
  });
});

describe('readCatalogueFromDisk', () => {
  it('reads the engine fixture exercise from disk', () => {
    const { exercises, problems } = readCatalogueFromDisk(new URL('../../tests/exercise-engine/fixtures/exercises', import.meta.url).pathname);
    expect(problems).toEqual([]);
    expect(exercises).toHaveLength(1);
    expect(exercises[0]).toMatchObject({ meta: { id: '01-ping', learnerFile: 'ping.ts' }, hints: { en: [{ text: expect.stringContaining('encodeRequest') }, { text: expect.stringContaining('setTimeout') }], 'zh-CN': [{ text: expect.any(String) }, { text: expect.any(String) }] } });
  });
});
