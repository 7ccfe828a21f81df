// The proof that every exercise's spec means something, run through the same engine as the page
// (runSpec): it passes on the reference solution, fails on the starter, and fails on every mutant
// in tests/mutants/<exercise id>/ — each a descriptor (mutant.ts) that puts one of the chapter's
// failure modes back into a reference module as a small patch, applied here by apply-mutant.ts.
//
// A mutant must fail for the right reason: the run is 'fail' (tests ran and some did not pass),
// never 'error' (nothing could run), and every test the mutant names in `caughtBy` is among the
// ones that did not pass. A control run per patched file applies no edit at all and must pass, so
// the patching machinery itself is never what makes a mutant fail.

import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { solutionEntry } from '../../src/exercise/catalogue.ts';
import { loadProtocolModulesFromDisk, readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { protocolIdOfPath, type ProtocolModules } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import type { Exercise } from '../../src/exercise/types.ts';
import type { RunResult } from '../../src/sandbox/spec-results.ts';
import { buildMutantRun, buildPatchedRun, caughtByProblems, readReferenceSources, type MutantRun } from './apply-mutant.ts';
import type { Mutant } from './mutant.ts';

const MUTANTS_DIR = join(PROJECT_ROOT, 'tests', 'mutants');
const catalogue = readCatalogueFromDisk(undefined, { drafts: true });
const referenceSources = readReferenceSources(PROJECT_ROOT);

/** './02-frames/bad-json-throws.ts' → its descriptor. */
const descriptors = import.meta.glob<Mutant>('./*/*.ts', { eager: true, import: 'default' });

let protocolModules: ProtocolModules;
beforeAll(async () => {
  protocolModules = await loadProtocolModulesFromDisk();
});

interface LearnerRun {
  learnerSource: string;
  learnerModuleId?: string | undefined;
  protocolModules?: ProtocolModules;
  /** The per-test limit; the page's own (1,000 ms) unless given. */
  testTimeoutMs?: number;
}

// A mutant often leaves a call unanswered, and each test that waits on it runs to the per-test
// limit (one mutant: 20 tests × 1 s). A shorter limit for mutant runs only: a test it cuts short
// fails, which can only add to the failures a mutant must cause, never hide the ones `caughtBy`
// names, so the verdict is the same; the reference, starter and control runs keep the page's limit.
const MUTANT_TEST_LIMIT_MS = 200;

function run(exercise: Exercise, learner: LearnerRun): Promise<RunResult> {
  return runSpec({
    specSource: exercise.spec,
    learnerSource: learner.learnerSource,
    learnerFile: exercise.meta.learnerFile,
    steps: exercise.meta.steps,
    protocolModules: learner.protocolModules ?? protocolModules,
    // The spec's oracle ('@reference/…') stays the reference while '@protocol/…' carries the bug.
    referenceModules: protocolModules,
    ...(learner.learnerModuleId ? { learnerModuleId: learner.learnerModuleId } : {}),
    ...(learner.testTimeoutMs === undefined ? {} : { testTimeoutMs: learner.testTimeoutMs }),
  });
}

/** Names of the tests that did not pass, for a readable failure message. */
function summary(result: RunResult): string {
  if (result.status === 'error') return `error: ${result.message ?? ''}`;
  const failed = result.tests.filter((test) => test.status !== 'pass');
  return `${result.tests.length - failed.length}/${result.tests.length} passed; not passing: ${failed.map((test) => test.name).join(' | ') || '(none)'}`;
}

function mutantsOf(id: string): Array<{ name: string; mutant: Mutant }> {
  return Object.entries(descriptors)
    .filter(([path]) => path.startsWith(`./${id}/`))
    .map(([path, mutant]) => ({ name: path.slice(2, -'.ts'.length), mutant }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

it('the exercise catalogue reads without problems', () => {
  expect(catalogue.problems).toEqual([]);
});

it('every mutant folder belongs to an exercise, and every file in one is a mutant descriptor', () => {
  const ids = new Set(catalogue.exercises.map((exercise) => exercise.meta.id));
  const folders = readdirSync(MUTANTS_DIR, { withFileTypes: true }).filter((entry) => entry.isDirectory());
  expect(folders.map((entry) => entry.name).filter((name) => !ids.has(name))).toEqual([]);
  const notDescriptors = Object.entries(descriptors)
    .filter(([, mutant]) => typeof mutant !== 'object' || mutant === null || typeof mutant.file !== 'string' || !Array.isArray(mutant.edits))
    .map(([path]) => path);
  expect(notDescriptors).toEqual([]);
});

for (const exercise of catalogue.exercises) {
  const mutants = mutantsOf(exercise.meta.id);
  const solutionModule = solutionEntry(exercise.meta);

  describe(exercise.meta.id, () => {
    it('passes on the reference solution', async () => {
      const result = await run(exercise, { learnerSource: referenceSources[solutionModule] ?? '', learnerModuleId: protocolIdOfPath(solutionModule) });
      expect(result.status, summary(result)).toBe('pass');
    });

    it('fails on the starter', async () => {
      const result = await run(exercise, { learnerSource: exercise.starter, learnerModuleId: protocolIdOfPath(exercise.meta.solution[0] as string) });
      expect(result.status, summary(result)).toBe('fail');
    });

    for (const file of new Set(mutants.map(({ mutant }) => mutant.file))) {
      it(`passes when ${file} goes through the patching with no edit (control)`, async () => {
        const control = buildPatchedRun({ name: `${exercise.meta.id} control`, file, patch: (source) => source, solutionModule, referenceSources, protocolModules });
        const result = await run(exercise, control);
        expect(result.status, summary(result)).toBe('pass');
      });
    }

    for (const { name, mutant } of mutants) {
      it(`catches the mutant ${name}: ${mutant.failureMode}`, async () => {
        expect(exercise.meta.solution, `${name} patches a file that is not part of this exercise's answer`).toContain(mutant.file);
        expect(mutant.caughtBy.length, `${name} names no test in caughtBy`).toBeGreaterThan(0);
        const patched: MutantRun = buildMutantRun({ name, mutant, solutionModule, referenceSources, protocolModules });
        const result = await run(exercise, { ...patched, testTimeoutMs: MUTANT_TEST_LIMIT_MS });
        expect(result.status, summary(result)).toBe('fail');
        expect(caughtByProblems(result, mutant.caughtBy), summary(result)).toEqual([]);
      });
    }
  });
}
