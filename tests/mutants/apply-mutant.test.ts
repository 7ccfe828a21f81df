import { describe, expect, it } from 'vitest';
import type { TestResult } from '../../src/sandbox/spec-results.ts';
import { applyEdits, buildMutantRun, buildPatchedRun, caughtByProblems, MutantError, rewriteRelativeImports } from './apply-mutant.ts';

const TARGET = { mutant: '01-demo/broken', file: 'src/protocol/demo.ts' };

describe('applyEdits', () => {
  it('applies the edits in order, each to the text the previous one left', () => {
    const source = 'const a = 1;\nconst b = 2;\n';
    const edits = [
      { find: 'const a = 1;', replace: 'const a = 10;' },
      { find: 'a = 10', replace: 'a = 11' },
    ];
    expect(applyEdits(source, edits, TARGET)).toBe('const a = 11;\nconst b = 2;\n');
  });

  it('refuses a find that is not in the file, naming the mutant, the edit and the file', () => {
    const edits = [{ find: 'return 1;', replace: 'return 2;' }];
    expect(() => applyEdits('return 3;', edits, TARGET)).toThrow(MutantError);
    expect(() => applyEdits('return 3;', edits, TARGET)).toThrow(/Mutant 01-demo\/broken, edit 1 of 1: "return 1;" is not in src\/protocol\/demo\.ts/);
  });

  it('refuses a find that occurs more than once, saying how often', () => {
    const edits = [{ find: 'x++;', replace: 'x--;' }];
    expect(() => applyEdits('x++;\nx++;\n', edits, TARGET)).toThrow(/01-demo\/broken.*"x\+\+;" occurs 2 times in src\/protocol\/demo\.ts/);
  });

  it('counts overlapping occurrences, so a find cannot match two places that share text', () => {
    expect(() => applyEdits('aaa', [{ find: 'aa', replace: 'b' }], TARGET)).toThrow(/occurs 2 times/);
  });

  it('refuses a mutant with no edits, an empty find and an edit that changes nothing', () => {
    expect(() => applyEdits('x', [], TARGET)).toThrow(/01-demo\/broken has no edits/);
    expect(() => applyEdits('x', [{ find: '', replace: 'y' }], TARGET)).toThrow(/"find" is empty/);
    expect(() => applyEdits('x', [{ find: 'x', replace: 'x' }], TARGET)).toThrow(/changes nothing/);
  });

  it('names the failing edit among several', () => {
    const edits = [
      { find: 'one', replace: 'uno' },
      { find: 'two', replace: 'dos' },
    ];
    expect(() => applyEdits('one', edits, TARGET)).toThrow(/edit 2 of 2: "two" is not in/);
  });
});

describe('rewriteRelativeImports', () => {
  it('turns relative imports into @protocol ids, from the folder the file sits in', () => {
    const source = [
      "import { contentLengthFraming } from './content-length.ts';",
      "import type { Framing } from './types.ts';",
      "export * from './types.ts';",
      "export { encodeLine } from \"./ndjson.ts\";",
      "import { ErrorCode } from '../jsonrpc.ts';",
      "import './side-effect.ts';",
      "import { describe } from 'vitest';",
      "import { x } from '@protocol/mcp';",
    ].join('\n');
    expect(rewriteRelativeImports(source, 'src/protocol/framing/index.ts').split('\n')).toEqual([
      "import { contentLengthFraming } from '@protocol/framing/content-length';",
      "import type { Framing } from '@protocol/framing/types';",
      "export * from '@protocol/framing/types';",
      'export { encodeLine } from "@protocol/framing/ndjson";',
      "import { ErrorCode } from '@protocol/jsonrpc';",
      "import '@protocol/framing/side-effect';",
      "import { describe } from 'vitest';",
      "import { x } from '@protocol/mcp';",
    ]);
  });

  it('maps each id through `canonical`, so a folder import names its index module', () => {
    const canonical = (id: string) => (id === '@protocol/framing' ? '@protocol/framing/index' : id);
    expect(rewriteRelativeImports("import { getFraming } from './framing';", 'src/protocol/client.ts', canonical)).toBe(
      "import { getFraming } from '@protocol/framing/index';",
    );
  });

  it('refuses an import that leaves src/protocol, and a file outside it', () => {
    expect(() => rewriteRelativeImports("import { x } from '../outside.ts';", 'src/protocol/client.ts')).toThrow(/outside src\/protocol/);
    expect(() => rewriteRelativeImports('', 'server/tap.ts')).toThrow(/not under src\/protocol/);
  });
});

describe('buildPatchedRun and buildMutantRun', () => {
  // A small reference tree: b uses a at run time, t only for a type, index gathers a and b, c is alone.
  const referenceSources = {
    'src/protocol/a.ts': "export function a(): string {\n  return 'a';\n}\n",
    'src/protocol/b.ts': "import { a } from './a.ts';\nexport const b = (): string => a() + 'b';\n",
    'src/protocol/t.ts': "import type { a } from './a.ts';\nexport const t: typeof a | undefined = undefined;\n",
    'src/protocol/c.ts': "export const c = 'c';\n",
    'src/protocol/index.ts': "export { a } from './a.ts';\nexport { b } from './b.ts';\n",
  };
  // Stand-ins for the modules as the reference run imports them.
  const protocolModules = {
    '@protocol/a': { a: () => 'a' },
    '@protocol/b': { b: () => 'ab' },
    '@protocol/t': { t: undefined },
    '@protocol/c': { c: 'c' },
    '@protocol/index': { a: () => 'a', b: () => 'ab' },
  };
  const shout = { file: 'src/protocol/a.ts', edits: [{ find: "return 'a';", replace: "return 'A';" }] };
  const base = { name: '01-demo/shout', referenceSources, protocolModules };

  it('replaces the patched module and every module importing it at run time, and nothing else', () => {
    const run = buildMutantRun({ ...base, mutant: shout, solutionModule: 'src/protocol/index.ts' });
    expect(run.patched).toEqual(['@protocol/a', '@protocol/b', '@protocol/index']);
    const modules = run.protocolModules as Record<string, Record<string, () => string>>;
    expect(modules['@protocol/a']?.a?.()).toBe('A');
    expect(modules['@protocol/b']?.b?.()).toBe('Ab');
    expect(modules['@protocol/index']?.b?.()).toBe('Ab');
    // A type-only import does not make t an importer; untouched modules keep their identity.
    expect(run.protocolModules['@protocol/t']).toBe(protocolModules['@protocol/t']);
    expect(run.protocolModules['@protocol/c']).toBe(protocolModules['@protocol/c']);
  });

  it('gives a gathering solution module as written, its imports rewritten to reach the patched file', () => {
    const run = buildMutantRun({ ...base, mutant: shout, solutionModule: 'src/protocol/index.ts' });
    expect(run.learnerModuleId).toBe('@protocol/index');
    expect(run.learnerSource).toBe("export { a } from '@protocol/a';\nexport { b } from '@protocol/b';\n");
  });

  it('gives the patched file itself when it is the solution module', () => {
    const run = buildMutantRun({ ...base, mutant: shout, solutionModule: 'src/protocol/a.ts' });
    expect(run.learnerModuleId).toBe('@protocol/a');
    expect(run.learnerSource).toBe("export function a(): string {\n  return 'A';\n}\n");
  });

  it('with the identity patch, changes no behaviour (the control run)', () => {
    const run = buildPatchedRun({ ...base, file: 'src/protocol/a.ts', patch: (source) => source, solutionModule: 'src/protocol/index.ts' });
    expect((run.protocolModules['@protocol/index'] as { b(): string }).b()).toBe('ab');
  });

  it('refuses a patch the learner would never meet', () => {
    expect(() => buildMutantRun({ ...base, mutant: shout, solutionModule: 'src/protocol/c.ts' })).toThrow(
      /Mutant 01-demo\/shout: the solution module src\/protocol\/c\.ts does not import src\/protocol\/a\.ts/,
    );
  });

  it('names the mutant when the reference moved under it', () => {
    const stale = { file: 'src/protocol/a.ts', edits: [{ find: "return 'z';", replace: "return 'Z';" }] };
    expect(() => buildMutantRun({ ...base, mutant: stale, solutionModule: 'src/protocol/a.ts' })).toThrow(/Mutant 01-demo\/shout, edit 1 of 1: "return 'z';" is not in src\/protocol\/a\.ts/);
  });

  it('names the mutant when the patched file does not compile or throws while loading', () => {
    const broken = { file: 'src/protocol/a.ts', edits: [{ find: "return 'a';", replace: 'return (;' }] };
    expect(() => buildMutantRun({ ...base, mutant: broken, solutionModule: 'src/protocol/a.ts' })).toThrow(/Mutant 01-demo\/shout: the patched src\/protocol\/a\.ts does not compile \(line 2\)/);
    const throwing = { file: 'src/protocol/b.ts', edits: [{ find: 'export const b', replace: "throw new Error('boom');\nexport const b" }] };
    expect(() => buildMutantRun({ ...base, mutant: throwing, solutionModule: 'src/protocol/b.ts' })).toThrow(/Mutant 01-demo\/shout: src\/protocol\/b\.ts could not be loaded with the patch: boom/);
  });

  it('refuses a file that is not a reference module', () => {
    const elsewhere = { file: 'src/protocol/missing.ts', edits: shout.edits };
    expect(() => buildMutantRun({ ...base, mutant: elsewhere, solutionModule: 'src/protocol/a.ts' })).toThrow(/src\/protocol\/missing\.ts is not a reference module/);
  });
});

describe('caughtByProblems', () => {
  const test = (name: string, status: TestResult['status']): TestResult => ({ name, status, code: '', durationMs: 0 });
  const result = {
    tests: [test('Ids › id 0 is an id', 'fail'), test('Ids › id 1 is an id', 'pass'), test('Errors › same title', 'error'), test('Other › same title', 'fail')],
  };

  it('accepts a title or a full name of a test that did not pass', () => {
    expect(caughtByProblems(result, ['id 0 is an id', 'Ids › id 0 is an id', 'Errors › same title'])).toEqual([]);
  });

  it('reports a name no test has, a title shared by several tests, and a test that passed', () => {
    expect(caughtByProblems(result, ['no such test', 'same title', 'id 1 is an id'])).toEqual([
      'no test is named "no such test"',
      '"same title" names 2 tests; give the describe path too',
      '"id 1 is an id" passed',
    ]);
  });
});
