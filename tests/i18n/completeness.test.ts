// Nothing the learner reads may exist in one language only. Three sources of text are checked:
// - every `src/ui/**/i18n.ts` exporting a `…En` / `…ZhCN` pair (found on disk, so a bundle another
//   part of the UI adds tomorrow is covered without touching this file), and that each such bundle
//   is merged into the page's resources (an unmerged bundle shows raw keys on the page);
// - the main resources in src/app/i18n/en.ts and zh-CN.ts;
// - every exercise: both lesson files and both hint files exist, the lessons have the same
//   headings (level and {#id} anchor, in the same order: the spec results link to them by id), the
//   hints have the same count, and meta.json has a title in both languages;
// - every exercise's test names: test-names.zh-CN.json translates exactly the names the results
//   panel shows, no more and no fewer. The names are collected by running the spec on the
//   reference solution with the page's own engine (describe titles joined with ' › ', `.each`
//   titles formatted), since reading them off spec.ts with a pattern would miss the formatted ones.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseHints, parseTestNames, solutionEntry, testNamesFile } from '../../src/exercise/catalogue.ts';
import { EXERCISES_DIR, PROJECT_ROOT, readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { protocolModulesFromGlob } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { requestFor } from '../../src/exercise/exercise-runner.ts';
import { en } from '../../src/app/i18n/en.ts';
import { bundlePairs, compareResources, untranslatedKeys } from '../../src/app/i18n/resource-check.ts';
import { zhCN } from '../../src/app/i18n/zh-CN.ts';
import { parseMarkdown, type Block } from '../../src/app/exercise/markdown.ts';

const UI_DIR = join(PROJECT_ROOT, 'src', 'app');

function findFiles(dir: string, name: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return findFiles(path, name);
    return entry === name ? [path] : [];
  });
}

const bundleFiles = findFiles(UI_DIR, 'i18n.ts');

describe('UI bundles in src/app/**/i18n.ts', () => {
  it('finds the bundles (at least the protocol view)', () => {
    expect(bundleFiles.map((file) => relative(PROJECT_ROOT, file))).toContain(join('src', 'app', 'protocol', 'i18n.ts'));
  });

  it.each(bundleFiles.map((file) => [relative(PROJECT_ROOT, file), file]))('%s: every En/ZhCN pair matches and is merged into the page', async (_name, file) => {
    const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const pairs = bundlePairs(module);
    expect(pairs.length, 'an i18n.ts must export at least one fooEn/fooZhCN pair').toBeGreaterThan(0);
    for (const pair of pairs) {
      expect(compareResources(pair.en, pair.zhCN), pair.name).toEqual([]);
      expect(untranslatedKeys(pair.en, pair.zhCN), pair.name).toEqual([]);
      expect(mergedUnder(en, pair.en), `${pair.name}En is not merged into src/app/i18n/en.ts`).not.toBeNull();
      expect(mergedUnder(zhCN, pair.zhCN), `${pair.name}ZhCN is not merged into src/app/i18n/zh-CN.ts`).not.toBeNull();
    }
  });
});

/** The top-level namespace of `resources` that holds `bundle` itself (merged by import), or null. */
function mergedUnder(resources: object, bundle: unknown): string | null {
  return Object.entries(resources).find(([, value]) => value === bundle)?.[0] ?? null;
}

describe('main resources', () => {
  it('en.ts and zh-CN.ts match key for key', () => {
    expect(compareResources(en, zhCN)).toEqual([]);
  });
});

const exerciseDirs = readdirSync(EXERCISES_DIR).filter((entry) => statSync(join(EXERCISES_DIR, entry)).isDirectory());

/** Headings as "level #id" (or "level (no id)"), in order, including those nested in quotes and lists. */
function headingOutline(blocks: Block[]): string[] {
  return blocks.flatMap((block): string[] => {
    if (block.type === 'heading') return [`h${block.level} ${block.id === null ? '(no id)' : `#${block.id}`}`];
    if (block.type === 'quote') return headingOutline(block.children);
    if (block.type === 'list') return block.items.flatMap(headingOutline);
    return [];
  });
}

describe('exercises in both languages', () => {
  it('finds the exercises', () => {
    expect(exerciseDirs.length).toBeGreaterThanOrEqual(5);
  });

  it.each(exerciseDirs)('%s: lesson, hints and title exist in both languages with the same headings', (id) => {
    const dir = join(EXERCISES_DIR, id);
    for (const file of ['content.en.md', 'content.zh-CN.md', 'hints.en.md', 'hints.zh-CN.md', 'meta.json']) {
      expect(existsSync(join(dir, file)), `${id}/${file} is missing`).toBe(true);
    }
    const read = (file: string) => readFileSync(join(dir, file), 'utf8');

    const enOutline = headingOutline(parseMarkdown(read('content.en.md')));
    const zhOutline = headingOutline(parseMarkdown(read('content.zh-CN.md')));
    expect(enOutline.length).toBeGreaterThan(1);
    expect(zhOutline, `${id}: the headings of content.zh-CN.md differ from content.en.md`).toEqual(enOutline);

    const enHints = parseHints(read('hints.en.md'));
    expect(enHints.length).toBeGreaterThan(0);
    expect(parseHints(read('hints.zh-CN.md')).length, `${id}: hint count differs`).toBe(enHints.length);

    const meta = JSON.parse(read('meta.json')) as { title?: Record<string, string>; steps?: Record<string, string> };
    expect(meta.title?.en?.trim()).toBeTruthy();
    expect(meta.title?.['zh-CN']?.trim(), `${id}: meta.json has no zh-CN title`).toBeTruthy();
    // The results panel links a failing describe block to the lesson heading with this id, in the
    // learner's language: it must exist in both lessons.
    const ids = new Set(enOutline.map((entry) => entry.split('#')[1]));
    for (const [step, headingId] of Object.entries(meta.steps ?? {})) {
      expect(ids.has(headingId), `${id}: step "${step}" points at #${headingId}, which no lesson heading has`).toBe(true);
    }
  });
});

const protocolModules = protocolModulesFromGlob(import.meta.glob(['../../src/protocol/**/*.ts', '!../../src/protocol/**/*.test.ts'], { eager: true }));

describe('spec test names in both languages', () => {
  const { exercises } = readCatalogueFromDisk();

  it('reads every exercise, test names included', () => {
    expect(exercises.map((exercise) => exercise.meta.id).sort()).toEqual([...exerciseDirs].sort());
  });

  it.each(exercises.map((exercise) => [exercise.meta.id, exercise] as const))('%s: test-names.zh-CN.json translates every test name the results show, and nothing else', async (id, exercise) => {
    const file = testNamesFile('zh-CN');
    const path = join(EXERCISES_DIR, id, file);
    expect(existsSync(path), `${id}/${file} is missing`).toBe(true);
    const translations = parseTestNames(readFileSync(path, 'utf8'));
    if (typeof translations === 'string') throw new Error(`${id}/${file}: ${translations}`);

    // The names exactly as the page's results panel gets them (TestResult.name).
    const solution = readFileSync(join(PROJECT_ROOT, solutionEntry(exercise.meta)), 'utf8');
    const result = await runSpec({ ...requestFor(exercise, solution), protocolModules });
    // A failing reference would add hook rows and hide names: tests/exercise-engine says why.
    expect(result.status, `${id}: the spec does not pass on the reference solution`).toBe('pass');
    const names = result.tests.map((test) => test.name);
    expect(names.length).toBeGreaterThan(0);

    const untranslated = names.filter((name) => !Object.hasOwn(translations, name));
    expect(untranslated, `${id}: test names without a translation in ${file} (add them, keyed by the full name)`).toEqual([]);
    const stale = Object.keys(translations).filter((name) => !names.includes(name));
    expect(stale, `${id}: ${file} translates names no test has (renamed or removed tests?)`).toEqual([]);
    const copied = names.filter((name) => !/\p{Script=Han}/u.test(translations[name] as string));
    expect(copied, `${id}: translations with no Chinese in them`).toEqual([]);
    // Each describe title is translated the same way everywhere it prefixes a name.
    const depth = (name: string) => name.split(' › ').length;
    const mismatched = names.filter((name) => depth(name) !== depth(translations[name] as string));
    expect(mismatched, `${id}: a translation must keep the ' › ' between describe titles and the test title`).toEqual([]);
  });
});
