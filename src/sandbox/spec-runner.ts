// The page's side of running specs. One warm worker is kept ready (a cold one takes ~0.8 s to load
// chai, sucrase and the reference modules); runs go to it one at a time. While a run is going the
// worker posts a heartbeat; when it falls silent for `hardLimitMs` (a `while (true) {}` blocks its
// timers) the page terminates it, answers with an 'error' result, and starts a fresh warm worker.
// The page never waits on the worker synchronously, so it never freezes.

import type { PageToSpecWorker, SpecWorkerToPage } from './spec-worker-core.ts';
import type { RunResult, SpecRunRequest, TestResult } from './spec-results.ts';
import { HEARTBEAT_HARD_LIMIT_MS } from './heartbeat.ts';
import { startSandboxedWorker } from './sandboxed-worker.ts';
// The bundled worker's URL only (Vite bundles it as a worker): the page fetches its text for the frame.
import specWorkerUrl from './spec-worker.ts?worker&url';

/** The slice of a Worker used here, as callbacks so tests can fake it without DOM types. */
export interface SpecWorkerLike {
  postMessage(message: PageToSpecWorker): void;
  onMessage(listener: (data: unknown) => void): void;
  /** The worker failed: its module did not load, or it threw outside a run. */
  onError(listener: (message: string) => void): void;
  terminate(): void;
}

export interface SpecRunnerOptions {
  /** Default: a module Worker running ./spec-worker.ts. */
  createWorker?: () => SpecWorkerLike;
  /** Longest a run may go without a sign of life from the worker. Default 2000 ms. */
  hardLimitMs?: number;
  /** Longest a fresh worker may take to load. Default 20 s (slow machines, first visit). */
  startTimeoutMs?: number;
  /** Longest a whole run may take, however alive the worker looks. Default 60 s. */
  maxRunMs?: number;
}

export interface RunOptions {
  /** Each test's result as it finishes, before the run's (the examples first, then the properties). */
  onTest?(result: TestResult): void;
  /** Every example test has finished; `properties` property tests are still to come. */
  onExamplesDone?(properties: number): void;
  testTimeoutMs?: number;
}

export type SpecRunnerStatus = 'idle' | 'starting' | 'running' | 'disposed';

export const DEFAULT_HARD_LIMIT_MS = HEARTBEAT_HARD_LIMIT_MS;
export const DEFAULT_START_TIMEOUT_MS = 20_000;
export const DEFAULT_MAX_RUN_MS = 60_000;

interface WarmWorker {
  worker: SpecWorkerLike;
  ready: Promise<void>;
  /** Where the current run wants its messages; undefined between runs. */
  onMessage?: (message: SpecWorkerToPage) => void;
  onFailure?: (message: string) => void;
}

export class SpecRunner {
  private readonly createWorker: () => SpecWorkerLike;
  private readonly hardLimitMs: number;
  private readonly startTimeoutMs: number;
  private readonly maxRunMs: number;
  private warm: WarmWorker | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextRunId = 1;
  private currentStatus: SpecRunnerStatus = 'idle';
  /** Ends the run in progress at once, if any. */
  private cancelCurrent: ((message: string) => void) | undefined;

  constructor(options: SpecRunnerOptions = {}) {
    this.createWorker = options.createWorker ?? createBrowserSpecWorker;
    this.hardLimitMs = options.hardLimitMs ?? DEFAULT_HARD_LIMIT_MS;
    this.startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
    this.maxRunMs = options.maxRunMs ?? DEFAULT_MAX_RUN_MS;
  }

  get status(): SpecRunnerStatus {
    return this.currentStatus;
  }

  /** Starts loading a worker now, so the first run does not wait for it. */
  warmUp(): void {
    if (this.currentStatus !== 'disposed') this.workerSlot();
  }

  /** Runs a spec against the learner's code. Never rejects. */
  runRequest(request: SpecRunRequest, options: RunOptions = {}): Promise<RunResult> {
    const full = options.testTimeoutMs === undefined ? request : { ...request, testTimeoutMs: options.testTimeoutMs };
    const result = this.queue.then(() => this.runNow(full, options));
    this.queue = result;
    return result;
  }

  /** Terminates the worker; a run in progress answers 'error' at once. */
  dispose(): void {
    this.currentStatus = 'disposed';
    this.warm?.worker.terminate();
    this.warm = undefined;
    this.cancelCurrent?.('The test runner was closed.');
  }

  private workerSlot(): WarmWorker {
    if (this.warm) return this.warm;
    let markReady!: () => void;
    let markFailed!: (error: Error) => void;
    const ready = new Promise<void>((resolve, reject) => {
      markReady = resolve;
      markFailed = reject;
    });
    ready.catch(() => undefined); // observed by the run that awaits it, if any
    const slot: WarmWorker = { worker: undefined as unknown as SpecWorkerLike, ready };
    try {
      slot.worker = this.createWorker();
    } catch (error) {
      markFailed(new Error(`the test runner could not be created: ${error instanceof Error ? error.message : String(error)}`));
      slot.worker = { postMessage() {}, onMessage() {}, onError() {}, terminate() {} };
      return slot; // not kept: the next run tries again
    }
    let wasReady = false;
    slot.worker.onMessage((data) => {
      const message = data as SpecWorkerToPage;
      if (message?.type === 'ready') {
        wasReady = true;
        markReady();
      } else slot.onMessage?.(message);
    });
    slot.worker.onError((message) => {
      markFailed(new Error(message));
      slot.onFailure?.(message);
      // One that never loaded is not replaced at once: the next would likely fail the same way,
      // in a loop. The next run tries again.
      if (wasReady) this.replace(slot);
      else this.discard(slot);
    });
    this.warm = slot;
    return slot;
  }

  private discard(slot: WarmWorker): void {
    slot.worker.terminate();
    if (this.warm === slot) this.warm = undefined;
  }

  /** Throws a worker away and starts loading the next one, so the next run finds it warm. */
  private replace(slot: WarmWorker): void {
    this.discard(slot);
    if (this.currentStatus !== 'disposed') this.workerSlot();
  }

  private async runNow(request: SpecRunRequest, listeners: Pick<RunOptions, 'onTest' | 'onExamplesDone'>): Promise<RunResult> {
    if (this.currentStatus === 'disposed') return errorResult('The test runner was closed.', []);
    const started = Date.now();
    const slot = this.workerSlot();
    this.currentStatus = 'starting';
    try {
      const ready = await settleWithin(slot.ready, this.startTimeoutMs);
      if (ready !== 'ok') {
        this.discard(slot);
        const why = ready === 'timeout' ? `it did not start within ${Math.round(this.startTimeoutMs / 1000)} s` : ready.message;
        return errorResult(`The test runner could not start: ${why}. Reload the page to try again.`, [], started);
      }
      this.currentStatus = 'running';
      return await this.exchange(slot, request, listeners, started);
    } finally {
      // dispose() may have run meanwhile
      if (this.status !== 'disposed') this.currentStatus = 'idle';
    }
  }

  private exchange(slot: WarmWorker, request: SpecRunRequest, listeners: Pick<RunOptions, 'onTest' | 'onExamplesDone'>, started: number): Promise<RunResult> {
    const runId = this.nextRunId++;
    const tests: TestResult[] = [];
    return new Promise<RunResult>((resolve) => {
      let silence: ReturnType<typeof setTimeout> | undefined;
      const finish = (result: RunResult) => {
        clearTimeout(silence);
        clearTimeout(overall);
        slot.onMessage = undefined;
        slot.onFailure = undefined;
        this.cancelCurrent = undefined;
        resolve(result);
      };
      const stop = (message: string) => {
        this.replace(slot);
        finish(errorResult(message, tests, started));
      };
      // The silence rule starts when learner code does ('started'): until then the worker is
      // transpiling, which no learner code can make endless, and which a slow machine may take
      // longer than 2 s over; the setup gets the start limit instead.
      let learnerCodeRuns = false;
      const armSilence = () => {
        clearTimeout(silence);
        silence = learnerCodeRuns
          ? setTimeout(() => stop(tooLongMessage(this.hardLimitMs)), this.hardLimitMs)
          : setTimeout(() => stop(`The test runner took more than ${Math.round(this.startTimeoutMs / 1000)} s to prepare your code, so it was stopped. Reload the page to try again.`), this.startTimeoutMs);
      };
      const overall = setTimeout(() => stop(`The tests took more than ${Math.round(this.maxRunMs / 1000)} s in all, so they were stopped.`), this.maxRunMs);

      slot.onMessage = (message) => {
        if (!message || !('runId' in message) || message.runId !== runId) return;
        if (message.type === 'started') learnerCodeRuns = true;
        armSilence();
        if (message.type === 'test') {
          tests.push(message.result);
          try {
            listeners.onTest?.(message.result);
          } catch {
            // a listener's failure must not lose the run's result
          }
        } else if (message.type === 'examples') {
          try {
            listeners.onExamplesDone?.(message.properties);
          } catch {
            // as above
          }
        } else if (message.type === 'done') {
          finish(message.result);
        }
      };
      slot.onFailure = (message) => finish(errorResult(`The test runner failed: ${message}`, tests, started));
      this.cancelCurrent = (message) => finish(errorResult(message, tests, started));
      armSilence();
      slot.worker.postMessage({ type: 'run', runId, request });
    });
  }
}

function tooLongMessage(limitMs: number): string {
  const seconds = Number((limitMs / 1000).toFixed(1));
  return `Your code ran for more than ${seconds} s without pausing, so it was stopped. Look for a loop that never ends, such as while (true) { … } with no way out, or a loop whose condition never changes.`;
}

function errorResult(message: string, tests: TestResult[], started?: number): RunResult {
  return { status: 'error', message, error: { message, source: 'learner' }, tests: [...tests], durationMs: started === undefined ? 0 : Date.now() - started };
}

async function settleWithin(promise: Promise<void>, ms: number): Promise<'ok' | 'timeout' | Error> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([promise.then(() => 'ok' as const), timeout]);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    clearTimeout(timer);
  }
}

/** ./spec-worker.ts in the learner-code sandbox frame (an opaque origin: sandboxed-worker.ts). */
export function createBrowserSpecWorker(): SpecWorkerLike {
  return startSandboxedWorker<PageToSpecWorker>(specWorkerUrl, 'spec-runner');
}
