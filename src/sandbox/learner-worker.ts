// The Web Worker that runs the learner's own code for the protocol view. The logic lives in
// learner-worker-core.ts; this file gathers the reference modules and wires the worker.

import { protocolModulesFromGlob } from './protocol-modules.ts';
import { serveWorkerCore } from './worker-scope.ts';
import { createLearnerWorkerCore } from './learner-worker-core.ts';
import type { LearnerToPage } from './learner-worker-messages.ts';

// Every reference module, under the names learner files import them by ('@protocol/jsonrpc').
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../protocol/**/*.ts', '!../protocol/**/*.test.ts', '!../protocol/inspect/**'], { eager: true }));

serveWorkerCore<LearnerToPage>((post) => createLearnerWorkerCore({ post, protocolModules }));
