// The Web Worker that runs the learner's own code for the protocol view. The logic lives in
// learner-worker-core.ts; this file gathers the reference modules and wires the message port.

import { protocolModulesFromGlob } from '../../exercise/protocol-modules.ts';
import { createLearnerWorkerCore } from './learner-worker-core.ts';
import type { LearnerToPage } from './learner-worker-messages.ts';

// Every reference module, under the names learner files import them by ('@protocol/jsonrpc').
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../../protocol/**/*.ts', '!../../protocol/**/*.test.ts'], { eager: true }));

// The project's lib list has no WebWorker types; the worker scope is described by what is used.
const scope = globalThis as unknown as {
  postMessage(message: LearnerToPage): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  addEventListener(type: 'unhandledrejection', listener: (event: PromiseRejectionEvent) => void): void;
};

const core = createLearnerWorkerCore({ post: (message) => scope.postMessage(message), protocolModules });
scope.addEventListener('message', (event) => core.handle(event.data));
scope.addEventListener('error', (event) => {
  event.preventDefault();
  core.reportUncaught(event.error ?? new Error(event.message));
});
scope.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  core.reportUncaught(event.reason);
});
