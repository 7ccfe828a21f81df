// Runs named checks one after another and reports them as a test run, in the exercises' own
// result shape (src/exercise/types.ts), so "Check my client/server" reads like Run tests: each
// check a named test with pass or fail, a message, expected and actual.
//
// Each check has a time limit. A server that crashed (exit seen in the tap) or stopped answering
// (a check ran out of time) fails every check after it with that reason, instead of making the
// learner wait out one time limit per remaining check.

import type { RunResult, TestResult } from '../../sandbox/spec-results.ts';
import type { ServerWatch } from './server-watch.ts';

export type CheckSuite = 'client' | 'server';

/** A check's result: a TestResult plus the check's id, so the page can show its title in any language. */
export interface CheckResult extends TestResult {
  id: string;
}

export interface SdkCheckReport extends RunResult {
  suite: CheckSuite;
  tests: CheckResult[];
}

/** Thrown by a check for a wrong answer; anything else thrown is reported as an error. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(
    message: string,
    readonly expected?: string,
    readonly actual?: string,
  ) {
    super(message);
  }
}

export interface Check<C> {
  id: string;
  /** The English title (the result's `name`); the panel shows it translated by id. */
  title: string;
  /** What the check does, as code: shown where an exercise result shows the test's code. */
  code: string;
  /** Overrides the run's per-check limit. */
  limitMs?: number;
  /** The check ends the server on purpose (close), so its exit is not a crash. */
  endsServer?: boolean;
  run(context: C): Promise<void>;
}

export interface RunChecksOptions {
  suite: CheckSuite;
  limitMs: number;
  watch: ServerWatch;
  /** Each result as soon as it is known, for progress. */
  onResult?(result: CheckResult, index: number, total: number): void;
  now?: () => number;
}

export const DEFAULT_CHECK_LIMIT_MS = 5000;

class CheckTimeout extends Error {}
class ServerDown extends Error {}

export async function runChecks<C>(checks: readonly Check<C>[], context: C, options: RunChecksOptions): Promise<SdkCheckReport> {
  const now = options.now ?? (() => performance.now());
  const started = now();
  const tests: CheckResult[] = [];
  /** Why nothing after this point can run, once something made it so. */
  let blocked: string | null = null;
  for (const [index, check] of checks.entries()) {
    const begin = now();
    const base = { id: check.id, name: check.title, code: check.code };
    let result: CheckResult;
    const downBefore = options.watch.downReason;
    if (blocked !== null || downBefore !== null) {
      result = { ...base, status: 'fail', message: `Not run: ${blocked ?? `the server is gone (${downBefore})`}.`, durationMs: 0 };
    } else {
      const limitMs = check.limitMs ?? options.limitMs;
      try {
        await withLimit(check.run(context), limitMs, check.endsServer ? null : options.watch);
        result = { ...base, status: 'pass', durationMs: now() - begin };
      } catch (error) {
        const durationMs = now() - begin;
        if (error instanceof CheckTimeout) {
          blocked = `"${check.title}" got no answer within ${seconds(limitMs)}, so the server (or client) is taken to be stuck`;
          result = { ...base, status: 'fail', message: `No answer within ${seconds(limitMs)}.`, durationMs };
        } else if (error instanceof ServerDown) {
          blocked = `the server is gone (${error.message})`;
          result = { ...base, status: 'fail', message: `The server went away during this check: ${error.message}.`, durationMs };
        } else if (error instanceof CheckFailure) {
          result = { ...base, status: 'fail', message: error.message, durationMs };
          if (error.expected !== undefined) result.expected = error.expected;
          if (error.actual !== undefined) result.actual = error.actual;
        } else {
          result = { ...base, status: 'error', message: describeThrown(error), durationMs };
        }
      }
    }
    tests.push(result);
    options.onResult?.(result, index, checks.length);
  }
  const status = tests.every((test) => test.status === 'pass') ? 'pass' : 'fail';
  return { suite: options.suite, status, tests, durationMs: now() - started };
}

/** A report for a run where no check could start (the host refused, the code did not load). */
export function errorReport(suite: CheckSuite, message: string, durationMs = 0): SdkCheckReport {
  return { suite, status: 'error', message, tests: [], durationMs };
}

function withLimit(work: Promise<void>, limitMs: number, watch: ServerWatch | null): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout()), limitMs);
  });
  const down = (watch?.down ?? new Promise<string>(() => {})).then((reason) => {
    throw new ServerDown(reason);
  });
  // A check that fails after losing the race must not become an unhandled rejection.
  work.catch(() => {});
  down.catch(() => {});
  return Promise.race([work, timeout, down]).finally(() => clearTimeout(timer));
}

export function describeThrown(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return `${error.name}${typeof code === 'number' ? ` ${code}` : ''}: ${error.message}`;
  }
  return String(error);
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** JSON for expected/actual, as the exercise results pretty-print values. */
export function pretty(value: unknown): string {
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
