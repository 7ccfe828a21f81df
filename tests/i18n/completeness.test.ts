// Nothing the learner reads may exist in one language only. Three sources of text are checked:
// - the UI text: every namespace in src/locales/<language>/<namespace>.json (found on disk, so a
//   namespace a feature adds tomorrow is covered without touching this file): every language has
//   the same files as English, each file the same keys, non-empty strings and the same {{variables}},
//   no English sentence copied into the translation, and every namespace is typed (listed in
//   src/app/i18n/resources.ts, whose types come from the English files);
// - every exercise: both lesson files and both hint files exist, the lessons have the same
//   headings (level and {#id} anchor, in the same order: the spec results link to them by id), the
//   hints have the same count, and meta.json has a title in both languages;
// - every exercise's test names: test-names.zh-CN.json translates exactly the names the results
//   panel shows, no more and no fewer. The names are collected by running the spec on the
//   reference solution with the page's own engine (describe titles joined with ' › ', `.each`
//   titles formatted), since reading them off spec.ts with a pattern would miss the formatted ones.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHints, parseTestNames, solutionEntry, testNamesFile } from '../../src/exercise/catalogue.ts';
import { EXERCISES_DIR, readCatalogueFromDisk } from '../../tools/catalogue-node.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { protocolModulesFromGlob } from '../../src/sandbox/protocol-modules.ts';
import { runSpec } from '../../src/sandbox/run-spec.ts';
import { requestFor } from '../../src/exercise/exercise-runner.ts';
import { LANGUAGES } from '../../src/app/i18n/language.ts';
import { compareResources, keyPaths, leaf, untranslatedKeys } from '../../src/app/i18n/resource-check.ts';
import { NAMESPACES } from '../../src/app/i18n/resources.ts';
import { parseMarkdown, type Block } from '../../src/app/exercise/markdown.ts';

const LOCALES_DIR = join(PROJECT_ROOT, 'src', 'locales');
/** Namespaces whose every Chinese string must hold Chinese (no short names left in English). */
const ALL_CHINESE = new Set(['presenter', 'progress-transfer']);

const namespacesIn = (language: string) =>
  existsSync(join(LOCALES_DIR, language)) ? readdirSync(join(LOCALES_DIR, language)).filter((file) => file.endsWith('.json')).map((file) => file.replace(/\.json$/, '')).sort() : [];
const readNamespace = (language: string, namespace: string): unknown => JSON.parse(readFileSync(join(LOCALES_DIR, language, `${namespace}.json`), 'utf8'));
const englishNamespaces = namespacesIn('en');

describe('UI text in src/locales/<language>/<namespace>.json', () => {
  it('finds the namespaces, every one typed in src/app/i18n/resources.ts, and only the page\'s languages', () => {
    expect(englishNamespaces).toContain('common');
    expect(englishNamespaces).toEqual([...NAMESPACES].sort());
    expect(readdirSync(LOCALES_DIR).filter((entry) => statSync(join(LOCALES_DIR, entry)).isDirectory()).sort()).toEqual([...LANGUAGES].sort());
  });

  it.each(LANGUAGES.filter((language) => language !== 'en'))('%s has exactly the namespaces English has', (language) => {
    expect(namespacesIn(language)).toEqual(englishNamespaces);
  });

  it.each(englishNamespaces)('%s: every language has the same keys and {{variables}}, really translated', (namespace) => {
    const en = readNamespace('en', namespace);
    for (const language of LANGUAGES.filter((other) => other !== 'en')) {
      if (!existsSync(join(LOCALES_DIR, language, `${namespace}.json`))) continue; // reported above
      const translated = readNamespace(language, namespace);
      expect(compareResources(en, translated, 'en', language), `${language}/${namespace}.json`).toEqual([]);
      expect(untranslatedKeys(en, translated), `${language}/${namespace}.json: English copied over`).toEqual([]);
      if (ALL_CHINESE.has(namespace)) {
        const notChinese = keyPaths(translated).filter((path) => !/\p{Script=Han}/u.test(String(leaf(translated, path))));
        expect(notChinese, `${language}/${namespace}.json: strings with no Chinese in them`).toEqual([]);
      }
    }
    // {{1}} is a quote from a script, never a variable.
    expect(keyPaths(en).filter((path) => /\{\{\s*\d+\s*\}\}/.test(String(leaf(en, path)))), `en/${namespace}.json`).toEqual([]);
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
  const { exercises } = readCatalogueFromDisk(undefined, { drafts: true });

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
