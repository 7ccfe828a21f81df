// `expect` built from the same parts Vitest builds its own from: chai plus @vitest/expect's
// plugins. A spec therefore gets Vitest's matchers and Vitest's failure messages in the browser,
// not look-alikes. (@vitest/expect 4.x exports no ready-made `expect`; see Vitest's createExpect.)

import {
  ASYMMETRIC_MATCHERS_OBJECT,
  ChaiStyleAssertions,
  chai,
  customMatchers,
  getState,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  setState,
  type ExpectStatic,
  type MatchersObject,
} from '@vitest/expect';

export interface SpecExpect extends ExpectStatic {
  /** The test fails unless exactly `count` assertions ran (`expect` calls, as in Vitest). */
  assertions(count: number): void;
  /** The test fails unless at least one assertion ran. */
  hasAssertions(): void;
  unreachable(message?: string): never;
  /** Accepted for compatibility; fails at once like a plain `expect`. */
  soft: ExpectStatic;
}

/** What a test in progress exposes to the matchers (`.resolves`/`.rejects` record promises here). */
export interface ExpectTestContext {
  promises?: Promise<unknown>[];
  onFinished?: Array<() => void>;
}

let pluginsInstalled = false;

function installPlugins(): void {
  if (pluginsInstalled) return;
  // The order Vitest uses; chai.use skips a plugin it has seen, so this is safe inside Vitest too.
  chai.use(JestExtend);
  chai.use(JestChaiExpect);
  chai.use(ChaiStyleAssertions);
  chai.use(JestAsymmetricMatchers);
  pluginsInstalled = true;
}

/** A fresh `expect` whose assertions are attributed to `currentTest()`. */
export function createExpect(currentTest: () => ExpectTestContext | undefined): SpecExpect {
  installPlugins();
  const expect = ((value: unknown, message?: string) => {
    const { assertionCalls } = getState(expect);
    setState({ assertionCalls: assertionCalls + 1 }, expect);
    const assertion = chai.expect(value, message);
    const test = currentTest();
    // What Vitest's `assertion.withTest(test)` does: lets `.resolves` find the running test.
    if (test) chai.util.flag(assertion, 'vitest-test', test);
    return assertion;
  }) as unknown as SpecExpect;
  Object.assign(expect, chai.expect);
  Object.assign(expect, (globalThis as Record<PropertyKey, unknown>)[ASYMMETRIC_MATCHERS_OBJECT]);
  expect.getState = () => getState(expect);
  expect.setState = (state) => setState(state, expect);
  resetExpectState(expect, '');
  expect.extend = (matchers: MatchersObject) => (chai.expect as unknown as { extend(e: unknown, m: unknown): void }).extend(expect, matchers);
  expect.soft = expect;
  expect.unreachable = (message?: string): never => {
    chai.assert.fail(`expected${message ? ` "${message}" ` : ' '}not to be reached`);
    throw new Error('unreachable'); // chai.assert.fail always throws; this satisfies the type
  };
  chai.util.addMethod(expect, 'assertions', (expected: number) => {
    const errorGen = () => new Error(`expected number of assertions to be ${expected}, but got ${expect.getState().assertionCalls}`);
    expect.setState({ expectedAssertionsNumber: expected, expectedAssertionsNumberErrorGen: errorGen });
  });
  chai.util.addMethod(expect, 'hasAssertions', () => {
    expect.setState({ isExpectingAssertions: true, isExpectingAssertionsError: new Error('expected any number of assertion, but got none') });
  });
  expect.extend(customMatchers);
  return expect;
}

/** Called before each test: counts and `expect.assertions` expectations start again. */
export function resetExpectState(expect: ExpectStatic, testName: string): void {
  setState(
    {
      assertionCalls: 0,
      isExpectingAssertions: false,
      isExpectingAssertionsError: null,
      expectedAssertionsNumber: null,
      expectedAssertionsNumberErrorGen: null,
      currentTestName: testName,
    },
    expect,
  );
}

/** The error `expect.assertions` / `expect.hasAssertions` asks for after a test, if any. */
export function assertionCountError(expect: ExpectStatic): Error | undefined {
  const state = getState(expect);
  if (state.expectedAssertionsNumber != null && state.assertionCalls !== state.expectedAssertionsNumber) {
    return state.expectedAssertionsNumberErrorGen?.() ?? new Error('wrong number of assertions');
  }
  if (state.isExpectingAssertions && state.assertionCalls === 0) {
    return state.isExpectingAssertionsError ?? new Error('expected any number of assertion, but got none');
  }
  return undefined;
}
