// Every exercise in exercises/, run by the engine the page uses (the browser's runner, here in
// Node): its spec must pass on the reference solution and must not pass on the starter. `npm test`
// also runs each spec under real Vitest against the solution; this checks the browser path agrees.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { solutionEntry } from '../../src/exercise/catalogue.ts';
import { readCatalogueFromDisk, PROJECT_ROOT } from '../../tools/catalogue-node.ts';
import { protocolModulesFromGlob } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { requestFor } from '../../src/exercise/exercise-runner.ts';

const catalogue = readCatalogueFromDisk();
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../../src/protocol/**/*.ts', '!../../src/protocol/**/*.test.ts'], { eager: true }));

describe('the exercise catalogue', () => {
  it('reads every exercise folder without a problem', () => {
    expect(catalogue.problems).toEqual([]);
  });
});

describe.each(catalogue.exercises.map((exercise) => ({ id: exercise.meta.id, exercise })))('exercise $id in the browser engine', ({ exercise }) => {
  it('passes on the reference solution', async () => {
    const solution = readFileSync(join(PROJECT_ROOT, solutionEntry(exercise.meta)), 'utf8');
    const result = await runSpec({ ...requestFor(exercise, solution), protocolModules });
    const failures = result.tests.filter((test) => test.status !== 'pass').map((test) => `${test.name}: ${test.message}`);
    expect({ status: result.status, message: result.message, failures }).toEqual({ status: 'pass', message: undefined, failures: [] });
  });

  it('does not pass on the starter', async () => {
    const result = await runSpec({ ...requestFor(exercise, exercise.starter), protocolModules });
    expect(result.status).not.toBe('pass');
  });
});
