// The proof that every exercise's spec means something, run through the same engine as the page
// (runSpec): it passes on the reference solution, fails on the starter, and fails on every mutant
// in tests/mutants/<exercise id>/ — each a copy of a reference module with one of the chapter's
// failure modes put back in (see each file's header comment).

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadProtocolModulesFromDisk, PROJECT_ROOT, readCatalogueFromDisk } from '../../src/exercise/catalogue-node.ts';
import { protocolIdOfPath, type ProtocolModules } from '../../src/exercise/protocol-modules.ts';
import { runSpec } from '../../src/exercise/run-spec.ts';
import type { Exercise, RunResult } from '../../src/exercise/types.ts';

const MUTANTS_DIR = join(PROJECT_ROOT, 'tests', 'mutants');
const catalogue = readCatalogueFromDisk();

let protocolModules: ProtocolModules;
beforeAll(async () => {
  protocolModules = await loadProtocolModulesFromDisk();
});

/**
 * The module '@learner' is when the spec runs against the reference: meta.solutionModule when the
 * answer spans several reference files (catalogue.ts does not keep that field, so it is read here),
 * else the first file of meta.solution.
 */
function solutionModuleOf(exercise: Exercise): string {
  const raw = JSON.parse(readFileSync(join(PROJECT_ROOT, 'exercises', exercise.meta.id, 'meta.json'), 'utf8')) as { solutionModule?: unknown };
  return typeof raw.solutionModule === 'string' ? raw.solutionModule : (exercise.meta.solution[0] as string);
}

function run(exercise: Exercise, learnerSource: string, learnerPath?: string): Promise<RunResult> {
  const location = learnerPath === undefined ? undefined : protocolIdOfPath(learnerPath);
  return runSpec({
    specSource: exercise.spec,
    learnerSource,
    learnerFile: exercise.meta.learnerFile,
    steps: exercise.meta.steps,
    protocolModules,
    ...(location ? { learnerModuleId: location } : {}),
  });
}

/** Names of the tests that did not pass, for a readable failure message. */
function summary(result: RunResult): string {
  if (result.status === 'error') return `error: ${result.message ?? ''}`;
  const failed = result.tests.filter((test) => test.status !== 'pass');
  return `${result.tests.length - failed.length}/${result.tests.length} passed; not passing: ${failed.map((test) => test.name).join(' | ') || '(none)'}`;
}

function mutantFilesOf(id: string): string[] {
  const folder = join(MUTANTS_DIR, id);
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((file) => file.endsWith('.ts'))
    .sort();
}

it('the exercise catalogue reads without problems', () => {
  expect(catalogue.problems).toEqual([]);
});

it('every mutant folder with mutants belongs to an exercise', () => {
  const ids = new Set(catalogue.exercises.map((exercise) => exercise.meta.id));
  const folders = existsSync(MUTANTS_DIR) ? readdirSync(MUTANTS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory()) : [];
  const orphans = folders.map((entry) => entry.name).filter((name) => mutantFilesOf(name).length > 0 && !ids.has(name));
  expect(orphans).toEqual([]);
});

for (const exercise of catalogue.exercises) {
  describe(exercise.meta.id, () => {
    it('passes on the reference solution', async () => {
      const path = solutionModuleOf(exercise);
      const result = await run(exercise, readFileSync(join(PROJECT_ROOT, path), 'utf8'), path);
      expect(result.status, summary(result)).toBe('pass');
    });

    it('fails on the starter', async () => {
      const result = await run(exercise, exercise.starter, exercise.meta.solution[0]);
      expect(result.status, summary(result)).toBe('fail');
    });

    for (const file of mutantFilesOf(exercise.meta.id)) {
      it(`catches the mutant ${file}`, async () => {
        const result = await run(exercise, readFileSync(join(MUTANTS_DIR, exercise.meta.id, file), 'utf8'), exercise.meta.solution[0]);
        expect(result.status, summary(result)).toBe('fail');
      });
    }
  });
}
