// A TCP connection as the page sees one: bytes each way, and an end. The hosts provide it — the
// bridge and the WebContainer relay a real loopback TCP connection through the tap, the worker
// host carries one to the pure handler in-process — so the HTTP/1.1 client and server of this
// folder never know which host they run on.

import type { Unsubscribe } from '../transport.ts';

export interface ByteConnection {
  write(bytes: Uint8Array): void;
  /** We are done with the connection (the bytes already written still go out). */
  close(): void;
  onData(listener: (chunk: Uint8Array) => void): Unsubscribe;
  /** The connection ended: closed by the other side, or failed (`error` says why). */
  onEnd(listener: (error?: string) => void): Unsubscribe;
}

/** Open one new connection to the server; rejects when it cannot be opened. */
export type ConnectionOpener = () => Promise<ByteConnection>;

/**
 * A pair of connected ends in memory, each write arriving at the other side as one chunk (cut
 * further by `cut` when given, as a network may). For tests, and for hosts that serve in-process.
 */
export function connectionPair(cut: (bytes: Uint8Array) => Uint8Array[] = (bytes) => [bytes]): [ByteConnection, ByteConnection] {
  const sides = [0, 1].map(() => ({ data: new Set<(chunk: Uint8Array) => void>(), end: new Set<(error?: string) => void>(), ended: false }));
  const end = (): void => {
    for (const side of sides) {
      if (side.ended) continue;
      side.ended = true;
      // Delivered after the data already queued: an end never overtakes bytes.
      queueMicrotask(() => side.end.forEach((listener) => listener()));
    }
  };
  const make = (me: 0 | 1): ByteConnection => {
    const other = sides[1 - me]!;
    return {
      write(bytes) {
        if (sides[me]!.ended) return;
        const copy = bytes.slice();
        for (const piece of cut(copy)) queueMicrotask(() => other.data.forEach((listener) => listener(piece)));
      },
      close: end,
      onData(listener) {
        sides[me]!.data.add(listener);
        return () => sides[me]!.data.delete(listener);
      },
      onEnd(listener) {
        sides[me]!.end.add(listener);
        return () => sides[me]!.end.delete(listener);
      },
    };
  };
  return [make(0), make(1)];
}
