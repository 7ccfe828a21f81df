import { describe, expect, it } from 'vitest';
import type { RunResult, TestResult } from '../../sandbox/spec-results.ts';
import { diffLineKind, summarizeResult, summarizeRun } from './run-summary.ts';

const test = (status: TestResult['status']): TestResult => ({ name: 't', status, code: '', durationMs: 1 });

describe('summarizeRun', () => {
  it('says idle, or how many tests finished while running', () => {
    expect(summarizeRun({ status: 'idle' })).toEqual({ state: 'idle' });
    expect(summarizeRun({ status: 'running', seq: 1, tests: [test('pass'), test('fail')] })).toEqual({ state: 'running', finished: 2 });
  });

  it('counts failed and errored tests as not passed', () => {
    const result: RunResult = { status: 'fail', tests: [test('pass'), test('fail'), test('error')], durationMs: 12 };
    expect(summarizeRun({ status: 'done', seq: 1, result })).toEqual({ state: 'fail', failed: 2, total: 3, durationMs: 12 });
    expect(summarizeResult({ status: 'pass', tests: [test('pass')], durationMs: 5 })).toEqual({ state: 'pass', total: 1, durationMs: 5 });
  });

  it('tells a syntax error (line and column) from a throw while loading (line only)', () => {
    const syntax: RunResult = { status: 'error', message: 'jsonrpc.ts has a syntax error on line 3, column 7: Unexpected token', error: { message: 'Unexpected token', line: 3, column: 7, source: 'learner' }, tests: [], durationMs: 2 };
    expect(summarizeResult(syntax)).toMatchObject({ state: 'error', kind: 'syntax', line: 3, column: 7 });
    const load: RunResult = { status: 'error', message: 'jsonrpc.ts, line 9: boom', error: { message: 'boom', line: 9, source: 'learner' }, tests: [], durationMs: 2 };
    expect(summarizeResult(load)).toMatchObject({ state: 'error', kind: 'load', line: 9 });
  });

  it('recognises the runner’s hard stop, a broken spec, and anything else', () => {
    const message = 'Your code ran for more than 2 s without pausing, so it was stopped. Look for a loop…';
    expect(summarizeResult({ status: 'error', message, error: { message, source: 'learner' }, tests: [], durationMs: 2001 })).toMatchObject({ kind: 'timeout', message });
    expect(summarizeResult({ status: 'error', message: 'The spec defines no tests.', error: { message: 'x', source: 'spec' }, tests: [], durationMs: 1 })).toMatchObject({ kind: 'spec' });
    expect(summarizeResult({ status: 'error', message: 'The test runner could not start', tests: [], durationMs: 1 })).toMatchObject({ kind: 'other' });
  });
});

describe('diffLineKind', () => {
  it('colours - lines as expected, + lines as received, the rest as common', () => {
    expect(['- Expected', '+ Received', '  "id": 1,', '-   "id": 0,'].map(diffLineKind)).toEqual(['expected', 'received', 'same', 'expected']);
  });
});
