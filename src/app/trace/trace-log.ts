// A trace's events as message-log entries: the same TapEventDecoder the live panel runs, so a trace
// shows exactly what the live host showed (frames, chunk boundaries, held bytes). Pure; the trace
// worker runs it, and so do the tests.

import { getFraming } from '../../protocol/framing/index.ts';
import type { Framing, FramingName } from '../../protocol/framing/types.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import type { TraceEvent, TraceHeader } from '../../runtime/trace/index.ts';
import { HttpMessageReader } from '../../protocol/http/http-message-reader.ts';
import type { FrameReader } from '../../protocol/framing/types.ts';
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
      return { ...this.describe(direction, item.value), length: item.length, startedEarlier };
    });
    // Each connection's bytes are their own stream of text.
    const text = stream.text.decode(bytes, { stream: true });
    return { seq, t, type: 'bytes', direction, bytes, text, frames, bufferedBytes: stream.reader.bufferedBytes, conn };
  }
}

export class TraceLogDecoder {
  private readonly decoder: TapEventDecoder;

  constructor(header: TraceHeader) {
    const framing = logFramingOf(header);
    this.decoder =
      framing === null
        ? new ConnectionTapEventDecoder(UNFRAMED)
        : new TapEventDecoder(getFraming(framing));
  }

  /** The entry for one event (an HTTP relay's open/close is a connection row, as in the live log). */
  decode(event: TraceEvent): LogEntry | null {
    const entry = this.decoder.decode(asTapEvent(event));
    // `--between` traces say which process spoke: the client's own spawn, stderr, exit and errors.
    return 'proc' in event && event.proc === 'client' ? { ...entry, proc: 'client' } : entry;
  }
}

// The trace's extra fields (proc, conn) are not the tap's: the decoder reads only the tap's.
function asTapEvent(event: TraceEvent): TapEvent {
  switch (event.ev) {
    case 'spawn':
      return { tap: 1, ev: 'spawn', t: event.t, pid: event.pid, argv: event.argv };
    case 'c2s':
    case 's2c':
      return { tap: 1, ev: event.ev, t: event.t, b64: event.b64, ...(event.conn === undefined ? {} : { conn: event.conn }) };
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
