// What runs the learner's exercise-4 server inside the learner-server worker: the server loaded by
// learner-server-core.ts with the hidden globals and a timer scope of its own, and the heartbeat
// (heartbeat.ts). Learner code may loop forever; a worker stuck in it cannot post, so the page
// (src/runtime/worker-host.ts) ends the worker after LEARNER_SERVER_HARD_LIMIT_MS of silence.
// The worker around it (src/runtime/learner-server-worker-core.ts) is the echo worker with this
// plugged in, so the session and its tap events are the echo server's own.

import type { ServerSession, ServerSessionOptions } from '../protocol/server-session.ts';
import { hiddenGlobals } from './hidden-globals.ts';
import { LEARNER_SERVER_HEARTBEAT_MS } from './learner-server-constants.ts';
import { startLearnerSession, type LearnerServerSource, type Outcome } from './learner-server-core.ts';
import type { ProtocolModules } from './protocol-modules.ts';
import { createTimerScope } from './timer-scope.ts';

export interface LearnerServerSandboxDeps {
  protocolModules: ProtocolModules;
  /** Posts the worker's "still here"; called at once and then every `heartbeatMs`. */
  postHeartbeat(): void;
  /** Posts 'preparing' / 'prepared' around the transpiling of learner code (the host's 2 s rule waits). */
  postPhase?(phase: 'preparing' | 'prepared'): void;
  heartbeatMs?: number;
  /** One line for the learner's stderr (an error their code left uncaught). */
  reportLine(line: string): void;
}

export interface LearnerServerSandbox {
  startLearnerSession(source: LearnerServerSource, options: Omit<ServerSessionOptions, 'createServer'>): Outcome<ServerSession>;
  /** An error the learner's code left uncaught (the worker's error events): one stderr line. */
  reportUncaught(error: unknown): void;
  /** Stop the heartbeat and the learner's timers (Node tests; a real worker is terminated instead). */
  dispose(): void;
}

export function createLearnerServerSandbox(deps: LearnerServerSandboxDeps): LearnerServerSandbox {
  // Captured before any learner code runs here.
  const realSetInterval = globalThis.setInterval;
  const realClearInterval = globalThis.clearInterval;
  const uncaught = (error: unknown) => deps.reportLine(`uncaught error in your server: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
  const timers = createTimerScope(uncaught);
  const hidden = hiddenGlobals();
  const heartbeat = realSetInterval(() => deps.postHeartbeat(), deps.heartbeatMs ?? LEARNER_SERVER_HEARTBEAT_MS);
  deps.postHeartbeat();
  return {
    startLearnerSession: (source, options) => startLearnerSession(source, options, { protocolModules: deps.protocolModules, shadowedGlobals: { ...hidden, ...timers.timers }, ...(deps.postPhase ? { onTranspile: deps.postPhase } : {}) }),
    reportUncaught: uncaught,
    dispose() {
      realClearInterval(heartbeat);
      timers.dispose();
    },
  };
}
