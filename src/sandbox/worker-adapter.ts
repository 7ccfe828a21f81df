// A browser Worker seen through callbacks, the shape the worker hosts and the learner-code runner
// take, so their tests can pass fakes without DOM types. The `new Worker(new URL(...))` call stays
// at each call site, because that exact shape is what Vite recognises and bundles.

export interface CallbackWorker<Outgoing> {
  postMessage(message: Outgoing): void;
  onMessage(listener: (data: unknown) => void): void;
  /** The worker failed (its module did not load, or it threw). */
  onError(listener: (message: string) => void): void;
  terminate(): void;
}

export function adaptWorker<Outgoing>(worker: Worker): CallbackWorker<Outgoing> {
  return {
    postMessage: (message) => worker.postMessage(message),
    onMessage: (listener) => worker.addEventListener('message', (event: MessageEvent) => listener(event.data)),
    onError: (listener) => {
      worker.addEventListener('error', (event: ErrorEvent) => {
        event.preventDefault();
        listener(event.message || 'the worker script could not be loaded');
      });
      worker.addEventListener('messageerror', () => listener('a message from the worker could not be read'));
    },
    terminate: () => worker.terminate(),
  };
}
