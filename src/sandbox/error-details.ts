// What a thrown value says about a test: failed (an assertion, a timeout) or errored (the code threw
// something else), the message, and for a comparison the expected and actual values and their diff,
// formatted the way Vitest's reporter formats them (@vitest/utils' processError).

import { processError } from '@vitest/utils/error';
import type { TestStatus } from './spec-results.ts';

export interface FailureDetails {
  status: Exclude<TestStatus, 'pass'>;
  message: string;
  expected?: string;
  actual?: string;
  diff?: string;
}

/** Thrown by the runner when a test or hook runs past its time limit. */
export class TestTimeoutError extends Error {
  override name = 'TestTimeoutError';
}

/** Thrown by the runner when `expect.assertions(n)` / `expect.hasAssertions()` was not met. */
export class AssertionCountError extends Error {
  override name = 'AssertionError';
}

// Node colours diffs when its terminal can; the page shows plain text.
const ANSI = /\u001b\[[0-9;]*m/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

function isAssertionFailure(error: unknown): boolean {
  if (error instanceof TestTimeoutError || error instanceof AssertionCountError) return true;
  if (!(error instanceof Error)) return false;
  // chai's AssertionError, Node's assert, and Jest-style matcher errors
  return error.name === 'AssertionError' || error.name === 'AssertionError [ERR_ASSERTION]' || 'matcherResult' in error;
}

// processError rewrites the error it is given, so an error seen twice (a failed beforeAll reported
// on each of its tests) is described once.
const described = new WeakMap<object, FailureDetails>();

export function describeFailure(error: unknown): FailureDetails {
  if (error !== null && typeof error === 'object') {
    const known = described.get(error);
    if (known) return known;
  }
  const details = describeOnce(error);
  if (error !== null && typeof error === 'object') described.set(error, details);
  return details;
}

function describeOnce(error: unknown): FailureDetails {
  const status = isAssertionFailure(error) ? 'fail' : 'error';
  if (!(error instanceof Error)) {
    return { status, message: `Thrown: ${safeString(error)}` };
  }
  let processed: { message?: unknown; expected?: unknown; actual?: unknown; diff?: unknown } = {};
  try {
    processed = processError(error, { printBasicPrototype: false }) as typeof processed;
  } catch {
    processed = { message: error.message };
  }
  const text = typeof processed.message === 'string' ? processed.message : error.message;
  // An error other than a failed assertion is named, so "TypeError: x is not a function" reads right.
  const message = stripAnsi(status === 'error' && error.name && error.name !== 'Error' ? `${error.name}: ${text}` : text);
  const details: FailureDetails = { status, message };
  if (typeof processed.expected === 'string') details.expected = stripAnsi(processed.expected);
  if (typeof processed.actual === 'string') details.actual = stripAnsi(processed.actual);
  if (typeof processed.diff === 'string' && processed.diff) details.diff = stripAnsi(processed.diff);
  return details;
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}
