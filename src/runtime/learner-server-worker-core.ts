// The learner's exercise-4 server inside a Web Worker: the echo worker's core (same session, same
// tap events) with the learner's McpServer plugged in from the sandbox
// (src/sandbox/learner-server-sandbox.ts: loading, hidden globals, timers, heartbeat). Apart from
// the Worker, for Node tests.

import type { ProtocolModules } from '../sandbox/protocol-modules.ts';
import { createEchoWorkerCore } from './echo-worker-core.ts';
import { LEARNER_SERVER_LOG_PREFIX, type WorkerHeartbeat } from '../sandbox/learner-server-constants.ts';
import { createLearnerServerSandbox } from '../sandbox/learner-server-sandbox.ts';
import { bytesToBase64, roundTapTime, type TapEvent } from './tap-protocol.ts';

export type LearnerServerWorkerMessage = TapEvent | WorkerHeartbeat;

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
  const now = deps.now ?? (() => performance.now());
  const stderr = (line: string) =>
    deps.post({ tap: 1, ev: 'stderr', t: roundTapTime(now()), b64: bytesToBase64(new TextEncoder().encode(`${LEARNER_SERVER_LOG_PREFIX} ${line}\n`)) });
  const sandbox = createLearnerServerSandbox({
    protocolModules: deps.protocolModules,
    heartbeatMs: deps.heartbeatMs,
    postHeartbeat: () => deps.post({ type: 'alive' }),
    postPhase: (phase) => deps.post({ type: phase }),
    reportLine: stderr,
  });
  const core = createEchoWorkerCore({ post: (event) => deps.post(event), now, startLearnerSession: sandbox.startLearnerSession });
  return {
    handle: (message) => core.handle(message),
    reportUncaught: sandbox.reportUncaught,
    dispose: () => sandbox.dispose(),
  };
}
