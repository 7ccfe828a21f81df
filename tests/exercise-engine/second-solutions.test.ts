// No over-specification: each spec must pass on a second correct solution written in another style
// than the reference (second-solutions/<exercise id>.ts), run by the engine the page uses and under
// the learner's file name, exactly as a learner's file is. A spec that refuses it tests the
// reference's shape instead of the lesson's rules.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { protocolModulesFromGlob } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { requestFor } from '../../src/exercise/exercise-runner.ts';

const catalogue = readCatalogueFromDisk(undefined, { drafts: true });
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../../src/protocol/**/*.ts', '!../../src/protocol/**/*.test.ts'], { eager: true }));
const SECOND_SOLUTIONS = join(PROJECT_ROOT, 'tests', 'exercise-engine', 'second-solutions');

const fileOf = (id: string) => join(SECOND_SOLUTIONS, `${id}.ts`);

it('every exercise has a second solution', () => {
  expect(catalogue.exercises.map((exercise) => exercise.meta.id).filter((id) => !existsSync(fileOf(id)))).toEqual([]);
});

describe.each(catalogue.exercises.filter((exercise) => existsSync(fileOf(exercise.meta.id))).map((exercise) => ({ id: exercise.meta.id, exercise })))('exercise $id', ({ exercise }) => {
  it('its spec passes on a second correct solution in another style', async () => {
    const result = await runSpec({ ...requestFor(exercise, readFileSync(fileOf(exercise.meta.id), 'utf8')), protocolModules });
    const failures = result.tests.filter((test) => test.status !== 'pass').map((test) => `${test.name}: ${test.message}`);
    expect({ status: result.status, message: result.message, failures }).toEqual({ status: 'pass', message: undefined, failures: [] });
  });
});
