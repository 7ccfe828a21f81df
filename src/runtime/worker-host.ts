// The in-browser host: the echo server in a Web Worker. No Node and no network, so it works from a
// static host offline; the price is that only this project's own echo server can run there.
// One worker per started server, terminated when the server ends.

import { withTimeout, TimeoutError } from './boot-once.ts';
import type { PageToWorker } from './echo-worker-core.ts';
import type { Host, HostAvailability, Wire } from './host.ts';
import { encodeTapEvent, parseTapCommand, type TapEvent } from './tap-protocol.ts';
import { createTapWire, type LineChannel } from './tap-wire.ts';
import { adaptWorker, type CallbackWorker } from './worker-adapter.ts';

/** The slice of a Worker this host uses, as callbacks so tests can fake it without DOM types. */
export type WorkerLike = CallbackWorker<PageToWorker>;

export interface WorkerHostDeps {
  /** Default: a module Worker running ./echo-worker.ts. */
  createWorker?: () => WorkerLike;
  /** How long a fresh worker may take to load and report the server running. */
  startTimeoutMs?: number;
}

export interface WorkerHost extends Host {
  readonly kind: 'worker';
  probe(): Promise<HostAvailability>;
}

export const DEFAULT_WORKER_START_TIMEOUT_MS = 10_000;

export function createWorkerHost(deps: WorkerHostDeps = {}): WorkerHost {
  const createWorker = deps.createWorker ?? createEchoWorker;
  const startTimeoutMs = deps.startTimeoutMs ?? DEFAULT_WORKER_START_TIMEOUT_MS;
  return {
    kind: 'worker',
    async probe() {
      if (deps.createWorker || typeof Worker === 'function') return { kind: 'worker', status: 'available' };
      return { kind: 'worker', status: 'unavailable', reason: 'this browser has no Web Workers' };
    },
    async start(spec) {
      let worker: WorkerLike;
      try {
        worker = createWorker();
      } catch (error) {
        throw new Error(`could not create the in-browser worker: ${messageOf(error)}`);
      }
      const channel = workerLineChannel(worker);
      // Created before the start message, so the spawn event reaches the wire's first listener.
      const wire = createTapWire('worker', channel);
      worker.postMessage({ type: 'start', spec: { program: spec.program, framing: spec.framing, faults: [...spec.faults] } });
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

/**
 * The worker speaks tap objects; the wire speaks tap lines. Converting here keeps one wire for all
 * hosts, and the wire's parser re-checks every event the worker sends.
 */
function workerLineChannel(worker: WorkerLike): WorkerLineChannel {
  const lineListeners = new Set<(line: string) => void>();
  const closeListeners = new Set<(reason: string) => void>();
  let closedByUs = false;
  let settleSpawn: { resolve(): void; reject(error: Error): void } | null = null;
  const spawned = new Promise<void>((resolve, reject) => {
    settleSpawn = { resolve, reject };
  });
  spawned.catch(() => {}); // observed by start(); never an unhandled rejection

  worker.onMessage((data) => {
    if (closedByUs || !isTapEventLike(data)) return;
    if (data.ev === 'spawn') settleSpawn?.resolve();
    if (data.ev === 'error') settleSpawn?.reject(new Error(data.message));
    if (data.ev === 'spawn' || data.ev === 'error') settleSpawn = null;
    let line: string;
    try {
      line = encodeTapEvent(data);
    } catch {
      return;
    }
    for (const listener of [...lineListeners]) listener(line);
  });
  worker.onError((message) => {
    const reason = `the in-browser worker failed: ${message}`;
    settleSpawn?.reject(new Error(reason));
    settleSpawn = null;
    if (closedByUs) return;
    closedByUs = true;
    worker.terminate();
    for (const listener of [...closeListeners]) listener(reason);
  });

  return {
    spawned,
    send(line) {
      const command = parseTapCommand(line);
      if (command && !closedByUs) worker.postMessage(command);
    },
    close() {
      if (closedByUs) return;
      closedByUs = true;
      worker.terminate();
    },
    onLine(listener) {
      lineListeners.add(listener);
      return () => lineListeners.delete(listener);
    },
    onClose(listener) {
      closeListeners.add(listener);
      return () => closeListeners.delete(listener);
    },
  };
}

function isTapEventLike(data: unknown): data is TapEvent {
  return typeof data === 'object' && data !== null && (data as { tap?: unknown }).tap === 1 && typeof (data as { ev?: unknown }).ev === 'string';
}

function createEchoWorker(): WorkerLike {
  // This exact `new Worker(new URL(...), { type: 'module' })` shape is what Vite recognises and bundles.
  return adaptWorker(new Worker(new URL('./echo-worker.ts', import.meta.url), { type: 'module' }));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
