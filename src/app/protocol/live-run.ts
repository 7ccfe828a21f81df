// One server run as the stepper sees it: the wire's tap events recorded into two byte streams,
// each direction read with the reference reader to find its frames, the server's output held in
// the gate until the stepper releases it, and the driving client attached to the gate. It reports
// arrows (frames the moment their last byte is seen or released) and driver events; the stepper
// store decides which step they belong to.

import { getFraming } from '../../protocol/framing/index.ts';
import type { FrameReader, FramingName } from '../../protocol/framing/types.ts';
import { idKey, type JsonRpcMessage } from '../../protocol/jsonrpc.ts';
import type { Unsubscribe } from '../../protocol/transport.ts';
import type { Wire } from '../../runtime/host.ts';
import { tapEventBytes } from '../../runtime/tap-protocol.ts';
import { ByteStream, type WireDirection } from '../../protocol/inspect/byte-stream.ts';
import type { CallOutcome, ClientDriver, DriverEvent } from '../../sandbox/client-driver.ts';
import { GatedTransport } from './gated-transport.ts';
import { describeItem, type Arrow } from './stepper-records.ts';

/** How long to wait for stdin bytes after the client's call failed, in case it wrote first. */
const FAILED_CALL_GRACE_MS = 150;

export type NewArrow = Omit<Arrow, 'seq' | 'drawnAt'>;

export interface LiveRunListener {
  arrow(arrow: NewArrow): void;
  driverEvent(event: DriverEvent): void;
  /** The held byte count changed, or a host error arrived. */
  changed(): void;
  hostError(message: string): void;
}

export class LiveRun {
  readonly streams: Record<WireDirection, ByteStream> = { c2s: new ByteStream('c2s'), s2c: new ByteStream('s2c') };
  readonly gate: GatedTransport;
  private readonly readers: Record<WireDirection, FrameReader>;
  /** Requests seen on stdin, by id key, so a response arrow can name what it answers. */
  private readonly requests = new Map<string, string>();
  private readonly unsubscribe: Unsubscribe[] = [];
  private exitInfo: { code: number | null; signal: string | null; reason: string } | null = null;
  private exitSeen: { t: number | null; arrivedAt: number } | null = null;
  private readonly exitWaiters = new Set<() => void>();
  private c2sFrames = 0;
  private readonly stdinListeners = new Set<() => void>();
  /** Set while the stepper writes around the client, so the frame's arrow is marked as such. */
  private rawWrites = 0;
  /** Frames written so far: by the client (its `sent` events) and around it. */
  private written = 0;
  private disposed = false;
  /** Waits in progress end at once (false) when the run is thrown away. */
  private readonly disposeListeners = new Set<() => void>();

  constructor(
    readonly wire: Wire,
    readonly framing: FramingName,
    readonly driver: ClientDriver,
    private readonly listener: LiveRunListener,
    private readonly now: () => number,
  ) {
    const framingImpl = getFraming(framing);
    this.readers = { c2s: framingImpl.createReader(), s2c: framingImpl.createReader() };
    this.gate = new GatedTransport(wire);
    this.unsubscribe.push(
      wire.onTapEvent((event) => {
        if (this.disposed) return;
        switch (event.ev) {
          case 'c2s':
            this.onStdin(tapEventBytes(event), event.t);
            return;
          case 's2c': {
            const bytes = tapEventBytes(event);
            const chunk = this.streams.s2c.append(bytes, event.t, this.now());
            this.gate.hold({ type: 'data', bytes, chunkIndex: chunk.index, arrivedAt: chunk.receivedAt });
            this.listener.changed();
            return;
          }
          case 'exit':
            this.onExit({ code: event.code, signal: event.signal, reason: event.signal ? `signal ${event.signal}` : `code ${String(event.code)}` }, event.t);
            return;
          case 'error':
            this.listener.hostError(event.message);
            return;
          default:
            return;
        }
      }),
      wire.onClose((reason) => {
        if (!this.disposed && this.exitInfo === null) this.onExit({ code: null, signal: null, reason }, null);
      }),
      driver.onEvent((event) => {
        if (event.type === 'sent') this.written++;
        if (!this.disposed) this.listener.driverEvent(event);
      }),
      // EOF carries no bytes and the tap reports none: the arrow is drawn when the client ends stdin.
      this.gate.onEnd(() => {
        if (this.disposed) return;
        const now = this.now();
        this.listener.arrow({ kind: 'eof', direction: 'c2s', method: null, id: null, value: null, detail: null, frame: null, chunks: [], t: null, arrivedAt: now, aroundClient: false, exit: null });
      }),
    );
  }

  startDriver(): Promise<CallOutcome> {
    return this.driver.start(this.gate, this.framing);
  }

  get stdinFrames(): number {
    return this.c2sFrames;
  }

  get exited(): boolean {
    return this.exitInfo !== null;
  }

  /** Write a frame onto stdin without the client knowing: the lab's misbehaving client. */
  writeAroundClient(message: JsonRpcMessage): void {
    this.rawWrites++;
    this.written++;
    this.wire.write(getFraming(this.framing).encode(message));
  }

  /**
   * Let the client read the oldest held item. Returns undefined when nothing is held, else whether
   * a response (to anything) was completed by it, so a receive step knows when to stop.
   */
  releaseNext(): { completedResponse: boolean; closed: boolean } | undefined {
    const item = this.gate.releaseNext();
    if (item === undefined) return undefined;
    this.listener.changed();
    if (item.type === 'close') {
      this.drawExit();
      return { completedResponse: false, closed: true };
    }
    let completedResponse = false;
    const chunk = this.streams.s2c.chunks[item.chunkIndex]!;
    for (const readItem of this.readers.s2c.push(item.bytes)) {
      const described = describeItem(readItem, this.requests);
      if (described.kind === 'response' || described.kind === 'error-response') completedResponse = true;
      this.listener.arrow({
        ...described,
        direction: 's2c',
        frame: { offset: readItem.offset, length: readItem.length },
        chunks: this.chunksOf('s2c', readItem.offset, readItem.length),
        t: chunk.t,
        arrivedAt: item.arrivedAt,
        aroundClient: false,
        exit: null,
      });
    }
    return { completedResponse, closed: false };
  }

  releaseAll(): void {
    while (this.releaseNext() !== undefined) {
      // keep releasing
    }
  }

  /** Resolves true when something new is held, false after `ms`. */
  waitForHeld(ms: number): Promise<boolean> {
    if (this.gate.hasHeld) return Promise.resolve(true);
    return this.wait((done) => this.gate.onQueued(() => done(true)), ms);
  }

  /**
   * Resolves true once stdin has carried `count` frames in all, false after `ms`. When `failed`
   * resolves first (the client's call threw), waits only a moment longer: a call may write and
   * then throw, but one that threw before writing will never write.
   */
  waitForStdinFrames(count: number, ms: number, failed: Promise<void>): Promise<boolean> {
    if (this.c2sFrames >= count) return Promise.resolve(true);
    return this.wait((done) => {
      const listener = () => {
        if (this.c2sFrames >= count) done(true);
      };
      this.stdinListeners.add(listener);
      let grace: ReturnType<typeof setTimeout> | undefined;
      void failed.then(() => {
        grace = setTimeout(() => done(this.c2sFrames >= count), FAILED_CALL_GRACE_MS);
      });
      return () => {
        this.stdinListeners.delete(listener);
        clearTimeout(grace);
      };
    }, ms);
  }

  /**
   * Resolves true once every frame the client said it wrote has crossed stdin (the tap reports it
   * a moment later), false after `ms`: a client that answers a response with a request of its own
   * (the dual-era client's fallback, its -32022 retry) gets that arrow into the same step.
   */
  waitForClientWrites(ms: number): Promise<boolean> {
    return this.waitForStdinFrames(this.written, ms, new Promise(() => {}));
  }

  waitForEnd(ms: number): Promise<boolean> {
    if (this.gate.stdinEnded) return Promise.resolve(true);
    return this.wait((done) => this.gate.onEnd(() => done(true)), ms);
  }

  waitForExit(ms: number): Promise<boolean> {
    if (this.exitInfo !== null) return Promise.resolve(true);
    return this.wait((done) => {
      const waiter = () => done(true);
      this.exitWaiters.add(waiter);
      return () => this.exitWaiters.delete(waiter);
    }, ms);
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    for (const stop of this.unsubscribe) stop();
    for (const listener of [...this.disposeListeners]) listener();
    this.driver.dispose();
    this.wire.kill();
  }

  private wait(subscribe: (done: (value: boolean) => void) => () => void, ms: number): Promise<boolean> {
    if (this.disposed) return Promise.resolve(false);
    return waitFor((done) => {
      const stop = subscribe(done);
      const onDispose = () => done(false);
      this.disposeListeners.add(onDispose);
      return () => {
        stop();
        this.disposeListeners.delete(onDispose);
      };
    }, ms);
  }

  private onStdin(bytes: Uint8Array, t: number): void {
    const chunk = this.streams.c2s.append(bytes, t, this.now());
    for (const item of this.readers.c2s.push(bytes)) {
      const described = describeItem(item, new Map());
      if (described.kind === 'request' && described.id !== null && described.method !== null) this.requests.set(idKey(described.id), described.method);
      const aroundClient = this.rawWrites > 0;
      if (aroundClient) this.rawWrites--;
      this.c2sFrames++;
      this.listener.arrow({
        ...described,
        direction: 'c2s',
        frame: { offset: item.offset, length: item.length },
        chunks: this.chunksOf('c2s', item.offset, item.length),
        t,
        arrivedAt: chunk.receivedAt,
        aroundClient,
        exit: null,
      });
      for (const listener of [...this.stdinListeners]) listener();
    }
  }

  /**
   * The process ended. Like the server's bytes, the news waits in the pipe: the client learns it
   * when it reads past the last byte (EOF on stdout), so its arrow is drawn when it is released.
   */
  private onExit(info: { code: number | null; signal: string | null; reason: string }, t: number | null): void {
    if (this.exitInfo !== null) return;
    this.exitInfo = info;
    this.exitSeen = { t, arrivedAt: this.now() };
    this.gate.hold({ type: 'close', reason: `the server exited (${info.reason})` });
    for (const waiter of [...this.exitWaiters]) waiter();
  }

  private drawExit(): void {
    const info = this.exitInfo;
    if (info === null) return;
    this.listener.arrow({
      kind: 'exit',
      direction: 's2c',
      method: null,
      id: null,
      value: null,
      detail: info.reason,
      frame: null,
      chunks: [],
      t: this.exitSeen?.t ?? null,
      arrivedAt: this.exitSeen?.arrivedAt ?? null,
      aroundClient: false,
      exit: { code: info.code, signal: info.signal },
    });
  }

  private chunksOf(direction: WireDirection, offset: number, length: number): number[] {
    return this.streams[direction].chunks.filter((chunk) => chunk.offset < offset + length && chunk.offset + chunk.length > offset).map((chunk) => chunk.index);
  }
}

/** Resolve with whatever `subscribe` reports first, or `false` after `ms`; cleans up either way. */
function waitFor(subscribe: (done: (value: boolean) => void) => () => void, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    let finished = false;
    let cleanup: () => void = () => {};
    const done = (value: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      cleanup();
      resolve(value);
    };
    const timer = setTimeout(() => done(false), ms);
    cleanup = subscribe(done);
    if (finished) cleanup();
  });
}
