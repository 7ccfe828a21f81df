// A ByteTransport in front of a server's stdin that can hold the client's writes and then pass
// them on as ONE write. "Check my client" needs two requests to reach the SDK server in one read:
// only then does the SDK server answer the later, quicker one (tools/list) first, every time. Two
// separate writes may be read apart, and the first request is then answered before the second
// even arrives, which would let a client that pairs answers by arrival order pass by luck. A pipe
// is free to merge writes like this, so it is a situation every client must cope with.

import type { ByteTransport } from '../../protocol/transport.ts';

const NEWLINE = 0x0a;

export interface HeldWrites extends ByteTransport {
  /** From now on keep writes back, until `lines` complete lines are held (or `release()`). */
  holdUntilLines(lines: number): Promise<void>;
  /** Pass on everything held as one write and stop holding. */
  release(): void;
}

export function heldWrites(inner: ByteTransport): HeldWrites {
  let held: Uint8Array[] | null = null;
  let wanted = 0;
  let reached: (() => void) | null = null;

  const newlines = () => (held ?? []).reduce((count, chunk) => count + chunk.filter((byte) => byte === NEWLINE).length, 0);

  function release(): void {
    if (held === null) return;
    const chunks = held;
    held = null;
    reached = null;
    const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      all.set(chunk, at);
      at += chunk.length;
    }
    if (all.length > 0) inner.write(all);
  }

  return {
    write(bytes) {
      if (held === null) return inner.write(bytes);
      held.push(bytes.slice());
      if (newlines() >= wanted) reached?.();
    },
    end() {
      release();
      inner.end();
    },
    onData: (listener) => inner.onData(listener),
    onClose: (listener) => inner.onClose(listener),
    holdUntilLines(lines) {
      held = [];
      wanted = lines;
      return new Promise((resolve) => {
        reached = resolve;
      });
    },
    release,
  };
}
