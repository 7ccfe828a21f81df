// A trace's events as message-log entries: the same TapEventDecoder the live panel runs, so a trace
// shows exactly what the live host showed (frames, chunk boundaries, held bytes). Pure; the trace
// worker runs it, and so do the tests.

import { getFraming } from '../../protocol/framing/index.ts';
import type { Framing, FramingName } from '../../protocol/framing/types.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import type { TraceEvent, TraceHeader } from '../../runtime/trace/index.ts';
import { HttpMessageReader } from '../../protocol/http/http-message-reader.ts';
import { TapEventDecoder, type LogEntry } from '../live-session/message-log.ts';

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

export class TraceLogDecoder {
  private readonly decoder: TapEventDecoder;

  constructor(header: TraceHeader) {
    const framing = logFramingOf(header);
    this.decoder =
      framing === null
        ? new TapEventDecoder(UNFRAMED, (direction) => new HttpMessageReader(direction === 'c2s' ? 'request' : 'response'))
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
