// The Web Worker that runs specs: the learner's code runs only here, where there is no DOM and no
// access to the page's storage, and the page can terminate it at any moment. The logic lives in
// spec-worker-core.ts; this file only gathers the reference modules and wires the message port.

import { protocolModulesFromGlob } from './protocol-modules.ts';
import { createSpecWorkerCore, type SpecWorkerToPage } from './spec-worker-core.ts';

// Every reference module, bundled into the worker, under the names specs import them by.
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../protocol/**/*.ts', '!../protocol/**/*.test.ts'], { eager: true }));

// The project's lib list has no WebWorker types (the page's DOM types would clash), so the worker
// scope is described by the two members used.
const scope = globalThis as unknown as {
  postMessage(message: SpecWorkerToPage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void;
};

const core = createSpecWorkerCore({ post: (message) => scope.postMessage(message), protocolModules });
scope.addEventListener('message', (event) => core.handle(event.data));
// An error the learner's code left uncaught fails the test it happened in (as Vitest fails the run)
// instead of reaching the page as a worker failure, which would cost a fresh worker.
scope.addEventListener('error', (event) => {
  event.preventDefault();
  core.reportUncaught(event.error ?? new Error(event.message));
});
scope.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  core.reportUncaught(event.reason);
});
