// The learner's exercise-4 server inside a Web Worker: the echo worker's core (same session, same
// tap events) with the learner's McpServer loaded in, plus a heartbeat. Learner code may loop
// forever; a worker stuck in it cannot post, so the page (worker-host.ts) ends the worker after
// LEARNER_SERVER_HARD_LIMIT_MS of silence and reports why. Apart from the Worker, for Node tests.

import type { ProtocolModules } from '../sandbox/protocol-modules.ts';
import { createTimerScope } from '../sandbox/timer-scope.ts';
import { createEchoWorkerCore } from './echo-worker-core.ts';
import { LEARNER_SERVER_HEARTBEAT_MS, LEARNER_SERVER_LOG_PREFIX, type WorkerHeartbeat } from '../sandbox/learner-server-constants.ts';
import { startLearnerSession } from '../sandbox/learner-server-core.ts';
import { bytesToBase64, roundTapTime, type TapEvent } from './tap-protocol.ts';

export type LearnerServerWorkerMessage = TapEvent | WorkerHeartbeat;

// The APIs the spec runner hides from learner code (run-spec.ts): defence in depth, the worker is the boundary.
const HIDDEN_GLOBALS = ['indexedDB', 'caches', 'fetch', 'importScripts', 'XMLHttpRequest', 'WebSocket', 'EventSource', 'BroadcastChannel', 'localStorage', 'sessionStorage'];

export interface LearnerServerWorkerCoreDeps {
  post(message: LearnerServerWorkerMessage): void;
  protocolModules: ProtocolModules;
  heartbeatMs?: number;
  now?: () => number;
}

export interface LearnerServerWorkerCore {
  handle(message: unknown): void;
  /** An error the learner's code left uncaught (the worker's error events): one stderr line. */
  reportUncaught(error: unknown): void;
  /** Stop the heartbeat and the learner's timers (Node tests; a real worker is terminated instead). */
  dispose(): void;
}

export function createLearnerServerWorkerCore(deps: LearnerServerWorkerCoreDeps): LearnerServerWorkerCore {
  // Captured before any learner code runs here.
  const realSetInterval = globalThis.setInterval;
  const realClearInterval = globalThis.clearInterval;
  const now = deps.now ?? (() => performance.now());
  const stderr = (line: string) =>
    deps.post({ tap: 1, ev: 'stderr', t: roundTapTime(now()), b64: bytesToBase64(new TextEncoder().encode(`${LEARNER_SERVER_LOG_PREFIX} ${line}\n`)) });
  const uncaught = (error: unknown) => stderr(`uncaught error in your server: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  const timers = createTimerScope(uncaught);
  const hidden = Object.fromEntries(HIDDEN_GLOBALS.map((name) => [name, undefined]));

  const core = createEchoWorkerCore({
    post: (event) => deps.post(event),
    now,
    startLearnerSession: (source, options) =>
      startLearnerSession(source, options, { protocolModules: deps.protocolModules, shadowedGlobals: { ...hidden, ...timers.timers } }),
  });
  const heartbeat = realSetInterval(() => deps.post({ type: 'alive' }), deps.heartbeatMs ?? LEARNER_SERVER_HEARTBEAT_MS);
  deps.post({ type: 'alive' });

  return {
    handle: (message) => core.handle(message),
    reportUncaught: uncaught,
    dispose() {
      realClearInterval(heartbeat);
      timers.dispose();
    },
  };
}
