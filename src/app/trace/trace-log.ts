// A trace's events as message-log entries: the same TapEventDecoder the live panel runs, so a trace
// shows exactly what the live host showed (frames, chunk boundaries, held bytes). Pure; the trace
// worker runs it, and so do the tests.

import { getFraming } from '../../protocol/framing/index.ts';
import type { Framing, FramingName } from '../../protocol/framing/types.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import type { TraceEvent, TraceHeader } from '../../runtime/trace/index.ts';
import { HttpMessageReader } from '../../protocol/http/http-message-reader.ts';
import type { FrameReader, ReadItem } from '../../protocol/framing/types.ts';
import { endsInContinuationBytes, endsInsideACharacter, splitsACharacter } from './utf8-edges.ts';
import { TapEventDecoder, type LogEntry, type LogFrame, type WireDirection } from '../live-session/message-log.ts';

/**
 * The stdio framing the log's readers use. HTTP traces have no stdio framing: each connection's
 * bytes are read as HTTP/1.1 (HttpMessageReader), a request or response to the JSON-RPC messages
 * its JSON body or its event stream carries; bytes without a connection stay unframed chunks.
 */
export function logFramingOf(header: TraceHeader): FramingName | null {
  return header.framing === 'http' ? null : header.framing;
}

// Reads nothing: for HTTP bytes that name no connection, so they still show, honestly, as chunks.
const UNFRAMED: Framing = {
  name: 'ndjson',
  encode: () => new Uint8Array(0),
  createReader: () => ({ push: () => [], bufferedBytes: 0 }),
};

/**
 * The log's decoder for HTTP sessions: bytes that name a relayed connection (`conn`) go to that
 * connection's own HttpMessageReader for their direction (one request and response per
 * connection), and their entries keep `conn`, which opens the HTTP inspector on the connection.
 * Here, not in the live log's decoder, so the first paint does not carry it.
 */
class ConnectionTapEventDecoder extends TapEventDecoder {
  private readonly streams = new Map<string, { reader: FrameReader; pushed: number; text: TextDecoder }>();

  protected override decodeBytes(seq: number, direction: WireDirection, t: number, bytes: Uint8Array, conn: number | undefined): LogEntry {
    if (conn === undefined) return super.decodeBytes(seq, direction, t, bytes, conn);
    const key = `${direction}:${conn}`;
    let stream = this.streams.get(key);
    if (stream === undefined) {
      stream = { reader: new HttpMessageReader(direction === 'c2s' ? 'request' : 'response'), pushed: 0, text: new TextDecoder() };
      this.streams.set(key, stream);
    }
    const chunkStart = stream.pushed;
    stream.pushed += bytes.length;
    const frames = stream.reader.push(bytes).map((item): LogFrame => {
      const startedEarlier = item.offset < chunkStart;
      if (item.type === 'error') return { type: 'error', kind: item.kind, detail: item.detail, length: item.length, startedEarlier };
      return this.describe(direction, item.value, item.length, startedEarlier);
    });
    // Each connection's bytes are their own stream of text.
    const text = stream.text.decode(bytes, { stream: true });
    return { seq, t, type: 'bytes', direction, bytes, text, frames, bufferedBytes: stream.reader.bufferedBytes, conn };
  }
}

/** Where a frame's JSON body lies in its chunk, [start, end) in bytes. */
export interface BodySpan {
  start: number;
  end: number;
}

/**
 * The stdio decoder of the trace worker: the live log's entries, plus where each frame's body lies
 * in its chunk, so the page decodes a frame's JSON from the bytes it already has instead of being
 * sent a second copy. With `textWhereSplit`, a chunk's text is made only where a character
 * straddles its ends (or the stream decoder still holds part of one); elsewhere it is left empty,
 * because decoding the chunk alone gives the same text and the page does that when it is shown.
 */
class StdioTraceDecoder extends TapEventDecoder {
  spans: (BodySpan | null)[] = [];
  /** The last chunk's text came from the stream decoder (otherwise it was left for the page). */
  streamedText = true;
  /** The stream decoder of a direction holds the first bytes of a character. */
  private readonly holdsPart: Record<WireDirection, boolean> = { c2s: false, s2c: false };
  private readonly framingName: FramingName;

  constructor(
    framing: Framing,
    private readonly textWhereSplit: boolean,
  ) {
    super(framing);
    this.framingName = framing.name;
  }

  protected override read(items: readonly ReadItem[], chunkStart: number, chunk: Uint8Array): void {
    // The spans are for the trace worker's packer, the one caller with textWhereSplit.
    if (!this.textWhereSplit) return;
    const name = this.framingName;
    this.spans = items.map((item) => (item.type === 'message' && item.offset >= chunkStart ? bodySpan(name, chunk, item.offset - chunkStart, item.length) : null));
  }

  protected override chunkText(direction: WireDirection, bytes: Uint8Array): string {
    this.streamedText = !this.textWhereSplit || this.holdsPart[direction] || splitsACharacter(bytes);
    if (!this.streamedText) return '';
    // Conservative: a chunk of continuation bytes alone may leave part of a character held too.
    this.holdsPart[direction] = endsInsideACharacter(bytes) || endsInContinuationBytes(bytes);
    return super.chunkText(direction, bytes);
  }
}

/** The body of a whole frame at `chunk[start, start + length)`: an NDJSON line without its line end, or what follows a Content-Length header block. */
export function bodySpan(framing: FramingName, chunk: Uint8Array, start: number, length: number): BodySpan | null {
  const end = start + length;
  if (framing === 'ndjson') {
    const beforeLf = end - 1;
    return { start, end: beforeLf > start && chunk[beforeLf - 1] === 0x0d ? beforeLf - 1 : beforeLf };
  }
  for (let i = start; i + 3 < end; i++) {
    if (chunk[i] === 0x0d && chunk[i + 1] === 0x0a && chunk[i + 2] === 0x0d && chunk[i + 3] === 0x0a) return { start: i + 4, end };
  }
  return null;
}

export interface TraceLogDecoderOptions {
  /** Only the trace worker: leave a chunk's text empty where the page can decode it alone (see StdioTraceDecoder). */
  textWhereSplit?: boolean;
}

export class TraceLogDecoder {
  private readonly decoder: TapEventDecoder;
  private readonly stdio: StdioTraceDecoder | null;

  constructor(header: TraceHeader, options: TraceLogDecoderOptions = {}) {
    const framing = logFramingOf(header);
    this.stdio = framing === null ? null : new StdioTraceDecoder(getFraming(framing), options.textWhereSplit ?? false);
    this.decoder = this.stdio ?? new ConnectionTapEventDecoder(UNFRAMED);
  }

  /** The entry for one event (an HTTP relay's open/close is a connection row, as in the live log). */
  decode(event: TraceEvent): LogEntry | null {
    const entry = this.decoder.decode(asTapEvent(event));
    // `--between` traces say which process spoke: the client's own spawn, stderr, exit and errors.
    return 'proc' in event && event.proc === 'client' ? { ...entry, proc: 'client' } : entry;
  }

  /** For the bytes entry decode() just returned: its text is the stream decoder's, not what the chunk decodes to alone. */
  streamedText(): boolean | undefined {
    return this.stdio?.streamedText;
  }

  /** For the bytes entry decode() just returned, each frame's body in its chunk (null: it began in an earlier chunk, or an HTTP trace). */
  bodySpans(): readonly (BodySpan | null)[] {
    return this.stdio?.spans ?? [];
  }
}

// The trace's extra fields (proc, conn) are not the tap's: the decoder reads only the tap's.
function asTapEvent(event: TraceEvent): TapEvent {
  switch (event.ev) {
    case 'spawn':
      return { tap: 1, ev: 'spawn', t: event.t, pid: event.pid, argv: event.argv };
    case 'c2s':
    case 's2c':
      // Its fields are exactly the tap's (trace-validate.ts allows no others): used as it is, since
      // a copy of each of a 100 MB trace's events was a measurable share of opening it.
      return event;
    case 'stderr':
      return { tap: 1, ev: event.ev, t: event.t, b64: event.b64 };
    case 'exit':
      return { tap: 1, ev: 'exit', t: event.t, code: event.code, signal: event.signal };
    case 'error':
      return { tap: 1, ev: 'error', t: event.t, message: event.message };
    case 'open':
      return { tap: 1, ev: 'open', t: event.t, conn: event.conn };
    case 'close':
      return { tap: 1, ev: 'close', t: event.t, conn: event.conn, ...(event.message === undefined ? {} : { message: event.message }) };
  }
}
