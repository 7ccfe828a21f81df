// Runs a collected spec tree (spec-api.ts) the way Vitest does — file order; beforeAll / beforeEach
// outer to inner; afterEach / afterAll inner to outer and last-defined first; a hook may return its
// own cleanup — and turns each test into a TestResult. Every test and hook has a time limit, so a
// promise that never settles fails that one test and the others still run.
// One difference, for the learner: the example tests run first and the property tests (tagged
// 'property', property-runs.ts) after them, each group in file order, so the examples' verdict is
// out while the properties — most of a run's time — are still checked. The results come back in
// file order. A suite's beforeAll / afterAll run in each pass that has tests of it, so a spec keeps
// them out of suites that hold both kinds (tests/exercise-engine/exercises.test.ts checks the
// specs).

import { assertionCountError, resetExpectState, type ExpectTestContext, type SpecExpect } from './expect.ts';
import { AssertionCountError, describeFailure, TestTimeoutError } from './error-details.ts';
import type { HookFn, SuiteNode, TestContext, TestNode } from './spec-api.ts';
import type { TestResult } from './spec-results.ts';

export const DEFAULT_TEST_TIMEOUT_MS = 1000;

export interface ExecutorOptions {
  expect: SpecExpect;
  setCurrentTest(test: ExpectTestContext | undefined): void;
  testTimeoutMs?: number;
  steps?: Record<string, string>;
  /** The test's source and line in the spec. */
  locateTest(test: TestNode): { code: string; line?: number };
  /** The line in the learner's file an error was thrown from, if it was. */
  learnerLineOf(error: unknown): number | undefined;
  onResult?(result: TestResult): void;
  /** Every example test has run; `properties` property tests follow. Not called when there are none. */
  onExamplesDone?(properties: number): void;
  /** Errors thrown outside any test's call stack (a timer callback) since the last call. */
  takeUncaughtErrors?(): unknown[];
}

// Captured at load: learner code sees its own timers (timer-scope.ts), the limits use these.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

/** The steps a time limit is counted in (see withTimeLimit). */
export const LIMIT_TICK_MS = 25;

/**
 * Calls `fn` and waits for what it returns, failing with TestTimeoutError after `ms`. The limit is
 * counted in ticks of LIMIT_TICK_MS, not read from the clock: a worker too busy (or a machine too
 * slow, or a process stopped) to run its timers on time gets the wall time it needs, while a
 * promise that never settles, on an idle event loop, still fails after `ms`. A correct solution
 * then passes however slow the machine (tests/exercise-engine/slow-machine.test.ts).
 */
export async function withTimeLimit<T>(fn: () => T | Promise<T>, ms: number, what: string, onTimeout?: () => void): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    let ticksLeft = Math.max(1, Math.ceil(ms / LIMIT_TICK_MS));
    const tick = () => {
      ticksLeft -= 1;
      if (ticksLeft > 0) {
        timer = realSetTimeout(tick, Math.min(LIMIT_TICK_MS, ms));
        return;
      }
      onTimeout?.();
      reject(new TestTimeoutError(`${what} timed out after ${ms} ms: it was still waiting (for a promise that never settles?)`));
    };
    timer = realSetTimeout(tick, Math.min(LIMIT_TICK_MS, ms));
  });
  try {
    return await Promise.race([Promise.resolve().then(fn), limit]);
  } finally {
    realClearTimeout(timer);
  }
}

export async function runSuiteTree(root: SuiteNode, options: ExecutorOptions): Promise<TestResult[]> {
  const results: TestResult[] = [];
  const timeoutMs = options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;

  // Results come out in run order (examples first) and are sorted back into file order at the
  // end: each one keeps the place of the test (or, for an afterAll failure, the suite) it is about.
  const order = new Map<TestResult, number>();
  const fileOrder = new Map<SuiteNode | TestNode, number>();
  const emit = (result: TestResult, about: SuiteNode | TestNode) => {
    results.push(result);
    order.set(result, fileOrder.get(about) ?? 0);
    options.onResult?.(result);
  };

  async function callHook(hook: HookFn, kind: string): Promise<unknown> {
    return withTimeLimit(() => hook(), timeoutMs, `The ${kind} hook`);
  }

  /** Runs the tests of one kind (`property`) under `suite`; a suite with none of them is skipped, hooks and all. */
  async function runSuite(suite: SuiteNode, property: boolean): Promise<void> {
    const children = suite.children.filter((child) => holds(child, property));
    if (children.length === 0) return;
    const cleanups: Array<() => unknown> = [];
    let beforeAllError: unknown;
    for (const hook of suite.hooks.beforeAll) {
      try {
        const cleanup = await callHook(hook, 'beforeAll');
        if (typeof cleanup === 'function') cleanups.push(cleanup as () => unknown);
      } catch (error) {
        beforeAllError = error;
        break;
      }
    }
    for (const child of children) {
      if (beforeAllError !== undefined) reportNotRun(child, beforeAllError, property);
      else if (child.kind === 'suite') await runSuite(child, property);
      else emit(await runTest(child), child);
    }
    const afterAll = [...[...suite.hooks.afterAll].reverse(), ...cleanups.reverse()];
    for (const hook of afterAll) {
      const started = now();
      try {
        await callHook(hook, 'afterAll');
      } catch (error) {
        const failure = describeFailure(error);
        emit({ name: [...pathOf(suite), 'afterAll hook'].join(' › '), ...failure, ...learnerLine(error), code: String(hook), durationMs: elapsed(started) }, suite);
      }
    }
  }

  function reportNotRun(node: SuiteNode | TestNode, error: unknown, property: boolean): void {
    if (node.kind === 'suite') {
      node.children.filter((child) => holds(child, property)).forEach((child) => reportNotRun(child, error, property));
      return;
    }
    const failure = describeFailure(error);
    emit({ ...baseResult(node), ...failure, message: `Not run: a beforeAll hook failed: ${failure.message}`, ...learnerLine(error), durationMs: 0 }, node);
  }

  async function runTest(test: TestNode): Promise<TestResult> {
    const started = now();
    const name = [...pathOf(test.suite), test.title].join(' › ');
    const suites = ancestry(test.suite);
    const tracked: ExpectTestContext = { promises: [], onFinished: [] };
    const finished: Array<() => unknown> = [];
    const abort = new AbortController();
    const context: TestContext = { expect: options.expect, signal: abort.signal, onTestFinished: (fn) => void finished.push(fn) };
    const cleanups: Array<() => unknown> = [];
    let failure: unknown;
    const keepFirst = (error: unknown) => {
      if (failure === undefined) failure = error;
    };

    resetExpectState(options.expect, name);
    options.setCurrentTest(tracked);
    try {
      for (const suite of suites) {
        for (const hook of suite.hooks.beforeEach) {
          const cleanup = await callHook(hook, 'beforeEach');
          if (typeof cleanup === 'function') cleanups.push(cleanup as () => unknown);
        }
      }
      let unawaited: Promise<unknown>[] = [];
      await withTimeLimit(
        async () => {
          const returned = test.fn(context);
          if (isThenable(returned)) await returned;
          // `expect(p).resolves…` the test did not await. Taken at once: each one drops itself
          // from the list when it settles, and Vitest, which waits for them too, looks as early.
          unawaited = [...(tracked.promises ?? [])];
        },
        test.timeoutMs ?? timeoutMs,
        'The test',
        () => abort.abort(),
      );
      const settled = await Promise.allSettled(unawaited);
      const rejected = settled.find((outcome) => outcome.status === 'rejected');
      if (rejected) throw rejected.reason;
      const countError = assertionCountError(options.expect);
      if (countError) throw new AssertionCountError(countError.message);
    } catch (error) {
      keepFirst(error);
    }
    for (const suite of [...suites].reverse()) {
      for (const hook of [...suite.hooks.afterEach].reverse()) await callHook(hook, 'afterEach').catch(keepFirst);
    }
    for (const cleanup of cleanups.reverse()) await callHook(cleanup, 'beforeEach cleanup').catch(keepFirst);
    for (const fn of finished) await callHook(fn, 'onTestFinished').catch(keepFirst);
    for (const fn of tracked.onFinished ?? []) fn();
    // Vitest fails a run on an uncaught error; here the test during which it happened fails.
    const uncaught = options.takeUncaughtErrors?.() ?? [];
    if (uncaught.length > 0) keepFirst(uncaught[0]);
    options.setCurrentTest(undefined);

    const base = baseResult(test);
    if (failure === undefined) return { ...base, name, status: 'pass', durationMs: elapsed(started) };
    return { ...base, name, ...describeFailure(failure), ...learnerLine(failure), durationMs: elapsed(started) };
  }

  function baseResult(test: TestNode): Omit<TestResult, 'status' | 'durationMs'> {
    const { code, line } = options.locateTest(test);
    const result: Omit<TestResult, 'status' | 'durationMs'> = { name: [...pathOf(test.suite), test.title].join(' › '), code };
    if (line !== undefined) result.line = line;
    const step = stepOf(test.suite, options.steps ?? {});
    if (step !== undefined) result.step = step;
    return result;
  }

  function learnerLine(error: unknown): { learnerLine?: number } {
    const line = options.learnerLineOf(error);
    return line === undefined ? {} : { learnerLine: line };
  }

  // File order, numbered depth first: a suite comes after its own tests, so its afterAll failures do too.
  let next = 0;
  const number = (node: SuiteNode | TestNode): void => {
    if (node.kind === 'suite') node.children.forEach(number);
    fileOrder.set(node, next++);
  };
  number(root);

  await runSuite(root, false);
  const properties = countTests(root, true);
  if (properties > 0) {
    options.onExamplesDone?.(properties);
    await runSuite(root, true);
  }
  return results.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
}

/** Whether `node` is, or holds, a test of the kind asked for. */
function holds(node: SuiteNode | TestNode, property: boolean): boolean {
  return node.kind === 'test' ? (node.property === true) === property : node.children.some((child) => holds(child, property));
}

function countTests(node: SuiteNode | TestNode, property: boolean): number {
  if (node.kind === 'test') return (node.property === true) === property ? 1 : 0;
  return node.children.reduce((sum, child) => sum + countTests(child, property), 0);
}

/** Outermost first, without the root. */
function ancestry(suite: SuiteNode): SuiteNode[] {
  const chain: SuiteNode[] = [];
  for (let s: SuiteNode | undefined = suite; s; s = s.parent) chain.unshift(s);
  return chain;
}

function pathOf(suite: SuiteNode): string[] {
  return ancestry(suite)
    .filter((s) => s.parent !== undefined)
    .map((s) => s.title);
}

/** The step of the innermost describe block whose title `steps` lists. */
function stepOf(suite: SuiteNode, steps: Record<string, string>): string | undefined {
  for (let s: SuiteNode | undefined = suite; s?.parent; s = s.parent) {
    if (Object.prototype.hasOwnProperty.call(steps, s.title)) return steps[s.title];
  }
  return undefined;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function elapsed(started: number): number {
  return Math.round((now() - started) * 10) / 10;
}
