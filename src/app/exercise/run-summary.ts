// What the results panel says about a run, decided apart from React so each case is testable:
// its overall state, the counts, and, for a run where nothing ran, which kind of trouble it was.

import type { RunResult, TestResult } from '../../sandbox/spec-results.ts';
import type { ExamplesVerdict, RunState } from './exercise-store.ts';

/**
 * Why nothing ran. `syntax`: the learner's file does not parse (line and column known).
 * `load`: it threw while loading. `timeout`: it never paused and was stopped. `spec`: the
 * exercise's own spec failed. `other`: anything else (e.g. the runner could not start).
 */
export type RunErrorKind = 'syntax' | 'load' | 'timeout' | 'spec' | 'other';

export type RunSummary =
  | { state: 'idle' }
  | { state: 'running'; finished: number; examples?: ExamplesVerdict }
  | { state: 'pass'; total: number; durationMs: number }
  | { state: 'fail'; failed: number; total: number; durationMs: number }
  | { state: 'error'; kind: RunErrorKind; message: string; line?: number; column?: number; durationMs: number };

// spec-runner.ts words the hard stop this way; RunResult has no field that says so.
const TIMEOUT_MESSAGE = /ran for more than [\d.]+ s without pausing/;

export function summarizeRun(run: RunState): RunSummary {
  if (run.status === 'idle') return { state: 'idle' };
  if (run.status === 'running') return { state: 'running', finished: run.tests.length, ...(run.examples && { examples: run.examples }) };
  return summarizeResult(run.result);
}

export function summarizeResult(result: RunResult): RunSummary {
  const durationMs = result.durationMs;
  if (result.status === 'pass') return { state: 'pass', total: result.tests.length, durationMs };
  if (result.status === 'fail') return { state: 'fail', failed: countNotPassed(result.tests), total: result.tests.length, durationMs };
  const message = result.message ?? result.error?.message ?? '';
  const error = result.error;
  const where: { line?: number; column?: number } = {};
  if (error?.line !== undefined) where.line = error.line;
  if (error?.column !== undefined) where.column = error.column;
  let kind: RunErrorKind = 'other';
  if (error?.source === 'spec') kind = 'spec';
  else if (TIMEOUT_MESSAGE.test(message)) kind = 'timeout';
  else if (error?.source === 'learner' && error.line !== undefined) kind = error.column !== undefined ? 'syntax' : 'load';
  return { state: 'error', kind, message, ...where, durationMs };
}

function countNotPassed(tests: readonly TestResult[]): number {
  return tests.filter((test) => test.status !== 'pass').length;
}

/** One line of a `- Expected / + Received` diff, for colouring. */
export type DiffLineKind = 'expected' | 'received' | 'same';

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith('-')) return 'expected';
  if (line.startsWith('+')) return 'received';
  return 'same';
}
