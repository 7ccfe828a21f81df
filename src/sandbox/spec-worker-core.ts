// The spec worker's logic, apart from the Worker itself so Node tests can drive it: it answers
// 'ready' once loaded, runs one spec per 'run' message, streams each test result, and while a run
// is going posts a heartbeat. The page stops the worker when heartbeats stop (spec-runner.ts): a
// synchronous infinite loop blocks the worker's timers, so silence is the sign of one.

import type { ProtocolModules } from './protocol-modules.ts';
import { runSpec } from './run-spec.ts';
import type { RunResult, SpecRunRequest, TestResult } from './spec-results.ts';

export type PageToSpecWorker = { type: 'run'; runId: number; request: SpecRunRequest };

export type SpecWorkerToPage =
  | { type: 'ready' }
  | { type: 'alive'; runId: number }
  /** The run's setup is over: learner code runs from here on, under the 2 s silence rule. */
  | { type: 'started'; runId: number }
  | { type: 'test'; runId: number; result: TestResult }
  /** Every example test has been sent; `properties` property tests follow. */
  | { type: 'examples'; runId: number; properties: number }
  | { type: 'done'; runId: number; result: RunResult };

export const HEARTBEAT_INTERVAL_MS = 200;

export interface SpecWorkerCoreDeps {
  post(message: SpecWorkerToPage): void;
  protocolModules: ProtocolModules;
  heartbeatMs?: number;
}

export interface SpecWorkerCore {
  handle(data: unknown): void;
  /** An error nobody caught (the worker's 'error' / 'unhandledrejection' events). */
  reportUncaught(error: unknown): void;
}

export function createSpecWorkerCore(deps: SpecWorkerCoreDeps): SpecWorkerCore {
  const heartbeatMs = deps.heartbeatMs ?? HEARTBEAT_INTERVAL_MS;
  // Captured before any learner code runs in this worker.
  const setIntervalReal = globalThis.setInterval;
  const clearIntervalReal = globalThis.clearInterval;
  let queue: Promise<void> = Promise.resolve();
  const uncaughtListeners = new Set<(error: unknown) => void>();

  async function run(runId: number, request: SpecRunRequest): Promise<void> {
    const heartbeat = setIntervalReal(() => deps.post({ type: 'alive', runId }), heartbeatMs);
    try {
      const result = await runSpec({
        ...request,
        protocolModules: deps.protocolModules,
        onLearnerCodeStarts: () => deps.post({ type: 'started', runId }),
        onTestResult: (result) => deps.post({ type: 'test', runId, result }),
        onExamplesDone: (properties) => deps.post({ type: 'examples', runId, properties }),
        subscribeUncaught: (listener) => {
          uncaughtListeners.add(listener);
          return () => uncaughtListeners.delete(listener);
        },
      });
      deps.post({ type: 'done', runId, result });
    } finally {
      clearIntervalReal(heartbeat);
    }
  }

  deps.post({ type: 'ready' });
  return {
    handle(data) {
      if (!isRunMessage(data)) return;
      queue = queue.then(() => run(data.runId, data.request));
    },
    reportUncaught(error) {
      // Between runs there is no one to tell: a stray callback of an earlier run is dropped.
      for (const listener of uncaughtListeners) listener(error);
    },
  };
}

function isRunMessage(data: unknown): data is PageToSpecWorker {
  if (typeof data !== 'object' || data === null) return false;
  const message = data as Partial<PageToSpecWorker>;
  return message.type === 'run' && typeof message.runId === 'number' && typeof message.request?.specSource === 'string' && typeof message.request.learnerSource === 'string';
}
