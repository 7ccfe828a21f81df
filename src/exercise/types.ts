// The shapes shared by the exercise engine, its worker and the UI. Results follow Exercism's test
// runner interface: an overall pass | fail | error, and per test a name, status, message, expected
// vs actual and the test's own code, in file order.

import type { Hint, LessonRules } from './hints.ts';

export const LOCALES = ['en', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];

/** Text in every language the page speaks; English is always present and is the fallback. */
export type LocalizedText = { en: string } & Partial<Record<Locale, string>>;

/** `exercises/NN-slug/meta.json`. */
export interface ExerciseMeta {
  /** Equal to the folder name, e.g. `01-jsonrpc`. */
  id: string;
  order: number;
  title: LocalizedText;
  /** The file name shown in the editor, e.g. `jsonrpc.ts`. */
  learnerFile: string;
  /** Reference files, project-root relative, shown as the answer; the first is the main one. */
  solution: string[];
  /**
   * The reference module that stands for the learner's whole file when the spec runs against the
   * reference (`npm test`, `check --solution`), when that is not `solution[0]` — e.g. a module that
   * re-exports what the learner writes in one file but the reference keeps in several.
   */
  solutionModule?: string;
  /** Describe-block title → the lesson heading id it exercises. */
  steps: Record<string, string>;
  /**
   * Proven but not yet on the learner's path: every engine check (spec, mutants, second solution,
   * translations) runs on it, and the page and the CLI leave it out until its live scene exists
   * (each exercise on the path has one: src/app/exercise/next-station.ts).
   */
  draft?: boolean;
}

export interface Exercise {
  meta: ExerciseMeta;
  /** The lesson text per language (Markdown). */
  content: Partial<Record<Locale, string>>;
  starter: string;
  /**
   * The starter with its comments in another language (`starter.<locale>.ts`): the code itself is
   * identical to `starter` (tests/exercise-engine/localized-starters.test.ts checks it).
   */
  starters?: Partial<Record<Locale, string>>;
  spec: string;
  /** Hints per language, in file order, each naming the lesson sections it addresses. */
  hints: Partial<Record<Locale, Hint[]>>;
  /** `rules.json`: lesson section id → the spec tests enforcing it (loaded with the lesson in the page). */
  rules?: LessonRules;
  /**
   * Per language other than English (`test-names.<locale>.json`): a test's name as the results
   * give it (`TestResult.name`, describe path joined with ' › ') → its translation. The English
   * name is the source: it is what the runner and `npm run exercise -- check` print.
   */
  testNames?: Partial<Record<Locale, Record<string, string>>>;
}
