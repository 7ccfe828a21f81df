// Tap lines bound for one WebSocket, sent several to a message. Every WebSocket message costs the
// bridge, the browser and (on a small machine) the echo server's CPU time, so lines are gathered
// until the end of the event-loop turn and go out joined by '\n'.
//
// Lines that nobody waits for — the c2s echo of what the page wrote and the server's stderr log —
// may wait a little longer (HOLD_MS) for the next line that somebody does wait for (the server's
// reply on stdout, an exit), and ride in the same message. Their `t` timestamps are taken when
// the bytes moved, so the live panel still shows true times; only delivery is later, by at most
// HOLD_MS. Measured on the 2-core machine: one message per echo call instead of about three, and
// the bridge's round trip 1.1 ms instead of 1.5 ms.

/** Longest a line that nobody waits for is held back, in milliseconds. */
export const HOLD_MS = 2;
/** A batch this large is sent at once, so one message never grows without bound. */
export const MAX_BATCH_CHARS = 256 * 1024;

export interface BatchClock {
  /** Run `flush` at the end of the current event-loop turn. */
  endOfTurn(flush: () => void): void;
  /** Run `flush` after `ms` milliseconds; the returned function cancels it. */
  after(ms: number, flush: () => void): () => void;
}

const realClock: BatchClock = {
  endOfTurn: (flush) => void setImmediate(flush),
  after: (ms, flush) => {
    const timer = setTimeout(flush, ms);
    return () => clearTimeout(timer);
  },
};

export class LineBatch {
  private lines: string[] = [];
  private chars = 0;
  private turnScheduled = false;
  private cancelHold: (() => void) | null = null;

  constructor(
    private readonly deliver: (text: string) => void,
    private readonly clock: BatchClock = realClock,
  ) {}

  /** Queue a line. `canWait`: nobody is waiting for it, so it may be held up to HOLD_MS. */
  add(line: string, canWait = false): void {
    this.lines.push(line);
    this.chars += line.length;
    if (this.chars >= MAX_BATCH_CHARS) return this.flush();
    if (!canWait) return this.flushAtEndOfTurn();
    this.cancelHold ??= this.clock.after(HOLD_MS, () => {
      this.cancelHold = null;
      this.flush();
    });
  }

  /** Deliver what is queued now (a no-op when nothing is). */
  flush(): void {
    this.stopHolding();
    if (this.lines.length === 0) return;
    const text = this.lines.length === 1 ? (this.lines[0] as string) : this.lines.join('\n');
    this.lines = [];
    this.chars = 0;
    this.deliver(text);
  }

  /** Drop what is queued: nobody is left to read it. */
  clear(): void {
    this.stopHolding();
    this.lines = [];
    this.chars = 0;
  }

  private flushAtEndOfTurn(): void {
    if (this.turnScheduled) return;
    this.turnScheduled = true;
    this.clock.endOfTurn(() => {
      this.turnScheduled = false;
      this.flush();
    });
  }

  private stopHolding(): void {
    this.cancelHold?.();
    this.cancelHold = null;
  }
}
