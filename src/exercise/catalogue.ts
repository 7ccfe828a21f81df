// The exercise catalogue: every `exercises/NN-slug/` folder's files, as text, turned into checked
// Exercise objects. Where the text comes from is the caller's business (a Vite glob in the page,
// the disk in Node: catalogue-browser.ts, catalogue-node.ts); a broken folder is reported as a
// problem and left out, never thrown, so one bad exercise does not take the page down.

import { parseHints, parseRules } from './hints.ts';
// Re-exported: the i18n and catalogue tests read hint files through the catalogue.
export { parseHints } from './hints.ts';
import { LOCALES, type Exercise, type ExerciseMeta, type Locale, type LocalizedText } from './types.ts';

export interface Catalogue {
  /** Sorted by `meta.order`, then id. */
  exercises: Exercise[];
  /** One sentence per folder that could not be read, naming the folder. */
  problems: string[];
}

/** Folder name → file name → text. */
export type ExerciseFiles = Record<string, Record<string, string>>;

/**
 * Groups `…/<folder>/<file>` paths (glob keys like `/exercises/01-jsonrpc/meta.json`) by folder.
 */
export function groupByFolder(files: Record<string, string>): ExerciseFiles {
  const folders: ExerciseFiles = {};
  for (const [path, text] of Object.entries(files)) {
    const parts = path.split('/').filter(Boolean);
    const file = parts[parts.length - 1];
    const folder = parts[parts.length - 2];
    if (!file || !folder) continue;
    (folders[folder] ??= {})[file] = text;
  }
  return folders;
}

/** `drafts`: also the exercises whose meta.json says `"draft": true` (the engine's checks want them; the page does not). */
export function buildCatalogue(folders: ExerciseFiles, options: { drafts?: boolean } = {}): Catalogue {
  const exercises: Exercise[] = [];
  const problems: string[] = [];
  for (const [folder, files] of Object.entries(folders)) {
    const result = readExercise(folder, files);
    if (typeof result === 'string') problems.push(`exercises/${folder}: ${result}`);
    else if (result.meta.draft !== true || options.drafts === true) exercises.push(result);
  }
  exercises.sort((a, b) => a.meta.order - b.meta.order || a.meta.id.localeCompare(b.meta.id));
  return { exercises, problems };
}

function readExercise(folder: string, files: Record<string, string>): Exercise | string {
  for (const required of ['meta.json', 'starter.ts', 'spec.ts']) {
    if (files[required] === undefined) return `${required} is missing`;
  }
  const meta = parseMeta(files['meta.json'] as string);
  if (typeof meta === 'string') return `meta.json: ${meta}`;
  if (meta.id !== folder) return `meta.json: "id" is "${meta.id}" but the folder is "${folder}"`;
  const content: Exercise['content'] = {};
  const hints: Exercise['hints'] = {};
  const testNames: NonNullable<Exercise['testNames']> = {};
  for (const locale of LOCALES) {
    const text = files[`content.${locale}.md`];
    if (text !== undefined) content[locale] = text;
    const hintText = files[`hints.${locale}.md`];
    if (hintText !== undefined) hints[locale] = parseHints(hintText);
    const namesFile = testNamesFile(locale);
    const namesText = files[namesFile];
    if (namesText !== undefined && locale !== 'en') {
      const names = parseTestNames(namesText);
      if (typeof names === 'string') return `${namesFile}: ${names}`;
      testNames[locale] = names;
    }
  }
  if (content.en === undefined) return 'content.en.md is missing';
  const exercise: Exercise = { meta, content, starter: files['starter.ts'] as string, spec: files['spec.ts'] as string, hints };
  if (Object.keys(testNames).length > 0) exercise.testNames = testNames;
  if (files['rules.json'] !== undefined) {
    const rules = parseRules(files['rules.json']);
    if (typeof rules === 'string') return `rules.json: ${rules}`;
    exercise.rules = rules;
  }
  const starters: NonNullable<Exercise['starters']> = {};
  for (const locale of LOCALES) {
    const localized = files[`starter.${locale}.ts`];
    if (localized !== undefined && locale !== 'en') starters[locale] = localized;
  }
  if (Object.keys(starters).length > 0) exercise.starters = starters;
  return exercise;
}

/** `test-names.zh-CN.json`: the file translating the spec's test names into `locale`. */
export function testNamesFile(locale: Locale): string {
  return `test-names.${locale}.json`;
}

/**
 * Checks a `test-names.<locale>.json`: a JSON object mapping each test's English name, as the
 * results give it (describe titles and the test title joined with ' › '), to its translation.
 * Returns the reason it is unusable as a string.
 */
export function parseTestNames(text: string): Record<string, string> | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!isRecord(data)) return 'must be a JSON object mapping English test names to translations';
  const names: Record<string, string> = {};
  for (const [name, translation] of Object.entries(data)) {
    if (typeof translation !== 'string' || translation.trim() === '') return `the translation of "${name}" must be a non-empty string`;
    names[name] = translation;
  }
  return names;
}

/** A test's name in `locale`, falling back to the English name the runner reports. */
export function localizedTestName(exercise: Pick<Exercise, 'testNames'>, name: string, locale: Locale): string {
  if (locale === 'en') return name;
  const names = exercise.testNames?.[locale];
  return names !== undefined && Object.hasOwn(names, name) ? (names[name] as string) : name;
}


/** Checks meta.json; returns the reason it is unusable as a string. */
export function parseMeta(text: string): ExerciseMeta | string {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return `not valid JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!isRecord(data)) return 'must be a JSON object';
  const { id, order, title, learnerFile, solution, solutionModule, steps, draft } = data;
  if (typeof id !== 'string' || !/^\d{2}-[a-z0-9-]+$/.test(id)) return '"id" must look like "01-jsonrpc"';
  if (typeof order !== 'number' || !Number.isFinite(order)) return '"order" must be a number';
  const localized = parseLocalized(title);
  if (!localized) return '"title" must be an object with an "en" string (and optionally "zh-CN")';
  if (typeof learnerFile !== 'string' || !/^[\w.-]+\.ts$/.test(learnerFile)) return '"learnerFile" must be a file name ending in .ts';
  if (!Array.isArray(solution) || solution.length === 0 || !solution.every((path) => typeof path === 'string' && path.endsWith('.ts'))) {
    return '"solution" must be a non-empty list of .ts paths';
  }
  if (solutionModule !== undefined && (typeof solutionModule !== 'string' || !solutionModule.endsWith('.ts'))) return '"solutionModule" must be a .ts path';
  if (draft !== undefined && typeof draft !== 'boolean') return '"draft" must be true or false';
  const stepMap: Record<string, string> = {};
  if (steps !== undefined) {
    if (!isRecord(steps) || !Object.values(steps).every((value) => typeof value === 'string')) return '"steps" must map describe titles to heading ids';
    Object.assign(stepMap, steps);
  }
  const meta: ExerciseMeta = { id, order, title: localized, learnerFile, solution: solution as string[], steps: stepMap };
  if (solutionModule !== undefined) meta.solutionModule = solutionModule;
  if (draft === true) meta.draft = true;
  return meta;
}

/** The reference file that stands for the learner's file: `solutionModule`, else `solution[0]`. */
export function solutionEntry(meta: ExerciseMeta): string {
  return meta.solutionModule ?? (meta.solution[0] as string);
}

/** Every reference file the Solve view shows: `meta.solution`, then the entry module when it is not among them. */
export function solutionPaths(meta: ExerciseMeta): string[] {
  const entry = solutionEntry(meta);
  return meta.solution.includes(entry) ? [...meta.solution] : [...meta.solution, entry];
}

/**
 * Where the copy of a reference file with its comments in `locale` lives (display only: the app
 * and the tests run the one in `src/protocol/`): `src/protocol/framing/ndjson.ts` of exercise
 * 02-frames in zh-CN is `exercises/02-frames/reference/framing/ndjson.zh-CN.ts`. Null for English,
 * the language the reference is written in. tests/exercise-engine/localized-references.test.ts
 * holds each copy's code equal to the reference's.
 */
export function localizedSolutionPath(exerciseId: string, path: string, locale: Locale): string | null {
  if (locale === 'en' || !path.startsWith('src/protocol/') || !path.endsWith('.ts')) return null;
  return `exercises/${exerciseId}/reference/${path.slice('src/protocol/'.length, -'.ts'.length)}.${locale}.ts`;
}

function parseLocalized(value: unknown): LocalizedText | undefined {
  if (!isRecord(value) || typeof value.en !== 'string') return undefined;
  const text: LocalizedText = { en: value.en };
  for (const locale of LOCALES) {
    const entry = value[locale];
    if (typeof entry === 'string') text[locale] = entry;
  }
  return text;
}

/** The text in `locale`, falling back to English. */
export function localized(text: LocalizedText, locale: Locale): string {
  return text[locale] ?? text.en;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
