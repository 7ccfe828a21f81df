// Writes a trace file (docs/trace-format) as a recording runs. Lines are written with writeSync
// (batched per tick), so what was written is in the kernel's hands and survives the process
// exiting: on SIGINT/SIGTERM and when the recorded program ends, flush() writes the rest at once,
// and a process 'exit' hook flushes whatever is left even on an uncaught error.
//
// The header is line 1 but the framing may only be known once the first bytes crossed: until
// then the events wait in memory (a handful: spawn, then the first bytes), and the header is
// written as soon as the guess is made, or with "ndjson" if the recording ends before any bytes.

import { closeSync, openSync, writeSync } from 'node:fs';
import { guessFraming } from '../src/runtime/trace/framing-guess.ts';
import type { TapEvent } from '../src/runtime/tap-protocol.ts';
import type { TraceEvent, TraceFraming, TraceHeader } from '../src/runtime/trace/trace-format.ts';
import { serializeTraceEvent, serializeTraceHeader } from '../src/runtime/trace/trace-serialize.ts';

/** Flush early once this much is waiting, so a fast stream never piles up in memory. */
const FLUSH_BYTES = 1 << 20;
/** Guess from at most this many bytes; after that, whatever they are, the trace says ndjson. */
const GUESS_LIMIT = 64;

/** The header, less what the file decides: the framing and whether it was given. */
export type TraceHeaderDraft = TraceHeader extends infer H ? (H extends TraceHeader ? Omit<H, 'framing' | 'framingSource'> : never) : never;

export interface TraceFile {
  readonly path: string;
  /** Events written or waiting, in order. */
  readonly eventCount: number;
  /** Bytes of c2s and s2c recorded. */
  readonly payloadBytes: number;
  /**
   * Add one event. `line` is the event already encoded by the tap (encodeTapEvent): the same
   * text serializeTraceEvent would make, so the hot path does not encode every chunk twice.
   * A tap event is a trace event as it is (docs/trace-format), whatever events the tap grows.
   */
  add(event: TraceEvent | TapEvent, line?: string): void;
  /** Write everything waiting, synchronously (the header too, guessing ndjson if it must). */
  flush(): void;
  /** Flush and close; later events are dropped. */
  close(): void;
}

export function openTraceFile(path: string, draft: TraceHeaderDraft, framing: TraceFraming | null): TraceFile {
  // Opening first means a bad path fails before anything is spawned or listened on.
  const fd = openSync(path, 'w');
  let header: TraceHeader | null = framing ? ({ ...draft, framing, framingSource: 'given' } as TraceHeader) : null;
  let headerWritten = false;
  let guessBytes = new Uint8Array(0);
  let waiting: string[] = [];
  let waitingBytes = 0;
  let scheduled = false;
  let closed = false;
  let eventCount = 0;
  let payloadBytes = 0;

  const onExit = (): void => flush();
  process.on('exit', onExit);

  function decideHeader(framingGuessed: 'content-length' | 'ndjson'): void {
    header = { ...draft, framing: framingGuessed, framingSource: 'guessed' } as TraceHeader;
  }

  function guessFrom(event: TraceEvent | TapEvent): void {
    if (header || (event.ev !== 'c2s' && event.ev !== 's2c')) return;
    const bytes = Uint8Array.from(atob(event.b64), (char) => char.charCodeAt(0));
    const joined = new Uint8Array(guessBytes.length + bytes.length);
    joined.set(guessBytes);
    joined.set(bytes, guessBytes.length);
    guessBytes = joined;
    const guess = guessFraming(guessBytes);
    if (guess) decideHeader(guess);
    else if (guessBytes.length >= GUESS_LIMIT) decideHeader('ndjson');
  }

  function flush(): void {
    if (closed) return;
    if (!header) decideHeader('ndjson');
    if (waiting.length === 0 && headerWritten) return;
    let text = '';
    if (!headerWritten) {
      text = `${serializeTraceHeader(header as TraceHeader)}\n`;
      headerWritten = true;
    }
    text += waiting.join('');
    waiting = [];
    waitingBytes = 0;
    writeAll(text);
  }
  function writeAll(text: string): void {
    const bytes = Buffer.from(text, 'latin1'); // the lines are ASCII (serializeTrace escapes the rest)
    let offset = 0;
    while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
  }

  function schedule(): void {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      // While the framing is unknown the lines wait: the header must be line 1.
      if (header) flush();
    });
  }

  return {
    path,
    get eventCount() {
      return eventCount;
    },
    get payloadBytes() {
      return payloadBytes;
    },
    add(event, encoded) {
      if (closed) return;
      eventCount++;
      if ((event.ev === 'c2s' || event.ev === 's2c') && 'b64' in event) payloadBytes += (event.b64.length / 4) * 3 - (event.b64.endsWith('==') ? 2 : event.b64.endsWith('=') ? 1 : 0);
      guessFrom(event);
      const line = `${encoded ?? serializeTraceEvent(event as TraceEvent)}\n`;
      waiting.push(line);
      waitingBytes += line.length;
      if (header && waitingBytes >= FLUSH_BYTES) flush();
      else schedule();
    },
    flush,
    close() {
      if (closed) return;
      flush();
      closed = true;
      process.off('exit', onExit);
      closeSync(fd);
    },
  };
}
