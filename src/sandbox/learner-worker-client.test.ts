import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LearnerWorkerHandle, type LearnerWorkerLike } from './learner-worker-client.ts';
import type { LearnerToPage } from './learner-worker-messages.ts';

/** A worker whose messages the test sends by hand, on the fake clock. */
function fakeWorker() {
  let listener: ((data: unknown) => void) | undefined;
  const worker: LearnerWorkerLike & { terminated: boolean } = {
    terminated: false,
    postMessage() {},
    onMessage: (next) => (listener = next),
    onError() {},
    terminate() {
      worker.terminated = true;
    },
  };
  return { worker, send: (message: LearnerToPage) => listener?.(message) };
}

describe('LearnerWorkerHandle, the 2 s rule', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('holds the 2 s rule off while the worker transpiles (a slow machine), and applies it after', async () => {
    const { worker, send } = fakeWorker();
    const handle = new LearnerWorkerHandle(() => worker);
    const crashes: string[] = [];
    handle.onCrash((reason) => crashes.push(reason));
    send({ type: 'ready' });
    send({ type: 'preparing' });
    await vi.advanceTimersByTimeAsync(3_000); // transpiling for 3 s, silent
    expect(crashes).toEqual([]);
    expect(worker.terminated).toBe(false);
    send({ type: 'prepared' }); // then learner code loops forever: silence
    await vi.advanceTimersByTimeAsync(2_000);
    expect(crashes).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toMatch(/^Your code ran for more than 2 s without pausing/);
    expect(worker.terminated).toBe(true);
  });

  it('stops a preparation that never ends at the start limit', async () => {
    const { worker, send } = fakeWorker();
    const handle = new LearnerWorkerHandle(() => worker, { startTimeoutMs: 5_000 });
    const crashes: string[] = [];
    handle.onCrash((reason) => crashes.push(reason));
    send({ type: 'ready' });
    send({ type: 'preparing' });
    await vi.advanceTimersByTimeAsync(4_750);
    expect(crashes).toEqual([]);
    await vi.advanceTimersByTimeAsync(500);
    expect(crashes).toEqual(['The worker took more than 5 s to prepare your code.']);
  });
});
