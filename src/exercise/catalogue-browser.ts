// The catalogue in the page. What the exercise list and the editor need at once is inlined at build
// time (meta.json and starter.ts of every exercise: the titles, and the code the protocol view and
// the Chapter loop run for exercises the learner has not opened); the rest loads when it is needed,
// each file its own chunk: the lesson, hints and test names per exercise and language when the
// exercise is opened in that language, the spec when its tests first run, a reference solution when
// the learner asks to see it. The service worker precaches every chunk, so all of it works offline.

import { buildCatalogue, groupByFolder, localizedSolutionPath, parseTestNames, testNamesFile, type Catalogue } from './catalogue.ts';
import { parseHints, parseRules } from './hints.ts';
import type { Exercise, Locale } from './types.ts';

const eagerFiles = import.meta.glob<string>(['/exercises/*/meta.json', '/exercises/*/starter.ts'], { query: '?raw', import: 'default', eager: true });

// starter.<locale>.ts: the same starter with its comments in that language (the editor's first code).
// Loaded with that language (loadLocalizedStarters), not in the first paint: only one is ever used.
const localizedStarterFiles = import.meta.glob<string>('/exercises/*/starter.*.ts', { query: '?raw', import: 'default' });

const lazyFiles = import.meta.glob<string>(['/exercises/*/spec.ts', '/exercises/*/content.*.md', '/exercises/*/hints.*.md', '/exercises/*/test-names.*.json', '/exercises/*/rules.json'], {
  query: '?raw',
  import: 'default',
});

const solutionFiles = import.meta.glob<string>(['/src/protocol/**/*.ts', '!/src/protocol/**/*.test.ts', '!/src/protocol/inspect/**'], { query: '?raw', import: 'default' });

// The same reference files with their comments in another language (exercises/NN/reference/…,
// display only: the code is the reference's, and only src/protocol/ ever runs).
const localizedSolutionFiles = import.meta.glob<string>('/exercises/*/reference/**/*.ts', { query: '?raw', import: 'default' });

/** The text of one exercise in one language, as it merges into its `Exercise`. */
export type ExerciseText = Pick<Exercise, 'content' | 'hints' | 'testNames' | 'rules'>;

/** Loads what the catalogue left out (ExerciseStore asks; tests give it their own). */
export interface ExerciseFiles {
  /** The lesson, hints and test names in `locale`, with the English lesson and hints when `locale` has none; the lesson's rules. */
  loadText(id: string, locale: Locale): Promise<ExerciseText>;
  loadSpec(id: string): Promise<string>;
}

let catalogue: Catalogue | undefined;

/**
 * Every exercise with its meta and starter; `spec` is empty and `content`, `hints` and `testNames`
 * are empty until `exerciseFiles` loads them. A folder missing a file is still reported, from the
 * names of the files the build holds.
 */
export function loadCatalogue(): Catalogue {
  if (catalogue) return catalogue;
  const folders = groupByFolder(eagerFiles);
  for (const path of Object.keys(lazyFiles)) {
    const [folder, file] = path.split('/').slice(-2) as [string, string];
    // Present, not loaded: buildCatalogue checks the required files are there.
    if (file === 'spec.ts' || file === 'content.en.md') (folders[folder] ??= {})[file] = '';
  }
  const built = buildCatalogue(folders);
  catalogue = { problems: built.problems, exercises: built.exercises.map(({ meta, starter, starters }) => ({ meta, starter, ...(starters ? { starters } : {}), spec: '', content: {}, hints: {} })) };
  return catalogue;
}

/** Every exercise's starter with its comments in `locale`, by exercise id (none for English). */
export async function loadLocalizedStarters(locale: Locale): Promise<Record<string, string>> {
  const suffix = `/starter.${locale}.ts`;
  const loads = Object.entries(localizedStarterFiles).filter(([path]) => path.endsWith(suffix));
  const entries = await Promise.all(loads.map(async ([path, load]) => [path.split('/').slice(-2)[0] as string, await load()] as const));
  return Object.fromEntries(entries);
}

async function read(id: string, file: string): Promise<string | undefined> {
  const load = lazyFiles[`/exercises/${id}/${file}`];
  return load ? load() : undefined;
}

export const exerciseFiles: ExerciseFiles = {
  async loadText(id, locale) {
    const [content, hints, names, rules] = await Promise.all([
      read(id, `content.${locale}.md`).then((text) => text ?? (locale === 'en' ? undefined : read(id, 'content.en.md'))),
      read(id, `hints.${locale}.md`).then((text) => text ?? (locale === 'en' ? undefined : read(id, 'hints.en.md'))),
      locale === 'en' ? undefined : read(id, testNamesFile(locale)),
      read(id, 'rules.json'),
    ]);
    const hasOwn = (file: string) => `/exercises/${id}/${file}` in lazyFiles;
    const text: ExerciseText = { content: {}, hints: {} };
    if (content !== undefined) text.content[hasOwn(`content.${locale}.md`) ? locale : 'en'] = content;
    if (hints !== undefined) text.hints[hasOwn(`hints.${locale}.md`) ? locale : 'en'] = parseHints(hints);
    if (names !== undefined) {
      const parsed = parseTestNames(names);
      // A broken file shows the English names; tests/i18n/completeness.test.ts reports it.
      if (typeof parsed !== 'string') text.testNames = { [locale]: parsed };
    }
    // Which lesson section a failing test belongs to; a broken file only loses that link (lesson-rules.test.ts reports it).
    const parsedRules = rules === undefined ? undefined : parseRules(rules);
    if (parsedRules !== undefined && typeof parsedRules !== 'string') text.rules = parsedRules;
    return text;
  },
  async loadSpec(id) {
    const spec = await read(id, 'spec.ts');
    if (spec === undefined) throw new Error(`exercises/${id}/spec.ts is missing`);
    return spec;
  },
};

/**
 * The text of a reference file named in `meta.solution` / `meta.solutionModule` ('src/protocol/jsonrpc.ts'),
 * with its comments in `locale` when the exercise has that copy (else the reference itself).
 */
export async function loadSolutionSource(path: string, exerciseId?: string, locale: Locale = 'en'): Promise<string | undefined> {
  const copy = exerciseId === undefined ? null : localizedSolutionPath(exerciseId, path, locale);
  const load = (copy === null ? undefined : localizedSolutionFiles[`/${copy}`]) ?? solutionFiles[`/${path.replace(/^\/+/, '')}`];
  return load ? load() : undefined;
}
