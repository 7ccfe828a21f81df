// Wires a worker core (spec runner, learner-code runner) to the Web Worker it runs in. Shared by
// every worker that evaluates learner code, so each entry file only gathers its modules.

import { SANDBOX_PORT } from './sandbox-protocol.ts';
import { provideDigest } from './webcrypto-digest.ts';

export interface WorkerCore {
  handle(message: unknown): void;
  /** An error the learner's code left uncaught: the core decides which run it belongs to. */
  reportUncaught(error: unknown): void;
}

// The project's lib list has no WebWorker types (the page's DOM types would clash), so the worker
// scope is described by the members used.
interface WorkerScope<Outgoing> {
  location?: { protocol: string };
  postMessage(message: Outgoing): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void;
}

/**
 * Create the core with a `post` that reaches the page, and route the worker's events to it.
 * Started by the sandbox frame (a blob: worker, src/sandbox/sandbox-frame.ts), the worker's only
 * path to the page is the MessagePort the frame hands over in its first message; until it arrives,
 * what the core posts waits here. Started by the page itself (`vite dev`), it is the worker's own
 * postMessage.
 */
export function serveWorkerCore<Outgoing>(createCore: (post: (message: Outgoing) => void) => WorkerCore): void {
  // The sandbox frame's workers are no secure context: learner code and specs still get crypto.subtle.digest.
  provideDigest();
  const scope = globalThis as unknown as WorkerScope<Outgoing>;
  const sandboxed = scope.location?.protocol === 'blob:';
  let port: MessagePort | undefined;
  const waiting: Outgoing[] = [];
  const core = createCore((message) => {
    if (port) port.postMessage(message);
    else if (sandboxed) waiting.push(message);
    else scope.postMessage(message);
  });
  scope.addEventListener('message', (event) => {
    if (!sandboxed) return core.handle(event.data);
    // The frame sends exactly one message, the port; anything after it is not from the page.
    if (port || !isPortHandover(event)) return;
    port = event.ports[0] as MessagePort;
    port.onmessage = (message) => core.handle(message.data);
    for (const message of waiting.splice(0)) port.postMessage(message);
  });
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

function isPortHandover(event: MessageEvent): boolean {
  return event.ports.length === 1 && typeof event.data === 'object' && event.data !== null && (event.data as { type?: unknown }).type === SANDBOX_PORT;
}
