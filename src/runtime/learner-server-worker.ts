// The Web Worker entry that runs the learner's exercise-4 server (see learner-server-worker-core.ts).
// Loaded only when a page starts learner-server in the worker host.

import { serveWorkerCore } from '../sandbox/worker-scope.ts';
import { createLearnerServerWorkerCore, type LearnerServerWorkerMessage } from './learner-server-worker-core.ts';
import { PROTOCOL_MODULE_MAP } from '../sandbox/protocol-module-map.ts';

serveWorkerCore<LearnerServerWorkerMessage>((post) => createLearnerServerWorkerCore({ post, protocolModules: PROTOCOL_MODULE_MAP }));
