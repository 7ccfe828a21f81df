// One run: transpile the learner's file and the spec, load them with the reference modules,
// collect the spec's tests and run them. Never throws: whatever goes wrong becomes a RunResult
// ('error' when nothing could run), so the worker always has an answer to post.
//
// A synchronous infinite loop cannot be stopped from inside; that is spec-runner.ts's job, from the
// page, by terminating the worker.

import * as fastCheck from 'fast-check';
import { createModuleLoader, type SourceModule } from './module-loader.ts';
import { protocolIdOfPath, type ProtocolModules } from './protocol-modules.ts';
import { innermostOf, sourceUrlFor } from './source-location.ts';
import { createSpecCollector, type TestNode } from './spec-api.ts';
import { runSuiteTree } from './test-executor.ts';
import { findTestCalls, testCallAt, type TestCall } from './test-code.ts';
import { createTimerScope } from './timer-scope.ts';
import { transpile, type TranspileResult } from './transpile.ts';
import type { RunError, RunResult, SpecRunRequest, TestResult } from './spec-results.ts';
import { hiddenGlobals } from './hidden-globals.ts';

export interface RunSpecOptions extends SpecRunRequest {
  /** '@protocol/<path>' → module exports (protocol-modules.ts). */
  protocolModules: ProtocolModules;
  /**
   * What a spec's '@reference/<path>' (its oracle) resolves through; `protocolModules` when not
   * given. The mutant proof passes the unpatched modules here.
   */
  referenceModules?: ProtocolModules;
  /**
   * Called once the files are transpiled, just before the first line of learner or spec code runs.
   * The 2 s silence rule starts here: the setup before it (sucrase on a cold worker, on a slow
   * machine) can take longer than 2 s without any learner code running.
   */
  onLearnerCodeStarts?(): void;
  /** Called as each test finishes, in run order (examples first), before the whole result is ready. */
  onTestResult?(result: TestResult): void;
  /** Every example test has run; `properties` property tests follow (test-executor.ts). */
  onExamplesDone?(properties: number): void;
  /**
   * Lets the environment report errors nobody caught (the worker's 'error' and
   * 'unhandledrejection' events) during the run; returns how to stop listening.
   */
  subscribeUncaught?(listener: (error: unknown) => void): () => void;
}

export const SPEC_FILE_NAME = 'spec.ts';

// An exercise's spec is the same on every run: its transpiled code and where its tests are, kept
// for the last few specs (seven exercises), so a run transpiles only the learner's file. About
// 8–12 ms of every Run → results on exercise 3's 37 KB spec (sucrase, then finding its tests).
interface PreparedSpec {
  code: TranspileResult;
  calls?: TestCall[];
}
const preparedSpecs = new Map<string, PreparedSpec>();
const PREPARED_SPECS_KEPT = 8;

function preparedSpec(source: string): PreparedSpec {
  let prepared = preparedSpecs.get(source);
  if (prepared === undefined) {
    prepared = { code: transpile(source, SPEC_FILE_NAME) };
    preparedSpecs.set(source, prepared);
    // A Map keeps insertion order: the first key is the oldest.
    if (preparedSpecs.size > PREPARED_SPECS_KEPT) preparedSpecs.delete(preparedSpecs.keys().next().value as string);
  }
  return prepared;
}


const now = () => (typeof performance !== 'undefined' ? performance.now() : Date.now());

export async function runSpec(options: RunSpecOptions): Promise<RunResult> {
  const started = now();
  const finish = (result: Omit<RunResult, 'durationMs'>): RunResult => ({ ...result, durationMs: Math.round((now() - started) * 10) / 10 });
  const learnerFile = options.learnerFile ?? 'learner.ts';

  const learnerCode = transpile(options.learnerSource, learnerFile);
  if (!learnerCode.ok) {
    const { message, line, column } = learnerCode.error;
    const where = line === undefined ? '' : ` on line ${line}${column === undefined ? '' : `, column ${column}`}`;
    return finish({ status: 'error', message: `${learnerFile} has a syntax error${where}: ${message}`, error: { ...learnerCode.error, source: 'learner' }, tests: [] });
  }
  const prepared = preparedSpec(options.specSource);
  const specCode = prepared.code;
  if (!specCode.ok) {
    return finish({ status: 'error', message: `The spec has a syntax error: ${specCode.error.message}`, error: { ...specCode.error, source: 'spec' }, tests: [] });
  }

  const learner: SourceModule = { code: learnerCode.code, url: sourceUrlFor(`learner/${learnerFile}`), displayName: learnerFile, guardExports: true };
  const learnerLocation = options.learnerModuleId ?? protocolIdOfPath(`src/protocol/${learnerFile}`);
  if (learnerLocation) learner.location = learnerLocation;
  const spec: SourceModule = { code: specCode.code, url: sourceUrlFor(`spec/${SPEC_FILE_NAME}`), displayName: SPEC_FILE_NAME };

  const collector = createSpecCollector();
  const uncaught: unknown[] = [];
  const timers = createTimerScope((error) => uncaught.push(error));
  const unsubscribe = options.subscribeUncaught?.((error) => uncaught.push(error));
  const hidden = hiddenGlobals();
  const loader = createModuleLoader({
    // fast-check for the specs' properties: the same library they import under Vitest in Node.
    builtins: { vitest: collector.api, 'fast-check': fastCheck },
    sources: { '@learner': learner },
    protocolModules: options.protocolModules,
    ...(options.referenceModules ? { referenceModules: options.referenceModules } : {}),
    shadowedGlobals: { ...hidden, ...timers.timers },
  });

  try {
    options.onLearnerCodeStarts?.();
    try {
      loader.run(spec);
    } catch (error) {
      return finish(loadFailure(error));
    }
    if (countTests(collector.root) === 0) {
      return finish({ status: 'error', message: 'The spec defines no tests.', error: { message: 'The spec defines no tests.', source: 'spec' }, tests: [] });
    }

    const locateTest = (test: TestNode) => {
      const line = loader.lineIn(test.registeredAt, spec);
      const calls = (prepared.calls ??= findTestCalls(options.specSource));
      const call = line === undefined ? undefined : testCallAt(calls, line);
      if (call) return { code: call.code, line: call.startLine };
      return line === undefined ? { code: String(test.fn) } : { code: String(test.fn), line };
    };
    const tests = await runSuiteTree(collector.root, {
      expect: collector.api.expect,
      setCurrentTest: collector.setCurrentTest,
      testTimeoutMs: options.testTimeoutMs,
      steps: options.steps,
      locateTest,
      learnerLineOf: (error) => (error instanceof Error ? loader.lineIn(error.stack, learner) : undefined),
      onResult: options.onTestResult,
      onExamplesDone: options.onExamplesDone,
      takeUncaughtErrors: () => uncaught.splice(0),
    });
    const status = tests.every((test) => test.status === 'pass') ? 'pass' : 'fail';
    return finish({ status, tests });
  } catch (error) {
    // The executor catches what tests throw; reaching here is a bug in the engine, still reported.
    return finish({ status: 'error', message: `The test run failed: ${messageOf(error)}`, error: { message: messageOf(error), source: 'spec' }, tests: [] });
  } finally {
    timers.dispose();
    collector.restoreSpies();
    unsubscribe?.();
  }

  function loadFailure(error: unknown): Omit<RunResult, 'durationMs'> {
    const stack = error instanceof Error ? error.stack : undefined;
    const inLearner = loader.failedModule === learner || innermostOf(stack, [learner.url, spec.url]) === learner.url;
    const message = messageOf(error);
    if (inLearner) {
      const line = loader.lineIn(stack, learner);
      const runError: RunError = { message, source: 'learner' };
      if (line !== undefined) runError.line = line;
      const where = line === undefined ? '' : `, line ${line}`;
      return { status: 'error', message: `${learnerFile}${where}: ${message} (while loading, before any test ran)`, error: runError, tests: [] };
    }
    const line = loader.lineIn(stack, spec);
    const runError: RunError = { message, source: 'spec' };
    if (line !== undefined) runError.line = line;
    return { status: 'error', message: `The spec could not be loaded: ${message}`, error: runError, tests: [] };
  }
}

function countTests(suite: { children: Array<{ kind: string; children?: unknown }> }): number {
  let count = 0;
  for (const child of suite.children) {
    count += child.kind === 'test' ? 1 : countTests(child as typeof suite);
  }
  return count;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}
