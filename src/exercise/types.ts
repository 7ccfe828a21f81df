// The shapes shared by the exercise engine, its worker and the UI. Results follow Exercism's test
// runner interface: an overall pass | fail | error, and per test a name, status, message, expected
// vs actual and the test's own code, in file order.

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
}

export interface Exercise {
  meta: ExerciseMeta;
  /** The lesson text per language (Markdown). */
  content: Partial<Record<Locale, string>>;
  starter: string;
  spec: string;
  /** Hints per language, in the order they are revealed. */
  hints: Partial<Record<Locale, string[]>>;
  /**
   * Per language other than English (`test-names.<locale>.json`): a test's name as the results
   * give it (`TestResult.name`, describe path joined with ' › ') → its translation. The English
   * name is the source: it is what the runner and `npm run exercise -- check` print.
   */
  testNames?: Partial<Record<Locale, Record<string, string>>>;
}

/** `pass`: all tests passed. `fail`: some test failed. `error`: nothing ran (see `error`). */
export type RunStatus = 'pass' | 'fail' | 'error';
/** `fail`: an assertion failed or the test timed out. `error`: the code threw something else. */
export type TestStatus = 'pass' | 'fail' | 'error';

/** Why nothing ran. Lines and columns are 1-based, in the file named by `source`. */
export interface RunError {
  message: string;
  line?: number;
  column?: number;
  source: 'learner' | 'spec';
}

export interface TestResult {
  /** The describe path and the test title joined with ' › '. */
  name: string;
  status: TestStatus;
  /** Why it failed; absent when it passed. */
  message?: string;
  /** Pretty-printed values of a failed assertion, when it compared two values. */
  expected?: string;
  actual?: string;
  /** A line diff of expected and actual (`- Expected` / `+ Received`). */
  diff?: string;
  /** The test's source, sliced from the spec (the callback's text when slicing was not possible). */
  code: string;
  /** 1-based line of the test in the spec, when known. */
  line?: number;
  /** 1-based line in the learner's file where the thrown error came from, when known. */
  learnerLine?: number;
  /** The lesson heading id of the nearest describe block listed in `meta.steps`. */
  step?: string;
  durationMs: number;
}

export interface RunResult {
  status: RunStatus;
  /** Present when status is 'error': a sentence for the learner. */
  message?: string;
  error?: RunError;
  tests: TestResult[];
  durationMs: number;
}

/** What a run needs besides the reference modules; plain data, so it can cross into a worker. */
export interface SpecRunRequest {
  specSource: string;
  learnerSource: string;
  /** Shown in messages and stack traces, e.g. `jsonrpc.ts`. Default `learner.ts`. */
  learnerFile?: string;
  /**
   * Where the learner's module would live among the reference modules, e.g. `@protocol/jsonrpc`:
   * relative imports in the learner's code (`./mcp.ts`) resolve from there, so the reference
   * solution itself can be pasted and run.
   */
  learnerModuleId?: string;
  steps?: Record<string, string>;
  /** Per-test (and per-hook) time limit; default 1000 ms. A spec may ask for more per test. */
  testTimeoutMs?: number;
}
