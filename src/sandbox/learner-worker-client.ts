// The page's handle on the learner-code worker. The learner's code may loop forever; a worker
// that blocks cannot post its heartbeat, so silence for `hardLimitMs` means it is stuck and it is
// terminated (as the spec runner does). The page never waits on the worker synchronously.

import type { LearnerToPage, PageToLearner } from './learner-worker-messages.ts';
import { adaptWorker, type CallbackWorker } from './worker-adapter.ts';
import { HEARTBEAT_HARD_LIMIT_MS } from './heartbeat.ts';
import { startSandboxedWorker } from './sandboxed-worker.ts';
// The bundled worker's URL only (Vite bundles it as a worker): the page fetches its text for the frame.
import learnerWorkerUrl from './learner-worker.ts?worker&url';

/** The slice of a Worker used here, as callbacks so tests can fake it without DOM types. */
export type LearnerWorkerLike = CallbackWorker<PageToLearner>;

export interface LearnerWorkerOptions {
  /** Longest the worker may stay silent once it is running. Default 2000 ms. */
  hardLimitMs?: number;
  /** Longest a fresh worker may take to load. Default 20 s. */
  startTimeoutMs?: number;
}

export const LEARNER_HARD_LIMIT_MS = HEARTBEAT_HARD_LIMIT_MS;
const CHECK_EVERY_MS = 250;
/** The worker's messages to this handle itself (its life signs), never passed to listeners. */
const CONTROL_MESSAGES: ReadonlySet<string | undefined> = new Set(['ready', 'alive', 'preparing', 'prepared']);

export class LearnerWorkerHandle {
  private readonly worker: LearnerWorkerLike;
  private readonly listeners = new Set<(message: LearnerToPage) => void>();
  private readonly crashListeners = new Set<(reason: string) => void>();
  private lastHeard: number;
  private ready = false;
  /** Transpiling learner code ('preparing' … 'prepared'): the start limit holds, not the 2 s. */
  private preparing = false;
  private gone = false;
  private readonly watchdog: ReturnType<typeof setInterval>;
  private readonly hardLimitMs: number;
  private readonly startTimeoutMs: number;

  constructor(create: () => LearnerWorkerLike, options: LearnerWorkerOptions = {}) {
    this.hardLimitMs = options.hardLimitMs ?? LEARNER_HARD_LIMIT_MS;
    this.startTimeoutMs = options.startTimeoutMs ?? 20_000;
    this.lastHeard = Date.now();
    this.worker = create();
    this.worker.onMessage((data) => {
      if (this.gone) return;
      this.lastHeard = Date.now();
      const message = data as LearnerToPage;
      if (message?.type === 'ready') this.ready = true;
      if (message?.type === 'preparing') this.preparing = true;
      if (message?.type === 'prepared') this.preparing = false;
      if (CONTROL_MESSAGES.has(message?.type)) return;
      for (const listener of [...this.listeners]) listener(message);
    });
    this.worker.onError((message) => this.crash(`The worker running your code failed: ${message}`));
    this.watchdog = setInterval(() => {
      const silence = Date.now() - this.lastHeard;
      const limitMs = !this.ready || this.preparing ? this.startTimeoutMs : this.hardLimitMs;
      if (silence <= limitMs) return;
      if (!this.ready) this.crash(`The worker for your code did not start within ${Math.round(this.startTimeoutMs / 1000)} s.`);
      else if (this.preparing) this.crash(`The worker took more than ${Math.round(this.startTimeoutMs / 1000)} s to prepare your code.`);
      else this.crash(stuckMessage(this.hardLimitMs));
    }, CHECK_EVERY_MS);
  }

  get alive(): boolean {
    return !this.gone;
  }

  post(message: PageToLearner): void {
    if (!this.gone) this.worker.postMessage(message);
  }

  onMessage(listener: (message: LearnerToPage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The worker is gone (stuck, failed): `reason` is a sentence for the learner. */
  onCrash(listener: (reason: string) => void): () => void {
    this.crashListeners.add(listener);
    return () => this.crashListeners.delete(listener);
  }

  dispose(): void {
    if (this.gone) return;
    this.gone = true;
    clearInterval(this.watchdog);
    this.worker.terminate();
    this.listeners.clear();
    this.crashListeners.clear();
  }

  private crash(reason: string): void {
    if (this.gone) return;
    const listeners = [...this.crashListeners];
    this.dispose();
    for (const listener of listeners) listener(reason);
  }
}

export function stuckMessage(limitMs: number): string {
  return `Your code ran for more than ${Number((limitMs / 1000).toFixed(1))} s without pausing, so it was stopped. Look for a loop that never ends.`;
}

/** ./learner-worker.ts in the learner-code sandbox frame (an opaque origin: sandboxed-worker.ts). */
export function createBrowserLearnerWorker(): LearnerWorkerLike {
  return startSandboxedWorker(learnerWorkerUrl, 'learner-code');
}
