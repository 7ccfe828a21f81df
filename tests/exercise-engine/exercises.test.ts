// Every exercise in exercises/, run by the engine the page uses (the browser's runner, here in
// Node): its spec must pass on the reference solution and must not pass on the starter. `npm test`
// also runs each spec under real Vitest against the solution; this checks the browser path agrees.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { solutionEntry } from '../../src/exercise/catalogue.ts';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { protocolModulesFromGlob } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { requestFor } from '../../src/exercise/exercise-runner.ts';

const catalogue = readCatalogueFromDisk(undefined, { drafts: true });
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../../src/protocol/**/*.ts', '!../../src/protocol/**/*.test.ts'], { eager: true }));

describe('the exercise catalogue', () => {
  it('reads every exercise folder without a problem', () => {
    expect(catalogue.problems).toEqual([]);
  });
});

describe.each(catalogue.exercises.map((exercise) => ({ id: exercise.meta.id, exercise })))('exercise $id in the browser engine', ({ exercise }) => {
  it('passes on the reference solution, the example tests reported before the property tests', async () => {
    const solution = readFileSync(join(PROJECT_ROOT, solutionEntry(exercise.meta)), 'utf8');
    const streamed: string[] = [];
    const result = await runSpec({
      ...requestFor(exercise, solution),
      protocolModules,
      onTestResult: (test) => void streamed.push(test.name),
      onExamplesDone: (properties) => void streamed.push(`(${properties} properties follow)`),
    });
    const failures = result.tests.filter((test) => test.status !== 'pass').map((test) => `${test.name}: ${test.message}`);
    expect({ status: result.status, message: result.message, failures }).toEqual({ status: 'pass', message: undefined, failures: [] });
    // Every spec has properties; after the mark only they come, and they are the tagged tests.
    const tagged = taggedPropertyTests(exercise.spec);
    const mark = streamed.findIndex((name) => name.startsWith('('));
    expect(streamed[mark]).toBe(`(${tagged.length} properties follow)`);
    expect(streamed.slice(mark + 1).map((name) => name.split(' › ').at(-1))).toEqual(tagged);
    expect(streamed.filter((name) => !name.startsWith('(')).sort()).toEqual(result.tests.map((test) => test.name).sort());
  });

  it('tags every test that runs fast-check as a property (PROPERTY_TEST), and has no beforeAll / afterAll', () => {
    // The page runs tagged tests after the examples (test-executor.ts): an untagged property would
    // hold the examples' verdict back; a beforeAll in a suite of both kinds would run twice.
    const runsProperty = propertyRunner(exercise.spec);
    const blocks = testBlocks(exercise.spec);
    expect(blocks.filter((block) => runsProperty(block.body)).length).toBeGreaterThan(0);
    expect(blocks.filter((block) => runsProperty(block.body) && !block.tagged).map((block) => block.title)).toEqual([]);
    expect(exercise.spec).not.toMatch(/\b(beforeAll|afterAll)\(/);
  });

  it('does not pass on the starter', async () => {
    const result = await runSpec({ ...requestFor(exercise, exercise.starter), protocolModules });
    expect(result.status).not.toBe('pass');
  });
});

/** Each `it(` / `test(` of a spec: its title, whether it passes PROPERTY_TEST, and its body (to the line that closes it at the same indent). */
function testBlocks(spec: string): Array<{ title: string; tagged: boolean; body: string }> {
  const lines = spec.split('\n');
  const blocks: Array<{ title: string; tagged: boolean; body: string }> = [];
  lines.forEach((line, index) => {
    const opening = /^(\s*)(?:it|test)\((['"`])((?:\\.|(?!\2).)*)\2(.*)$/.exec(line);
    if (!opening) return;
    const indent = opening[1] ?? '';
    const end = lines.findIndex((candidate, at) => at > index && candidate.startsWith(`${indent}}`) && candidate.trimEnd().endsWith(');'));
    blocks.push({ title: (opening[3] ?? '').replace(/\\(.)/g, '$1'), tagged: /^, PROPERTY_TEST,/.test(opening[4] ?? ''), body: lines.slice(index, end === -1 ? index + 1 : end + 1).join('\n') });
  });
  return blocks;
}

function taggedPropertyTests(spec: string): string[] {
  return testBlocks(spec).filter((block) => block.tagged).map((block) => block.title);
}

/** Whether a piece of the spec runs a property: fc.check / fc.assert, or a function of the spec that calls one. */
function propertyRunner(spec: string): (code: string) => boolean {
  const direct = /\bfc\.(check|assert)\(/;
  const helpers = [...spec.matchAll(/^(?:async )?function (\w+)[^]*?^}/gm)].filter((match) => direct.test(match[0])).map((match) => match[1] ?? '');
  const viaHelper = helpers.length === 0 ? null : new RegExp(`\\b(${helpers.join('|')})\\(`);
  return (code) => direct.test(code) || (viaHelper !== null && viaHelper.test(code));
}
