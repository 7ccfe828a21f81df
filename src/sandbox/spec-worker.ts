// The Web Worker that runs specs: the learner's code runs only here, where there is no DOM and no
// access to the page's storage, and the page can terminate it at any moment. The logic lives in
// spec-worker-core.ts; this file only gathers the reference modules and wires the worker.

import { protocolModulesFromGlob } from './protocol-modules.ts';
import { createSpecWorkerCore, type SpecWorkerToPage } from './spec-worker-core.ts';
import { serveWorkerCore } from './worker-scope.ts';

// Every reference module, bundled into the worker, under the names specs import them by.
const protocolModules = protocolModulesFromGlob(import.meta.glob(['../protocol/**/*.ts', '!../protocol/**/*.test.ts', '!../protocol/inspect/**'], { eager: true }));

serveWorkerCore<SpecWorkerToPage>((post) => createSpecWorkerCore({ post, protocolModules }));
