// The learner's own code, run in a worker, in the protocol view's three places: their exercise 3
// client drives the stepper (LearnerDriver; in an era run their exercise 7 ModernSession inside the dual-era client), their exercise 5 registerMcpTools bridges the listed
// tools (learnerRegisterRunner), their exercise 2 reader replays recorded chunks (runLearnerReader).

import type { FramingName } from '../../protocol/framing/types.ts';
import type { ToolInfo } from '../../protocol/mcp.ts';
import type { ByteTransport, Unsubscribe } from '../../protocol/transport.ts';
import type { ReplayStep } from '../../protocol/inspect/chunk-replay.ts';
import type { CallOutcome, ClientDriver, DriverEvent, DriverOp, ErrorInfo, RegisterOutcome, RegisterRunner } from '../../sandbox/client-driver.ts';
import { LearnerWorkerHandle, type LearnerWorkerLike, type LearnerWorkerOptions } from '../../sandbox/learner-worker-client.ts';
import type { LearnerEraConfig, LearnerSource, LearnerToPage } from '../../sandbox/learner-worker-messages.ts';

/** The learner's client waits this long for an answer: far longer than anyone pauses between steps. */
export const LEARNER_REQUEST_TIMEOUT_MS = 10 * 60_000;

const crashed = (reason: string): ErrorInfo => ({ name: 'Stopped', message: reason, line: null, code: null });

export class LearnerDriver implements ClientDriver {
  readonly kind = 'learner' as const;
  private handle: LearnerWorkerHandle | null = null;
  private readonly listeners = new Set<(event: DriverEvent) => void>();
  private readonly calls = new Map<number, (outcome: CallOutcome) => void>();
  private readonly flushes = new Map<number, () => void>();
  private nextId = 1;
  private crashReason: string | null = null;
  private detach: Unsubscribe[] = [];

  constructor(
    private readonly source: LearnerSource,
    private readonly createWorker: () => LearnerWorkerLike,
    private readonly options: LearnerWorkerOptions = {},
    /** An era run: the source is exercise 7's, run inside the project's DualEraClient in the worker. */
    private readonly era?: LearnerEraConfig,
  ) {}

  /** The dual-era client writes on its own after reading (a fallback handshake, a retry): the stepper waits for those bytes. */
  get writesOnItsOwn(): boolean {
    return this.era !== undefined;
  }

  start(transport: ByteTransport, framing: FramingName): Promise<CallOutcome> {
    const handle = new LearnerWorkerHandle(this.createWorker, this.options);
    this.handle = handle;
    return new Promise((resolve) => {
      let started: ((outcome: CallOutcome) => void) | null = resolve;
      handle.onCrash((reason) => {
        this.crashReason = reason;
        started?.({ ok: false, error: crashed(reason) });
        started = null;
        for (const settle of this.calls.values()) settle({ ok: false, error: crashed(reason) });
        this.calls.clear();
        for (const done of this.flushes.values()) done();
        this.flushes.clear();
        this.emit({ type: 'crashed', reason });
      });
      handle.onMessage((message: LearnerToPage) => {
        switch (message.type) {
          case 'client-started':
            started?.(message.outcome);
            started = null;
            return;
          case 'client-settled':
            this.calls.get(message.callId)?.(message.outcome);
            this.calls.delete(message.callId);
            return;
          case 'client-event':
            this.emit(message.event);
            return;
          case 'transport-write':
            transport.write(message.bytes);
            return;
          case 'transport-end':
            transport.end();
            return;
          case 'flushed':
            this.flushes.get(message.flushId)?.();
            this.flushes.delete(message.flushId);
            return;
          default:
            return;
        }
      });
      this.detach = [
        transport.onData((bytes) => handle.post({ type: 'transport-data', bytes })),
        transport.onClose((reason) => handle.post({ type: 'transport-close', reason })),
      ];
      handle.post({ type: 'client-start', source: this.source, framing, requestTimeoutMs: LEARNER_REQUEST_TIMEOUT_MS, ...(this.era ? { era: this.era } : {}) });
    });
  }

  perform(op: DriverOp): Promise<CallOutcome> {
    const handle = this.handle;
    if (handle === null || this.crashReason !== null) return Promise.resolve({ ok: false, error: crashed(this.crashReason ?? 'the client was not started') });
    const callId = this.nextId++;
    return new Promise((resolve) => {
      this.calls.set(callId, resolve);
      handle.post({ type: 'client-call', callId, op });
    });
  }

  flush(): Promise<void> {
    const handle = this.handle;
    if (handle === null || !handle.alive) return Promise.resolve();
    const flushId = this.nextId++;
    return new Promise((resolve) => {
      this.flushes.set(flushId, resolve);
      handle.post({ type: 'flush', flushId });
    });
  }

  onEvent(listener: (event: DriverEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    for (const stop of this.detach) stop();
    this.handle?.dispose();
    this.handle = null;
    for (const done of this.flushes.values()) done();
    this.flushes.clear();
    this.listeners.clear();
  }

  private emit(event: DriverEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

/** One job in a fresh worker: post, wait for the answer or the crash, terminate. */
function oneShot<T>(createWorker: () => LearnerWorkerLike, options: LearnerWorkerOptions, send: (handle: LearnerWorkerHandle) => void, pick: (message: LearnerToPage) => T | undefined, onCrash: (reason: string) => T): Promise<T> {
  const handle = new LearnerWorkerHandle(createWorker, options);
  return new Promise<T>((resolve) => {
    handle.onCrash((reason) => resolve(onCrash(reason)));
    handle.onMessage((message) => {
      const answer = pick(message);
      if (answer === undefined) return;
      handle.dispose();
      resolve(answer);
    });
    send(handle);
  });
}

export type LearnerReplay = { ok: true; steps: ReplayStep[] } | { ok: false; error: ErrorInfo };

/** Feed chunks into the learner's exercise 2 reader, one push each, in a worker. */
export function runLearnerReader(source: LearnerSource, framing: FramingName, chunks: readonly Uint8Array[], createWorker: () => LearnerWorkerLike, options: LearnerWorkerOptions = {}): Promise<LearnerReplay> {
  return oneShot<LearnerReplay>(
    createWorker,
    options,
    (handle) => handle.post({ type: 'reader-run', jobId: 1, source, framing, chunks: chunks.map((chunk) => chunk.slice()) }),
    (message) => (message.type === 'reader-result' ? (message.steps ? { ok: true, steps: message.steps } : { ok: false, error: message.error ?? crashed('no result') }) : undefined),
    (reason) => ({ ok: false, error: crashed(reason) }),
  );
}

/** The learner's exercise 5 registerMcpTools, in a worker, over the tools the server listed. */
export function learnerRegisterRunner(source: () => LearnerSource, createWorker: () => LearnerWorkerLike, options: LearnerWorkerOptions = {}): RegisterRunner {
  return {
    kind: 'learner',
    run: (prefix: string, tools: readonly ToolInfo[]) =>
      oneShot<RegisterOutcome>(
        createWorker,
        options,
        (handle) => handle.post({ type: 'register-run', jobId: 1, source: source(), prefix, tools: [...tools] }),
        (message) => (message.type === 'register-result' ? message.outcome : undefined),
        (reason) => ({ ok: false, count: null, error: crashed(reason), registry: [] }),
      ),
  };
}
