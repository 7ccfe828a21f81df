// The Web Worker entry of the in-browser host: wires the worker's message port to the core, which
// holds all the logic (and is tested in Node without a real Worker).

import { createEchoWorkerCore } from './echo-worker-core.ts';
import type { WorkerToPage } from './echo-worker-core.ts';

// The project's lib list has no WebWorker types (the page's DOM types would clash), so the worker
// scope is described by the two members used.
const scope = globalThis as unknown as {
  postMessage(message: WorkerToPage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
};

const core = createEchoWorkerCore({ post: (event) => scope.postMessage(event) });
scope.addEventListener('message', (event) => core.handle(event.data));
