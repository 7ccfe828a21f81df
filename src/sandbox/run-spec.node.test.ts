import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { protocolModulesFromGlob } from './protocol-modules.ts';
import { runSpec, type RunSpecOptions } from './run-spec.ts';

// The engine's fixture exercise (tests/exercise-engine/fixtures/exercises/01-ping).
const FIXTURE = new URL('../../tests/exercise-engine/fixtures/exercises/01-ping/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, FIXTURE), 'utf8');
const meta = JSON.parse(read('meta.json')) as { steps: Record<string, string>; learnerFile: string };
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../protocol/**/*.ts', '!../protocol/**/*.test.ts', '!../protocol/inspect/**'], { eager: true }));

function run(learnerSource: string, overrides: Partial<RunSpecOptions> = {}) {
  return runSpec({ specSource: read('spec.ts'), learnerSource, protocolModules, learnerFile: meta.learnerFile, steps: meta.steps, ...overrides });
}

describe('runSpec on the fixture exercise', () => {
  it('passes the reference solution, with names, steps, lines and each test’s own code', async () => {
    const result = await run(read('solution.ts'));
    expect(result.status).toBe('pass');
    expect(result.tests.map((test) => [test.name, test.status, test.step, test.line])).toEqual([
      ['Building a ping › builds a JSON-RPC request', 'pass', 'build-ping', 6],
      ['Building a ping › keeps id 0, which is a valid id', 'pass', 'build-ping', 10],
      ['Waiting for the answer › resolves with the value', 'pass', 'wait-answer', 18],
    ]);
    expect(result.tests[1]?.code).toBe(["it('keeps id 0, which is a valid id', () => {", '  const ping = makePing(0);', '  expect(isRequest(ping)).toBe(true);', '  expect(ping.id).toBe(0);', '})'].join('\n'));
  });

  it('fails the starter, pointing at the line of the learner’s file that threw', async () => {
    const result = await run(read('starter.ts'));
    expect(result.status).toBe('fail');
    expect(result.tests.map((test) => test.status)).toEqual(['error', 'error', 'fail']);
    expect(result.tests[0]).toMatchObject({ message: 'makePing(1) is not implemented yet', learnerLine: 5 });
  });

  it('gives a wrong answer its expected, actual and diff', async () => {
    const result = await run(read('solution.ts').replace("'ping'", "'pong'"));
    expect(result.status).toBe('fail');
    const [first] = result.tests;
    expect(first?.status).toBe('fail');
    expect(first?.expected).toContain('"method": "ping"');
    expect(first?.actual).toContain('"method": "pong"');
    expect(first?.diff).toContain('+   "method": "pong",');
    expect(result.tests.slice(1).map((test) => test.status)).toEqual(['pass', 'pass']);
  });

  it('lets a spec import fast-check, and shows a property’s failing input as expected vs actual', async () => {
    const specSource = [
      "import { expect, it } from 'vitest';",
      "import fc from 'fast-check';",
      "import { double } from '@learner';",
      "it('doubles any number', () => {",
      "  const details = fc.check(fc.property(fc.integer({ min: 0, max: 100 }), (n) => double(n) === n * 2), { numRuns: 50, seed: 1 });",
      "  if (details.failed) expect(double(details.counterexample[0]), `for ${details.counterexample[0]}`).toBe(details.counterexample[0] * 2);",
      '});',
    ].join('\n');
    const result = await run('export const double = (n: number) => (n > 9 ? n + n + 1 : n + n);', { specSource });
    expect(result.status).toBe('fail');
    expect(result.tests[0]).toMatchObject({ status: 'fail', message: expect.stringContaining('for 10'), expected: '20', actual: '21' });
  });

  it('reports a syntax error in the learner’s file as error, with its line, and runs nothing', async () => {
    const result = await run(['export function makePing(id: number) {', "  return { jsonrpc: '2.0', id, method: 'ping' ;", '}'].join('\n'));
    expect(result.status).toBe('error');
    expect(result.tests).toEqual([]);
    expect(result.error).toMatchObject({ source: 'learner', line: 2 });
    expect(result.message).toMatch(/^ping\.ts has a syntax error on line 2, column \d+: /);
  });

  it('reports a learner file that throws while loading as error, with the line', async () => {
    const result = await run(['export const a = 1;', 'const table: Record<string, number> = {};', 'table.missing!.toFixed();'].join('\n'));
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ source: 'learner', line: 3 });
    expect(result.message).toMatch(/^ping\.ts, line 3: TypeError: .* \(while loading, before any test ran\)$/);
  });

  it('reports an import that does not exist as the learner’s error, naming what can be imported', async () => {
    const result = await run("import { readFileSync } from 'node:fs';\nexport const makePing = readFileSync;");
    expect(result.status).toBe('error');
    expect(result.error).toMatchObject({ source: 'learner', line: 1 });
    expect(result.error?.message).toContain("Cannot import 'node:fs' in ping.ts");
    expect(result.error?.message).toContain("'@protocol/jsonrpc'");
  });

  it('says which name is missing when the learner’s file does not export what the spec imports', async () => {
    const result = await run("export function makePong() {}\nexport async function answerLater<T>(v: T) { return v; }");
    expect(result.tests[0]?.message).toBe("TypeError: ping.ts does not export 'makePing' (it exports makePong, answerLater). Check the name, and that it is declared with `export`.");
  });

  it('reports a broken spec as the spec’s error', async () => {
    const syntax = await run(read('solution.ts'), { specSource: "describe('x', () => {" });
    expect(syntax.error).toMatchObject({ source: 'spec' });
    const throwing = await run(read('solution.ts'), { specSource: "import { it } from 'vitest';\nconst x: any = undefined;\nx.boom();\nit('t', () => {});" });
    expect(throwing).toMatchObject({ status: 'error', error: { source: 'spec', line: 3 } });
    const empty = await run(read('solution.ts'), { specSource: "import { describe } from 'vitest';\ndescribe('nothing', () => {});" });
    expect(empty).toMatchObject({ status: 'error', message: 'The spec defines no tests.' });
  });

  it('fails only the test that never settles, after the time limit', async () => {
    const learner = read('solution.ts').replace('await new Promise((resolve) => setTimeout(resolve, 5));', 'await new Promise(() => {});');
    const result = await run(learner, { testTimeoutMs: 60 });
    expect(result.tests.map((test) => test.status)).toEqual(['pass', 'pass', 'fail']);
    expect(result.tests[2]?.message).toMatch(/timed out after 60 ms/);
  });

  it('fails the test during which a timer callback of the learner threw, and cancels the learner’s timers afterwards', async () => {
    const marker = globalThis as { __ticks?: number };
    marker.__ticks = 0;
    const learner = [
      "import { encodeRequest } from '@protocol/jsonrpc';",
      'export function makePing(id: number) {',
      '  setInterval(() => { (globalThis as any).__ticks += 1; }, 1);',
      "  return encodeRequest(id, 'ping');",
      '}',
      'export async function answerLater<T>(value: T): Promise<T> {',
      "  setTimeout(() => { throw new Error('late failure'); }, 1);",
      '  await new Promise((resolve) => setTimeout(resolve, 20));',
      '  return value;',
      '}',
    ].join('\n');
    const result = await run(learner);
    expect(result.tests.map((test) => test.status)).toEqual(['pass', 'pass', 'error']);
    expect(result.tests[2]?.message).toBe('late failure');
    const ticksAtEnd = marker.__ticks;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(marker.__ticks).toBe(ticksAtEnd);
    delete marker.__ticks;
  });

  it('hides network and storage APIs from the learner’s code', async () => {
    const learner = "export const makePing = () => ({ seen: [typeof fetch, typeof indexedDB, typeof WebSocket, typeof XMLHttpRequest, typeof caches, typeof importScripts] });\nexport const answerLater = async (v: unknown) => v;";
    const spec = "import { it, expect } from 'vitest';\nimport { makePing } from '@learner';\nit('sees nothing', () => expect(makePing().seen).toEqual(Array(6).fill('undefined')));";
    expect((await run(learner, { specSource: spec })).status).toBe('pass');
  });

  it('runs the reference file itself, relative imports and all, when told where it lives', async () => {
    const learner = read('solution.ts').replace("'@protocol/jsonrpc'", "'./jsonrpc.ts'");
    const result = await run(learner, { learnerModuleId: '@protocol/ping' });
    expect(result.status).toBe('pass');
  });

  it('streams each test result as it finishes, in order', async () => {
    const seen: string[] = [];
    const result = await run(read('solution.ts'), { onTestResult: (test) => seen.push(test.name) });
    expect(seen).toEqual(result.tests.map((test) => test.name));
  });
});
