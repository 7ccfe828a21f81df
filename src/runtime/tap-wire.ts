// Turns a channel of tap lines into a Wire. The WebContainer host (a pseudo-terminal), the bridge
// host (a WebSocket) and the worker host (postMessage) each carry the same tap line protocol, so
// they share this one translation: commands out, events in, and one honest account of why the
// server went away.

import type { Unsubscribe } from '../protocol/transport.ts';
import type { HostKind, Wire } from './host.ts';
import { base64ToBytes, bytesToBase64, encodeTapCommand, parseTapEvent, type TapEvent, type TapExitEvent } from './tap-protocol.ts';
import { ListenerSet } from './listener-set.ts';

/** A two-way channel of text lines (without their line ends). */
export interface LineChannel {
  send(line: string): void;
  /** Close from our side. Does not call the channel's own onClose listeners. */
  close(): void;
  onLine(listener: (line: string) => void): Unsubscribe;
  /** The other side went away; `reason` is for people to read. */
  onClose(listener: (reason: string) => void): Unsubscribe;
}

export interface TapWireOptions {
  /** After kill(), how long to wait for the tap's exit event before closing the channel anyway. */
  killGraceMs?: number;
  /** Events and chunks that arrive before anyone listens are kept for the first listener, up to this many. */
  replayLimit?: number;
}

export const DEFAULT_KILL_GRACE_MS = 3000;
const DEFAULT_REPLAY_LIMIT = 64;

export function createTapWire(kind: HostKind, channel: LineChannel, options: TapWireOptions = {}): Wire {
  const killGraceMs = options.killGraceMs ?? DEFAULT_KILL_GRACE_MS;
  const replayLimit = options.replayLimit ?? DEFAULT_REPLAY_LIMIT;
  const dataListeners = new ReplayingListeners<Uint8Array>(replayLimit);
  const eventListeners = new ReplayingListeners<TapEvent>(replayLimit);
  const closes = new ListenerSet<string>();
  let closedReason: string | null = null;
  let eofSent = false;
  let lastError: string | null = null;
  let killTimer: ReturnType<typeof setTimeout> | undefined;
  // `let` with no-op defaults: a channel may deliver (and so close us) while we subscribe.
  let stopLines: Unsubscribe = () => {};
  let stopClose: Unsubscribe = () => {};

  function close(reason: string): void {
    if (closedReason !== null) return;
    closedReason = reason;
    clearTimeout(killTimer);
    stopLines();
    stopClose();
    channel.close();
    closes.emit(reason, callSafely);
    closes.clear();
  }

  function send(line: string): void {
    if (closedReason === null) channel.send(line);
  }

  stopLines = channel.onLine((line) => {
    if (closedReason !== null) return;
    const event = parseTapEvent(line);
    if (!event) return;
    eventListeners.emit(event);
    switch (event.ev) {
      case 's2c':
        dataListeners.emit(base64ToBytes(event.b64));
        return;
      case 'error':
        lastError = event.message;
        return;
      case 'exit':
        close(describeExit(event));
        return;
      default:
        return;
    }
  });

  stopClose = channel.onClose((reason) => {
    // Without an exit event the tap never saw its server end; its last error (a failed spawn, say)
    // explains more than "the channel closed" does.
    close(lastError === null ? reason : `${lastError} (${reason})`);
  });
  if (closedReason !== null) {
    stopLines();
    stopClose();
  }

  return {
    host: kind,
    write(bytes) {
      send(encodeTapCommand({ cmd: 'write', b64: bytesToBase64(bytes) }));
    },
    end() {
      if (eofSent) return;
      eofSent = true;
      send(encodeTapCommand({ cmd: 'eof' }));
    },
    kill() {
      if (closedReason !== null || killTimer !== undefined) return;
      send(encodeTapCommand({ cmd: 'kill' }));
      // A tap that is itself stuck never reports the exit: stop waiting for it.
      killTimer = setTimeout(() => close(`server killed (no exit report within ${formatSeconds(killGraceMs)})`), killGraceMs);
    },
    onData(listener) {
      return dataListeners.add(listener);
    },
    onTapEvent(listener) {
      return eventListeners.add(listener);
    },
    onClose(listener) {
      if (closedReason !== null) {
        const reason = closedReason;
        queueMicrotask(() => listener(reason));
        return () => {};
      }
      return closes.add(listener);
    },
  };
}

/**
 * The tap lines one channel message carries. The bridge sends the lines of one event-loop turn
 * together, '\n'-separated, to spend fewer WebSocket messages; one line alone is the simple case.
 */
export function tapLinesOf(message: string): string[] {
  if (!message.includes('\n')) return message.trim() === '' ? [] : [message];
  return message.split('\n').filter((line) => line.trim() !== '');
}

/** The words the live panel shows when a server ends. */
export function describeExit(event: Pick<TapExitEvent, 'code' | 'signal'>): string {
  if (event.signal) return `server was stopped by ${event.signal}`;
  if (event.code === null) return 'server exited';
  return `server exited with code ${event.code}`;
}

function formatSeconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Listeners that may subscribe late: a host starts reading before start() resolves, so the spawn
 * event (and anything else early) is kept for the first listener instead of being lost.
 */
class ReplayingListeners<T> {
  private readonly listeners = new Set<(value: T) => void>();
  private backlog: T[] | null = [];

  constructor(private readonly limit: number) {}

  add(listener: (value: T) => void): Unsubscribe {
    this.listeners.add(listener);
    const backlog = this.backlog;
    this.backlog = null;
    for (const value of backlog ?? []) callSafely(listener, value);
    return () => this.listeners.delete(listener);
  }

  emit(value: T): void {
    if (this.backlog !== null) {
      if (this.backlog.length < this.limit) this.backlog.push(value);
      return;
    }
    for (const listener of [...this.listeners]) callSafely(listener, value);
  }
}

// One listener's bug must not stop the others from hearing the event, nor tear down the wire;
// rethrowing on a fresh stack still surfaces it (console, test runner).
function callSafely<T>(listener: (value: T) => void, value: T): void {
  try {
    listener(value);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
