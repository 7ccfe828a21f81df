// Wires a worker core (spec runner, learner-code runner) to the Web Worker it runs in. Shared by
// every worker that evaluates learner code, so each entry file only gathers its modules.

export interface WorkerCore {
  handle(message: unknown): void;
  /** An error the learner's code left uncaught: the core decides which run it belongs to. */
  reportUncaught(error: unknown): void;
}

// The project's lib list has no WebWorker types (the page's DOM types would clash), so the worker
// scope is described by the members used.
interface WorkerScope<Outgoing> {
  postMessage(message: Outgoing): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void;
}

/** Create the core with a `post` that reaches the page, and route the worker's events to it. */
export function serveWorkerCore<Outgoing>(createCore: (post: (message: Outgoing) => void) => WorkerCore): void {
  const scope = globalThis as unknown as WorkerScope<Outgoing>;
  const core = createCore((message) => scope.postMessage(message));
  scope.addEventListener('message', (event) => core.handle(event.data));
  // An uncaught error fails the run it happened in (as Vitest fails the test) instead of reaching
  // the page as a worker failure, which would cost a fresh worker.
  scope.addEventListener('error', (event) => {
    event.preventDefault();
    core.reportUncaught(event.error ?? new Error(event.message));
  });
  scope.addEventListener('unhandledrejection', (event) => {
    event.preventDefault();
    core.reportUncaught(event.reason);
  });
}
