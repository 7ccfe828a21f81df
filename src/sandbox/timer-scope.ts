// Timers handed to the spec and the learner's code in place of the global ones, so that everything
// a run scheduled can be cancelled when it ends: the worker is reused for the next run, and a
// client's 60 s request timer or a forgotten setInterval must not fire into it.

type Callback = (...args: unknown[]) => void;
type Handle = ReturnType<typeof setTimeout>;

export interface TimerScope {
  readonly timers: {
    setTimeout: (callback: Callback, ms?: number, ...args: unknown[]) => Handle;
    clearTimeout: (handle: Handle | undefined) => void;
    setInterval: (callback: Callback, ms?: number, ...args: unknown[]) => Handle;
    clearInterval: (handle: Handle | undefined) => void;
  };
  /** Timers still scheduled. */
  readonly pending: number;
  /** Cancels every timer still scheduled. */
  dispose(): void;
}

/** `onError` receives what a timer callback throws, which would otherwise escape the run unseen. */
export function createTimerScope(onError: (error: unknown) => void = () => undefined): TimerScope {
  // Captured now: learner code cannot reach the real ones through these names later.
  const realSetTimeout = globalThis.setTimeout;
  const realClearTimeout = globalThis.clearTimeout;
  const realSetInterval = globalThis.setInterval;
  const realClearInterval = globalThis.clearInterval;
  const timeouts = new Set<Handle>();
  const intervals = new Set<Handle>();

  function guarded(callback: Callback, args: unknown[]): void {
    try {
      callback(...args);
    } catch (error) {
      onError(error);
    }
  }

  // Browsers let either clear function cancel either kind of timer; so does this.
  function clear(handle: Handle | undefined): void {
    if (handle === undefined) return;
    timeouts.delete(handle);
    intervals.delete(handle);
    realClearTimeout(handle);
    realClearInterval(handle);
  }

  const timers: TimerScope['timers'] = {
    setTimeout(callback, ms, ...args) {
      const handle = realSetTimeout(() => {
        timeouts.delete(handle);
        guarded(callback, args);
      }, ms);
      timeouts.add(handle);
      return handle;
    },
    clearTimeout: clear,
    setInterval(callback, ms, ...args) {
      const handle = realSetInterval(() => guarded(callback, args), ms);
      intervals.add(handle);
      return handle;
    },
    clearInterval: clear,
  };

  return {
    timers,
    get pending() {
      return timeouts.size + intervals.size;
    },
    dispose() {
      for (const handle of timeouts) realClearTimeout(handle);
      for (const handle of intervals) realClearInterval(handle);
      timeouts.clear();
      intervals.clear();
    },
  };
}
