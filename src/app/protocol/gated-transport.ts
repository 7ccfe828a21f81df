// The pipe between the live server and the stepper's client, with a gate on the client's side.
// The server's bytes arrive whenever the server writes them; the gate holds them in order until the
// stepper lets the client read, so one press of Step shows one thing happening. Writes and EOF go
// straight through.

import type { ByteTransport, Unsubscribe } from '../../protocol/transport.ts';

/** `chunkIndex` and `arrivedAt` say which recorded chunk this is and when it reached the page. */
export type HeldItem = { type: 'data'; bytes: Uint8Array; chunkIndex: number; arrivedAt: number } | { type: 'close'; reason: string };

/** The half of the wire the gate forwards to. */
export interface WireSink {
  write(bytes: Uint8Array): void;
  end(): void;
}

export class GatedTransport implements ByteTransport {
  private readonly queue: HeldItem[] = [];
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly queuedListeners = new Set<() => void>();
  private readonly writeListeners = new Set<(bytes: Uint8Array) => void>();
  private readonly endListeners = new Set<() => void>();
  private closed = false;
  private endCalled = false;

  constructor(private readonly sink: WireSink) {}

  // ---- the client's side (ByteTransport) ----

  write(bytes: Uint8Array): void {
    // After the server exited the wire drops writes itself; the client's state machine decides
    // whether writing then is a mistake.
    this.sink.write(bytes);
    for (const listener of [...this.writeListeners]) listener(bytes);
  }

  end(): void {
    if (this.endCalled) return;
    this.endCalled = true;
    this.sink.end();
    for (const listener of [...this.endListeners]) listener();
  }

  onData(listener: (chunk: Uint8Array) => void): Unsubscribe {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): Unsubscribe {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  // ---- the stepper's side ----

  get stdinEnded(): boolean {
    return this.endCalled;
  }

  /** Bytes from the server waiting for the client to read them. */
  get heldBytes(): number {
    return this.queue.reduce((sum, item) => sum + (item.type === 'data' ? item.bytes.length : 0), 0);
  }

  get hasHeld(): boolean {
    return this.queue.length > 0;
  }

  hold(item: HeldItem): void {
    this.queue.push(item);
    for (const listener of [...this.queuedListeners]) listener();
  }

  /** Hand the oldest held item to the client; returns it (undefined when nothing is held). */
  releaseNext(): HeldItem | undefined {
    const item = this.queue.shift();
    if (item === undefined) return undefined;
    if (item.type === 'data') {
      for (const listener of [...this.dataListeners]) listener(item.bytes);
    } else if (!this.closed) {
      this.closed = true;
      for (const listener of [...this.closeListeners]) listener(item.reason);
    }
    return item;
  }

  onQueued(listener: () => void): Unsubscribe {
    this.queuedListeners.add(listener);
    return () => this.queuedListeners.delete(listener);
  }

  onWrite(listener: (bytes: Uint8Array) => void): Unsubscribe {
    this.writeListeners.add(listener);
    return () => this.writeListeners.delete(listener);
  }

  onEnd(listener: () => void): Unsubscribe {
    this.endListeners.add(listener);
    return () => this.endListeners.delete(listener);
  }
}
