// The 'vitest' module a spec sees in the browser: describe / it / test / hooks that collect a tree
// in file order, Vitest's own `expect` (expect.ts) and `vi.fn` / `vi.spyOn` from @vitest/spy.
// Running the tree is test-executor.ts's job. Only the part of Vitest's API that the exercise
// conventions allow is here (no fake timers, no snapshots, no `.only`), so a spec that passes here
// passes under real Vitest too.

import { clearAllMocks, fn, isMockFunction, resetAllMocks, restoreAllMocks, spyOn } from '@vitest/spy';
import { format, objDisplay } from '@vitest/utils/display';
import { PROPERTY_TAG } from '../protocol/property-runs.ts';
import { createExpect, type ExpectTestContext, type SpecExpect } from './expect.ts';

export type TestFn = (context: TestContext) => unknown;
export type HookFn = () => unknown;

/** What a test callback receives, as in Vitest (a subset). */
export interface TestContext {
  expect: SpecExpect;
  /** Aborted when the test times out. */
  signal: AbortSignal;
  onTestFinished(fn: () => unknown): void;
}

export interface Hooks {
  beforeAll: HookFn[];
  afterAll: HookFn[];
  beforeEach: HookFn[];
  afterEach: HookFn[];
}

export interface SuiteNode {
  kind: 'suite';
  title: string;
  /** Tagged 'property' (PROPERTY_TAG), so every test in it is a property test. */
  property?: boolean;
  parent: SuiteNode | undefined;
  children: Array<SuiteNode | TestNode>;
  hooks: Hooks;
}

export interface TestNode {
  kind: 'test';
  title: string;
  fn: TestFn;
  suite: SuiteNode;
  /** A time limit the spec asked for, if any. */
  timeoutMs?: number;
  /** Tagged 'property' itself or through a suite: run after the example tests (test-executor.ts). */
  property?: boolean;
  /** The call stack at registration, to find the test's line in the spec. */
  registeredAt?: string;
}

/** Vitest's options: a time limit, and tags (only 'property' means anything here). */
export type TestOptions = { timeout?: number; tags?: string | string[] };
type TimeoutOption = number | TestOptions | undefined;
/** A row of an `.each` table is spread into the callback's arguments when it is an array. */
type RowArgs<Row> = Row extends readonly unknown[] ? Row : [Row];
type EachFn<Row, T> = (title: string, fn: (...args: RowArgs<Row>) => T, options?: TimeoutOption) => void;

export interface TestFunction {
  (title: string, fn: TestFn, options?: TimeoutOption): void;
  (title: string, options: TestOptions, fn: TestFn): void;
  each<Row>(table: readonly Row[]): EachFn<Row, unknown>;
}

export interface DescribeFunction {
  (title: string, fn: () => void): void;
  (title: string, options: TestOptions, fn: () => void): void;
  each<Row>(table: readonly Row[]): EachFn<Row, void>;
}

export interface SpecApi {
  describe: DescribeFunction;
  suite: DescribeFunction;
  it: TestFunction;
  test: TestFunction;
  beforeAll(fn: HookFn): void;
  afterAll(fn: HookFn): void;
  beforeEach(fn: HookFn): void;
  afterEach(fn: HookFn): void;
  expect: SpecExpect;
  vi: { fn: typeof fn; spyOn: typeof spyOn; isMockFunction: typeof isMockFunction; clearAllMocks: typeof clearAllMocks; resetAllMocks: typeof resetAllMocks; restoreAllMocks: typeof restoreAllMocks };
}

export interface SpecCollector {
  /** The module object `require('vitest')` returns. */
  api: SpecApi;
  root: SuiteNode;
  /** Tells the matchers which test is running (for `.resolves` / `.rejects`). */
  setCurrentTest(test: ExpectTestContext | undefined): void;
  /** Puts back every method this spec replaced with `vi.spyOn`. */
  restoreSpies(): void;
}

export function newSuite(title: string, parent: SuiteNode | undefined): SuiteNode {
  return { kind: 'suite', title, parent, children: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] } };
}

export function createSpecCollector(): SpecCollector {
  const root = newSuite('', undefined);
  let current = root;
  let collecting = true;
  let runningTest: ExpectTestContext | undefined;
  const expect = createExpect(() => runningTest);
  // Only this spec's spies are restored afterwards: @vitest/spy's restoreAllMocks is global, and
  // inside Vitest (the engine's own tests) that would reach the host's spies too.
  const spies: Array<{ mockRestore(): void }> = [];
  const trackedSpyOn = ((...args: unknown[]) => {
    const spy = (spyOn as (...a: unknown[]) => { mockRestore(): void })(...args);
    spies.push(spy);
    return spy;
  }) as unknown as typeof spyOn;

  function ensureCollecting(what: string): void {
    if (!collecting) throw new Error(`${what} must be called while the spec is loading, not inside a test or hook`);
  }

  function addTest(title: string, second: TestFn | TestOptions, third?: TimeoutOption | TestFn): void {
    ensureCollecting('it()/test()');
    // Vitest takes the options before the function or after it.
    const [testFn, options] = typeof second === 'function' ? [second, third as TimeoutOption] : [third as TestFn, second];
    if (typeof testFn !== 'function') throw new TypeError(`the test "${title}" has no function`);
    const timeoutMs = typeof options === 'number' ? options : options?.timeout;
    // The stack is read later (cheap to keep, costly to parse for tests that are never shown).
    const test: TestNode = { kind: 'test', title: String(title), fn: testFn, suite: current, registeredAt: new Error().stack };
    if (timeoutMs !== undefined) test.timeoutMs = timeoutMs;
    if (current.property === true || tagged(options)) test.property = true;
    current.children.push(test);
  }

  function addSuite(title: string, second: (() => void) | TestOptions, third?: () => void): void {
    ensureCollecting('describe()');
    const [body, options] = typeof second === 'function' ? [second, undefined] : [third as () => void, second];
    if (typeof body !== 'function') throw new TypeError(`describe("${title}") has no function`);
    const suite = newSuite(String(title), current);
    if (current.property === true || tagged(options)) suite.property = true;
    current.children.push(suite);
    const parent = current;
    current = suite;
    try {
      const returned = body() as unknown;
      if (returned instanceof Promise) throw new Error(`describe("${title}") must not be async: register tests synchronously`);
    } finally {
      current = parent;
    }
  }

  const rowArgs = <Row>(row: Row) => (Array.isArray(row) ? row : [row]) as unknown as RowArgs<Row>;
  const it = addTest as TestFunction;
  it.each = (table) => (title, testFn, options) => {
    table.forEach((row, index) => {
      const args = rowArgs(row);
      addTest(formatEachTitle(title, args, index), () => testFn(...args), options);
    });
  };
  const describe = addSuite as DescribeFunction;
  describe.each = (table) => (title, body) => {
    table.forEach((row, index) => {
      const args = rowArgs(row);
      addSuite(formatEachTitle(title, args, index), () => body(...args));
    });
  };

  const hook = (kind: keyof Hooks) => (hookFn: HookFn) => {
    ensureCollecting(kind);
    current.hooks[kind].push(hookFn);
  };

  const api: SpecApi = {
    describe,
    suite: describe,
    it,
    test: it,
    beforeAll: hook('beforeAll'),
    afterAll: hook('afterAll'),
    beforeEach: hook('beforeEach'),
    afterEach: hook('afterEach'),
    expect,
    vi: { fn, spyOn: trackedSpyOn, isMockFunction, clearAllMocks, resetAllMocks, restoreAllMocks },
  };

  return {
    api,
    root,
    setCurrentTest(test) {
      collecting = false;
      runningTest = test;
    },
    restoreSpies() {
      for (const spy of spies.splice(0).reverse()) spy.mockRestore();
    },
  };
}

function tagged(options: TimeoutOption): boolean {
  if (typeof options !== 'object' || options.tags === undefined) return false;
  return (typeof options.tags === 'string' ? [options.tags] : options.tags).includes(PROPERTY_TAG);
}

/** Vitest's `.each` titles: printf placeholders (%s %d %i %f %j %o %O), %# / %$ for the row's index, $name for object rows. */
export function formatEachTitle(title: string, args: readonly unknown[], index: number): string {
  let template = title.replace(/%%/g, '\u0000').replace(/%#/g, String(index)).replace(/%\$/g, String(index + 1));
  const first = args[0];
  if (first !== null && typeof first === 'object' && !Array.isArray(first)) {
    const row = first as Record<string, unknown>;
    template = template.replace(/\$([$\w.]+)/g, (_whole, path: string) =>
      objDisplay(path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), row)),
    );
  }
  const placeholders = (template.match(/%[sdifjoOc]/g) ?? []).length;
  return format(template, ...args.slice(0, placeholders)).replace(/\u0000/g, '%');
}
