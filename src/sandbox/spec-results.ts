// What a spec run is asked and what it answers, shared by the runner, its worker, the exercise
// engine and the UI. Results follow Exercism's test runner interface: an overall pass | fail |
// error, and per test a name, status, message, expected vs actual and the test's own code, in file order.

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
