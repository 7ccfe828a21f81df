import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { protocolModulesFromGlob } from './protocol-modules.ts';
import { createSpecWorkerCore, type PageToSpecWorker, type SpecWorkerToPage } from './spec-worker-core.ts';
import { requestFor } from '../exercise/exercise-runner.ts';
import { SpecRunner, type SpecWorkerLike } from './spec-runner.ts';
import type { Exercise } from '../exercise/types.ts';
import type { RunResult, TestResult } from './spec-results.ts';

const FIXTURE = new URL('../../tests/exercise-engine/fixtures/exercises/01-ping/', import.meta.url);
const read = (file: string) => readFileSync(new URL(file, FIXTURE), 'utf8');
const exercise: Exercise = { meta: JSON.parse(read('meta.json')), content: {}, starter: read('starter.ts'), spec: read('spec.ts'), hints: {} };
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../protocol/**/*.ts', '!../protocol/**/*.test.ts', '!../protocol/inspect/**'], { eager: true }));

/** A fake Worker: messages cross asynchronously and cloned, as they do between threads. */
class FakeWorker implements SpecWorkerLike {
  readonly posted: PageToSpecWorker[] = [];
  terminated = false;
  private readonly messageListeners: Array<(data: unknown) => void> = [];
  private readonly errorListeners: Array<(message: string) => void> = [];

  constructor(private readonly onPost: (message: PageToSpecWorker, worker: FakeWorker) => void = () => {}) {}

  emit(data: SpecWorkerToPage): void {
    const copy = structuredClone(data);
    setTimeout(() => {
      if (!this.terminated) for (const listener of this.messageListeners) listener(copy);
    }, 0);
  }

  fail(message: string): void {
    for (const listener of this.errorListeners) listener(message);
  }

  postMessage(message: PageToSpecWorker): void {
    this.posted.push(message);
    this.onPost(structuredClone(message), this);
  }
  onMessage(listener: (data: unknown) => void): void {
    this.messageListeners.push(listener);
  }
  onError(listener: (message: string) => void): void {
    this.errorListeners.push(listener);
  }
  terminate(): void {
    this.terminated = true;
  }
}

/**
 * Ready at once; with each run it says the learner code started (as the real worker does once the
 * files are transpiled), unless `started` is false, then does whatever `onRun` says.
 */
function fakeFactory(onRun: (message: PageToSpecWorker, worker: FakeWorker) => void = () => {}, { ready = true, started = true } = {}) {
  const workers: FakeWorker[] = [];
  const createWorker = () => {
    const worker = new FakeWorker((message, self) => {
      if (started) self.emit({ type: 'started', runId: message.runId });
      onRun(message, self);
    });
    if (ready) worker.emit({ type: 'ready' });
    workers.push(worker);
    return worker;
  };
  return { workers, createWorker };
}

/** A worker whose far side is the real worker core, in this thread. */
function inProcessFactory() {
  const workers: FakeWorker[] = [];
  const createWorker = () => {
    const worker = new FakeWorker((message) => setTimeout(() => core.handle(message), 0));
    const core = createSpecWorkerCore({ post: (message) => worker.emit(message), protocolModules, heartbeatMs: 20 });
    workers.push(worker);
    return worker;
  };
  return { workers, createWorker };
}

const done = (runId: number, result: Partial<RunResult> = {}): SpecWorkerToPage => ({ type: 'done', runId, result: { status: 'pass', tests: [], durationMs: 1, ...result } });

describe('SpecRunner', () => {
  it('runs a spec in the worker and streams its tests, reusing one warm worker', async () => {
    const { workers, createWorker } = inProcessFactory();
    const runner = new SpecRunner({ createWorker });
    runner.warmUp();
    const streamed: TestResult[] = [];
    const passed = await runner.runRequest(requestFor(exercise, read('solution.ts')), { onTest: (test) => streamed.push(test) });
    expect(passed.status).toBe('pass');
    expect(streamed.map((test) => test.name)).toEqual(passed.tests.map((test) => test.name));
    const failed = await runner.runRequest(requestFor(exercise, exercise.starter));
    expect(failed.status).toBe('fail');
    expect(workers).toHaveLength(1);
    expect(runner.status).toBe('idle');
    runner.dispose();
    expect(workers[0]?.terminated).toBe(true);
  });

  it('stops a worker that falls silent (an infinite loop), answers with an error, and warms a fresh one', async () => {
    const { workers, createWorker } = fakeFactory(); // never answers a run, like a worker stuck in while (true) {}
    const runner = new SpecRunner({ createWorker, hardLimitMs: 100 });
    // On a fake clock: silent for 99 ms after 'started' is still running; at 100 ms it is
    // stopped, at once ('started' itself crosses as a message, a tick after the run is posted).
    vi.useFakeTimers();
    let answered: RunResult | undefined;
    try {
      void runner.runRequest(requestFor(exercise, 'while (true) {}')).then((result) => (answered = result));
      await vi.advanceTimersByTimeAsync(99);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(2);
    } finally {
      vi.useRealTimers();
    }
    const result = answered as RunResult;
    expect(result.status).toBe('error');
    expect(result.message).toMatch(/^Your code ran for more than 0\.1 s without pausing, so it was stopped\./);
    expect(result.tests).toEqual([]);
    expect(workers[0]?.terminated).toBe(true);
    expect(workers).toHaveLength(2); // the replacement is already loading
    expect(workers[1]?.terminated).toBe(false);
  });

  it('says "2 s" with the default limit', async () => {
    const { createWorker } = fakeFactory();
    const runner = new SpecRunner({ createWorker });
    vi.useFakeTimers();
    let answered: RunResult | undefined;
    try {
      void runner.runRequest(requestFor(exercise, 'while (true) {}')).then((result) => (answered = result));
      await vi.advanceTimersByTimeAsync(2_001);
    } finally {
      vi.useRealTimers();
    }
    expect(answered?.message).toMatch(/^Your code ran for more than 2 s/);
    runner.dispose();
  });

  it('starts the 2 s rule when the learner code starts: a setup slower than 2 s is not stopped, silence after it is', async () => {
    // The worker is busy transpiling for 3 s (a slow machine), silent all the while, then says
    // the learner code started and falls silent for good (an endless loop).
    let worker: FakeWorker | undefined;
    const { createWorker } = fakeFactory(
      (message, self) => {
        worker = self;
        setTimeout(() => self.emit({ type: 'started', runId: message.runId }), 3_000);
      },
      { started: false },
    );
    const runner = new SpecRunner({ createWorker });
    vi.useFakeTimers();
    let answered: RunResult | undefined;
    try {
      void runner.runRequest(requestFor(exercise, 'while (true) {}')).then((result) => (answered = result));
      await vi.advanceTimersByTimeAsync(3_000);
      expect(answered).toBeUndefined(); // 3 s of setup: no false alarm
      expect(worker?.terminated).toBe(false);
      await vi.advanceTimersByTimeAsync(1_999);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(2);
    } finally {
      vi.useRealTimers();
    }
    expect(answered?.message).toMatch(/^Your code ran for more than 2 s/);
    expect(worker?.terminated).toBe(true);
    runner.dispose();
  });

  it('stops a setup that never ends at the start limit, with its own message', async () => {
    const { createWorker } = fakeFactory(() => {}, { started: false });
    const runner = new SpecRunner({ createWorker, startTimeoutMs: 5_000 });
    vi.useFakeTimers();
    let answered: RunResult | undefined;
    try {
      void runner.runRequest(requestFor(exercise, '')).then((result) => (answered = result));
      await vi.advanceTimersByTimeAsync(4_999);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(2);
    } finally {
      vi.useRealTimers();
    }
    expect(answered?.status).toBe('error');
    expect(answered?.message).toMatch(/took more than 5 s to prepare your code/);
    runner.dispose();
  });

  it('lets a run that keeps sending heartbeats go on past the limit, and keeps the tests that finished', async () => {
    const { createWorker } = fakeFactory((message, worker) => {
      const test: TestResult = { name: 'slow but alive', status: 'pass', code: '', durationMs: 1 };
      let beats = 0;
      const timer = setInterval(() => {
        worker.emit({ type: 'alive', runId: message.runId });
        if (++beats === 8) {
          clearInterval(timer);
          worker.emit({ type: 'test', runId: message.runId, result: test });
          worker.emit(done(message.runId, { tests: [test] }));
        }
      }, 15);
    });
    const runner = new SpecRunner({ createWorker, hardLimitMs: 50 });
    // On a fake clock, so a loaded machine cannot stretch a 15 ms beat past the 50 ms limit: the
    // run lasts 120 ms, more than twice the limit, and is never stopped.
    vi.useFakeTimers();
    let answered: RunResult | undefined;
    try {
      void runner.runRequest(requestFor(exercise, '')).then((result) => (answered = result));
      await vi.advanceTimersByTimeAsync(119);
      expect(answered).toBeUndefined();
      await vi.advanceTimersByTimeAsync(2);
    } finally {
      vi.useRealTimers();
    }
    expect(answered?.status).toBe('pass');
    expect(answered?.tests).toHaveLength(1);
    runner.dispose();
  });

  it('tells the page when the examples are done, between their results and the properties\'', async () => {
    const passed = (name: string): TestResult => ({ name, status: 'pass', code: '', durationMs: 1 });
    const { createWorker } = fakeFactory((message, worker) => {
      worker.emit({ type: 'test', runId: message.runId, result: passed('example') });
      worker.emit({ type: 'examples', runId: message.runId + 1, properties: 9 }); // another run's: ignored
      worker.emit({ type: 'examples', runId: message.runId, properties: 1 });
      worker.emit({ type: 'test', runId: message.runId, result: passed('for any') });
      worker.emit(done(message.runId, { tests: [passed('example'), passed('for any')] }));
    });
    const heard: string[] = [];
    const runner = new SpecRunner({ createWorker });
    const result = await runner.runRequest(requestFor(exercise, ''), { onTest: (test) => heard.push(test.name), onExamplesDone: (properties) => heard.push(`${properties} to go`) });
    expect(heard).toEqual(['example', '1 to go', 'for any']);
    expect(result.status).toBe('pass');
    runner.dispose();
  });

  it('returns the tests that finished before a worker hung', async () => {
    const { createWorker } = fakeFactory((message, worker) => {
      worker.emit({ type: 'test', runId: message.runId, result: { name: 'first', status: 'pass', code: '', durationMs: 1 } });
    });
    const result = await new SpecRunner({ createWorker, hardLimitMs: 40 }).runRequest(requestFor(exercise, ''));
    expect(result.status).toBe('error');
    expect(result.tests.map((test) => test.name)).toEqual(['first']);
  });

  it('gives up on a worker that never becomes ready, and on one that fails', async () => {
    const silent = fakeFactory(() => {}, { ready: false });
    const notStarted = await new SpecRunner({ createWorker: silent.createWorker, startTimeoutMs: 30 }).runRequest(requestFor(exercise, ''));
    expect(notStarted).toMatchObject({ status: 'error' });
    expect(notStarted.message).toMatch(/^The test runner could not start: it did not start within 0 s/);
    expect(silent.workers[0]?.terminated).toBe(true);

    const crashing = fakeFactory((_message, worker) => setTimeout(() => worker.fail('out of memory'), 5));
    const crashed = await new SpecRunner({ createWorker: crashing.createWorker }).runRequest(requestFor(exercise, ''));
    expect(crashed.message).toBe('The test runner failed: out of memory');
    expect(crashing.workers).toHaveLength(2); // replaced at once: it had loaded before
  });

  it('does not keep reloading a worker that fails to load; the next run tries again', async () => {
    const { workers, createWorker } = fakeFactory(() => {}, { ready: false });
    const runner = new SpecRunner({ createWorker });
    runner.warmUp();
    const running = runner.runRequest(requestFor(exercise, ''));
    await new Promise((resolve) => setTimeout(resolve, 0)); // the run is waiting for it to load
    workers[0]?.fail('SyntaxError in the worker bundle');
    expect(await running).toMatchObject({ status: 'error', message: 'The test runner could not start: SyntaxError in the worker bundle. Reload the page to try again.' });
    expect(workers).toHaveLength(1);
    void runner.runRequest(requestFor(exercise, ''));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(workers).toHaveLength(2);
    runner.dispose();
  });

  it('queues runs and ignores messages of other runs', async () => {
    const { workers, createWorker } = fakeFactory((message, worker) => {
      worker.emit(done(message.runId + 100, { status: 'fail' })); // a stale answer: not this run's
      setTimeout(() => worker.emit(done(message.runId, { message: `run ${message.runId}` })), 10);
    });
    const runner = new SpecRunner({ createWorker });
    const [first, second] = await Promise.all([runner.runRequest(requestFor(exercise, 'a')), runner.runRequest(requestFor(exercise, 'b'))]);
    expect([first.status, first.message, second.status, second.message]).toEqual(['pass', 'run 1', 'pass', 'run 2']);
    expect(workers[0]?.posted.map((message) => message.request.learnerSource)).toEqual(['a', 'b']);
  });

  it('answers at once when disposed during a run, and after', async () => {
    const { workers, createWorker } = fakeFactory();
    const runner = new SpecRunner({ createWorker });
    const running = runner.runRequest(requestFor(exercise, ''));
    await new Promise((resolve) => setTimeout(resolve, 5));
    runner.dispose();
    expect(await running).toMatchObject({ status: 'error', message: 'The test runner was closed.' });
    expect(workers.map((worker) => worker.terminated)).toEqual([true]);
    expect(await runner.runRequest(requestFor(exercise, ''))).toMatchObject({ status: 'error', message: 'The test runner was closed.' });
    expect(runner.status).toBe('disposed');
  });
});

describe('requestFor', () => {
  it('carries the spec, the learner’s file name, the steps and where the solution lives', () => {
    const withProtocolSolution: Exercise = { ...exercise, meta: { ...exercise.meta, solution: ['src/protocol/framing/ndjson.ts'] } };
    expect(requestFor(withProtocolSolution, 'code')).toEqual({
      specSource: exercise.spec,
      learnerSource: 'code',
      learnerFile: 'ping.ts',
      steps: exercise.meta.steps,
      learnerModuleId: '@protocol/framing/ndjson',
    });
    const bridged: Exercise = { ...exercise, meta: { ...exercise.meta, solution: ['src/protocol/registry.ts'], solutionModule: 'src/protocol/remote-tools.ts' } };
    expect(requestFor(bridged, 'code').learnerModuleId).toBe('@protocol/remote-tools');
    expect(requestFor(exercise, 'code').learnerModuleId).toBeUndefined(); // the fixture's solution is not a reference module
  });
});
