// Every rule a lesson states has a test. Each exercise's rules.json maps every section of its
// lesson (the `{#id}` of each `## ` heading in content.en.md and content.zh-CN.md) either to the
// spec tests that enforce the section's rules or to a sentence saying why the section states none.
// This test fails on a section missing from the map, a test name the spec does not have, a spec
// test no section claims, and a section with a rule but fewer than three mutants
// (tests/mutants/<exercise>/*.ts name their `section`) among the wrong solutions the spec catches.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCatalogueFromDisk, EXERCISES_DIR } from '../../tools/catalogue-node.ts';
import { protocolModulesFromGlob } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { requestFor } from '../../src/exercise/exercise-runner.ts';
import { solutionEntry } from '../../src/exercise/catalogue.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import type { Mutant } from '../mutants/mutant.ts';

const catalogue = readCatalogueFromDisk(undefined, { drafts: true });
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../../src/protocol/**/*.ts', '!../../src/protocol/**/*.test.ts'], { eager: true }));
const mutants = import.meta.glob<Mutant>('../mutants/*/*.ts', { eager: true, import: 'default' });

const MUTANTS_PER_SECTION = 3;

interface RuleMap {
  /** Section id → the full names ('describe › title') of the tests enforcing it, or why it states no rule. */
  sections: Record<string, string[] | string>;
}

const rulesFile = (id: string) => join(EXERCISES_DIR, id, 'rules.json');

/** The `{#id}` of every `## ` heading, in order. */
function sectionIds(markdown: string): string[] {
  return [...markdown.matchAll(/^## .*\{#([\w-]+)\}\s*$/gm)].map((match) => match[1] as string);
}

it('every exercise has a lesson-rule map', () => {
  expect(catalogue.exercises.map((exercise) => exercise.meta.id).filter((id) => !existsSync(rulesFile(id)))).toEqual([]);
});

const mapped = catalogue.exercises.filter((exercise) => existsSync(rulesFile(exercise.meta.id)));

describe.each(mapped.map((exercise) => ({ id: exercise.meta.id, exercise })))('the lesson of $id', ({ id, exercise }) => {
  const rules = JSON.parse(readFileSync(rulesFile(id), 'utf8')) as RuleMap;
  const ruleSections = Object.entries(rules.sections).filter((entry): entry is [string, string[]] => Array.isArray(entry[1]));

  it('maps exactly the sections of its lesson, in both languages', () => {
    const en = sectionIds(readFileSync(join(EXERCISES_DIR, id, 'content.en.md'), 'utf8'));
    const zh = sectionIds(readFileSync(join(EXERCISES_DIR, id, 'content.zh-CN.md'), 'utf8'));
    expect(zh).toEqual(en);
    expect(Object.keys(rules.sections)).toEqual(en);
  });

  it('names at least one test for each section that states a rule, and a reason for each that does not', () => {
    for (const [section, value] of Object.entries(rules.sections)) {
      if (Array.isArray(value)) expect(value.length, section).toBeGreaterThan(0);
      else expect(value.trim().length, `${section}: say why it states no rule`).toBeGreaterThan(0);
    }
  });

  it('names only tests the spec has, and every test of the spec enforces some section', async () => {
    const solution = readFileSync(join(PROJECT_ROOT, solutionEntry(exercise.meta)), 'utf8');
    const result = await runSpec({ ...requestFor(exercise, solution), protocolModules });
    const names = result.tests.map((test) => test.name);
    const claimed = new Set(ruleSections.flatMap(([, tests]) => tests));
    expect([...claimed].filter((name) => !names.includes(name)), 'named in rules.json but not in the spec').toEqual([]);
    expect(names.filter((name) => !claimed.has(name)), 'in the spec but enforcing no section').toEqual([]);
  });

  it(`has at least ${MUTANTS_PER_SECTION} mutants for each section that states a rule, each naming a section of the lesson`, () => {
    const own = Object.entries(mutants).filter(([path]) => path.startsWith(`../mutants/${id}/`));
    expect(own.filter(([, mutant]) => !mutant.section || !ruleSections.some(([section]) => section === mutant.section)).map(([path]) => path), 'mutants without a rule section').toEqual([]);
    const counts = Object.fromEntries(ruleSections.map(([section]) => [section, own.filter(([, mutant]) => mutant.section === section).length]));
    expect(Object.entries(counts).filter(([, count]) => count < MUTANTS_PER_SECTION), 'sections with too few mutants').toEqual([]);
  });
});
