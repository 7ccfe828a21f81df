// The in-browser host: the servers in Web Workers. No Node and no network, so it works from a
// static host offline. One worker per started server, terminated when the server ends, and one
// worker file per program, each loaded only when first started:
//   echo-server      echo-worker.ts            the project's echo server session
//   learner-server   learner-server-worker.ts  the same session around the learner's McpServer,
//                                              ended after 2 s without a heartbeat (a stuck loop)
//   sdk-echo-server  sdk-echo-worker.ts        the official SDK's McpServer over a worker transport
//   sdk2-echo-server sdk2-echo-worker.ts       SDK 2.4.0's serveStdio over the same transport (both eras, or --era=modern)
//   mcp-http         mcp-http-worker.ts        the HTTP echo server, served over HTTP/1.1 bytes

import { withTimeout, TimeoutError } from './boot-once.ts';
import type { PageToWorker } from './echo-worker-core.ts';
import { isHttpProgram, type Host, type HostAvailability, type ProgramName, type ProgramSpec, type Wire } from './host.ts';
import { LEARNER_SERVER_HARD_LIMIT_MS, stuckServerLine } from '../sandbox/learner-server-constants.ts';
import { bytesToBase64, encodeTapEvent, parseTapCommand, roundTapTime, type TapEvent } from './tap-protocol.ts';
import { createTapWire, type LineChannel } from './tap-wire.ts';
import { adaptWorker, type CallbackWorker } from '../sandbox/worker-adapter.ts';
import { ListenerSet } from './listener-set.ts';
import { startSandboxedWorker } from '../sandbox/sandboxed-worker.ts';
import learnerServerWorkerUrl from './learner-server-worker.ts?worker&url';

/** The slice of a Worker this host uses, as callbacks so tests can fake it without DOM types. */
export type WorkerLike = CallbackWorker<PageToWorker>;

export interface WorkerHostDeps {
  /** Default: a module Worker running the program's worker file (see above). */
  createWorker?: (program: ProgramName) => WorkerLike;
  /** How long a fresh worker may take to load and report the server running. */
  startTimeoutMs?: number;
  /** learner-server: silence after which the worker is ended as stuck. Default 2000 ms. */
  learnerHardLimitMs?: number;
}

export interface WorkerHost extends Host {
  readonly kind: 'worker';
  probe(): Promise<HostAvailability>;
}

export const DEFAULT_WORKER_START_TIMEOUT_MS = 10_000;

export function createWorkerHost(deps: WorkerHostDeps = {}): WorkerHost {
  const createWorker = deps.createWorker ?? createProgramWorker;
  const startTimeoutMs = deps.startTimeoutMs ?? DEFAULT_WORKER_START_TIMEOUT_MS;
  const learnerHardLimitMs = deps.learnerHardLimitMs ?? LEARNER_SERVER_HARD_LIMIT_MS;
  return {
    kind: 'worker',
    async probe() {
      if (deps.createWorker || typeof Worker === 'function') return { kind: 'worker', status: 'available' };
      return { kind: 'worker', status: 'unavailable', reason: 'this browser has no Web Workers', why: { code: 'no-workers' } };
    },
    async start(spec) {
      // mcp-http's wire speaks HTTP itself; loaded on first use, out of the first paint.
      const makeWire = isHttpProgram(spec.program) ? (await import('./http-tap-wire.ts')).createHttpTapWire : createTapWire;
      let worker: WorkerLike;
      try {
        worker = createWorker(spec.program);
      } catch (error) {
        throw new Error(`could not create the in-browser worker: ${messageOf(error)}`);
      }
      const channel = workerLineChannel(worker, spec.program === 'learner-server' ? learnerHardLimitMs : null);
      // Created before the start message, so the spawn event reaches the wire's first listener.
      const wire = makeWire('worker', channel);
      worker.postMessage({ type: 'start', spec: cloneableSpec(spec) });
      try {
        await withTimeout(channel.spawned, startTimeoutMs);
      } catch (error) {
        channel.close();
        const detail = error instanceof TimeoutError ? `the worker did not report it running within ${startTimeoutMs} ms` : messageOf(error);
        throw new Error(`could not start ${spec.program} in the in-browser worker: ${detail}`);
      }
      return wire satisfies Wire;
    },
  };
}

interface WorkerLineChannel extends LineChannel {
  readonly spawned: Promise<void>;
}

/** Only the fields a worker reads, as plain data (structured clone refuses anything else). */
function cloneableSpec(spec: ProgramSpec): ProgramSpec {
  const plain: ProgramSpec = { program: spec.program, framing: spec.framing, faults: [...spec.faults] };
  if (spec.era !== undefined) plain.era = spec.era;
  if (spec.tools !== undefined) plain.tools = spec.tools;
  if (spec.auth !== undefined) plain.auth = spec.auth;
  if (spec.learnerServer) {
    const { code, file, moduleId } = spec.learnerServer;
    plain.learnerServer = moduleId === undefined ? { code, file } : { code, file, moduleId };
  }
  return plain;
}

const WATCHDOG_CHECK_MS = 250;

export { stuckServerLine };

/**
 * The worker speaks tap objects; the wire speaks tap lines. Converting here keeps one wire for all
 * hosts, and the wire's parser re-checks every event the worker sends.
 *
 * With `hardLimitMs`, the worker must keep posting (heartbeats, see learner-server-worker-core.ts):
 * once it has said anything, silence longer than that means learner code is stuck, and the worker
 * is terminated with a stderr line and an exit event, as a killed process would be reported.
 */
function workerLineChannel(worker: WorkerLike, hardLimitMs: number | null): WorkerLineChannel {
  const lines = new ListenerSet<string>();
  const closes = new ListenerSet<string>();
  let closedByUs = false;
  let lastHeard = 0;
  let lastT = 0;
  // Between 'preparing' and 'prepared' the worker transpiles learner code: none of it runs, and a
  // slow machine may take longer than the 2 s rule, which waits meanwhile.
  let preparing = false;
  let watchdog: ReturnType<typeof setInterval> | undefined;
  let settleSpawn: { resolve(): void; reject(error: Error): void } | null = null;
  const spawned = new Promise<void>((resolve, reject) => {
    settleSpawn = { resolve, reject };
  });
  spawned.catch(() => {}); // observed by start(); never an unhandled rejection

  function emit(event: TapEvent): void {
    let line: string;
    try {
      line = encodeTapEvent(event);
    } catch {
      return;
    }
    lines.emit(line);
  }

  function stop(): void {
    closedByUs = true;
    clearInterval(watchdog);
    worker.terminate();
  }

  if (hardLimitMs !== null) {
    watchdog = setInterval(() => {
      if (closedByUs || lastHeard === 0 || preparing) return;
      const silence = Date.now() - lastHeard;
      if (silence <= hardLimitMs) return;
      stop();
      const t = roundTapTime(lastT + silence);
      const text = new TextEncoder().encode(`${stuckServerLine(hardLimitMs)}\n`);
      // Not started yet: start() hears why instead of waiting for its timeout.
      settleSpawn?.reject(new Error(stuckServerLine(hardLimitMs)));
      settleSpawn = null;
      emit({ tap: 1, ev: 'stderr', t, b64: bytesToBase64(text) });
      emit({ tap: 1, ev: 'exit', t, code: null, signal: 'SIGKILL' });
    }, WATCHDOG_CHECK_MS);
  }

  worker.onMessage((data) => {
    if (closedByUs) return;
    lastHeard = Date.now();
    if (isPhase(data)) preparing = data.type === 'preparing';
    if (!isTapEventLike(data)) return;
    lastT = data.t;
    if (data.ev === 'exit') clearInterval(watchdog);
    if (data.ev === 'spawn') settleSpawn?.resolve();
    if (data.ev === 'error') settleSpawn?.reject(new Error(data.message));
    if (data.ev === 'spawn' || data.ev === 'error') settleSpawn = null;
    emit(data);
  });
  worker.onError((message) => {
    const reason = `the in-browser worker failed: ${message}`;
    settleSpawn?.reject(new Error(reason));
    settleSpawn = null;
    if (closedByUs) return;
    stop();
    closes.emit(reason);
  });

  return {
    spawned,
    send(line) {
      const command = parseTapCommand(line);
      if (command && !closedByUs) worker.postMessage(command);
    },
    close() {
      if (closedByUs) return;
      stop();
    },
    onLine: lines.add,
    onClose: closes.add,
  };
}

function isTapEventLike(data: unknown): data is TapEvent {
  return typeof data === 'object' && data !== null && (data as { tap?: unknown }).tap === 1 && typeof (data as { ev?: unknown }).ev === 'string';
}

function createProgramWorker(program: ProgramName): WorkerLike {
  // This exact `new Worker(new URL(...), { type: 'module' })` shape is what Vite recognises and
  // bundles, each as a file of its own fetched only when constructed.
  switch (program) {
    case 'learner-server':
      // Learner code: in the sandbox frame, on an opaque origin (src/sandbox/sandboxed-worker.ts).
      return startSandboxedWorker(learnerServerWorkerUrl, 'learner-server');
    case 'sdk-echo-server':
      return adaptWorker(new Worker(new URL('./sdk-echo-worker.ts', import.meta.url), { type: 'module', name: 'sdk-echo-server' }));
    case 'sdk2-echo-server':
      return adaptWorker(new Worker(new URL('./sdk2-echo-worker.ts', import.meta.url), { type: 'module', name: 'sdk2-echo-server' }));
    case 'echo-server':
      return adaptWorker(new Worker(new URL('./echo-worker.ts', import.meta.url), { type: 'module' }));
    case 'mcp-http':
      return adaptWorker(new Worker(new URL('./mcp-http-worker.ts', import.meta.url), { type: 'module', name: 'mcp-http' }));
    case 'sdk-http-server':
      return adaptWorker(new Worker(new URL('./sdk-http-worker.ts', import.meta.url), { type: 'module', name: 'sdk-http-server' }));
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isPhase(data: unknown): data is { type: 'preparing' | 'prepared' } {
  const type = (data as { type?: unknown } | null)?.type;
  return type === 'preparing' || type === 'prepared';
}
