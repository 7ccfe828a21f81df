// Reads a trace file in chunks, validating every line as it goes: a 100 MB file can be fed slice by
// slice from a Web Worker, with progress, and never needs to sit in memory as one string. The first
// problem stops the reader and names its line; nothing after it is trusted.
//
// Rules beyond one line's own fields (trace-validate.ts has those):
// - line 1 is the header; a header of another version is refused as such, and only one header;
// - `conn` and `open`/`close` appear only in `http` mode, where a c2s/s2c with a `conn` needs an
//   `open` of that connection before it (and no `close` since), and an `open` needs the number
//   free; a `close` may end a connection that never opened (refused); `proc` only in `between`;
// - every line ends with "\n" ("\r\n" is accepted); an empty line is an error. A last line with no
//   "\n" is accepted if it is a whole, valid line, and refused as truncated if it is not JSON.

import { TRACE_FORMAT, TRACE_VERSION, type Trace, type TraceEvent, type TraceHeader } from './trace-format.ts';
import { asEvent, asHeader, checkEvent, checkHeader, isRecord, looksLikeHeader } from './trace-validate.ts';
import { PendingBytes } from '../../protocol/framing/pending-bytes.ts';

export type TraceErrorCode =
  | 'empty' // no line at all
  | 'json' // a line that is not JSON
  | 'blank' // an empty line
  | 'missing-header' // line 1 is JSON but not a trace header
  | 'version' // a header of this format but another version
  | 'header' // a header with a bad or missing field
  | 'event' // an event with a bad or missing field
  | 'sequence' // a good line in the wrong place (second header, unknown connection, another mode's field)
  | 'truncated'; // the last line was cut off

export interface TraceParseError {
  code: TraceErrorCode;
  /** 1-based line number of the problem (for `empty`, 1). */
  line: number;
  /** English, naming the line: "line 7: field \"b64\" must be base64". */
  message: string;
  /** The offending version, for `version`. */
  version?: unknown;
}

export interface TraceChunkResult {
  /** The header, in the result of the chunk that completed line 1. */
  header?: TraceHeader;
  /** The events this chunk completed, in file order. */
  events: TraceEvent[];
  /** The first problem, in the result where it was found; the reader ignores everything after it. */
  error?: TraceParseError;
}

const LF = 0x0a;

export class TraceReader {
  // Bytes are decoded one call per chunk, cut after its last line end, never with { stream: true }:
  // Node's TextDecoder leaves its fast UTF-8 path for good after one streaming call, and on a
  // trace's ASCII that path is about 2.5 times as fast (issue 25). A line end is ASCII, so no
  // character straddles a cut, and the text is what one decode of the whole file gives.
  // The file's first decode drops a leading BOM, as a stream decoder does at its start; later ones
  // keep a U+FEFF as text, as a stream decoder does after its start.
  private readonly firstDecoder = new TextDecoder();
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private decodedAny = false;
  /** Bytes after the last line end so far: the start of a line whose end has not arrived. */
  private readonly heldBytes = new PendingBytes();
  /** Text after the last line end so far (string chunks). */
  private rest = '';
  private lineNumber = 0;
  private header: TraceHeader | null = null;
  private failure: TraceParseError | null = null;
  private readonly openConnections = new Set<number>();
  private bytes = 0;

  /** Lines completed so far. */
  get linesRead(): number {
    return this.lineNumber;
  }

  /** Bytes (or UTF-16 units, for string chunks) fed so far: for a progress bar. */
  get bytesRead(): number {
    return this.bytes;
  }

  get error(): TraceParseError | null {
    return this.failure;
  }

  /** Feed the next chunk: bytes as read from a file, or text. */
  push(chunk: Uint8Array | string): TraceChunkResult {
    const result: TraceChunkResult = { events: [] };
    if (this.failure) return result;
    this.bytes += chunk.length;
    const text = typeof chunk === 'string' ? this.heldText() + chunk : this.completeLines(chunk);
    // Only the new text is split: a long line arriving in many chunks costs linear time.
    const parts = text.split('\n');
    const tail = parts.pop() as string;
    if (parts.length > 0) {
      parts[0] = this.rest + parts[0];
      this.rest = tail;
      for (const part of parts) {
        if (!this.take(part.endsWith('\r') ? part.slice(0, -1) : part, result, false)) break;
      }
    } else {
      this.rest += tail;
    }
    return result;
  }

  /** The input ended: check the last line and that there was a header at all. */
  end(): TraceChunkResult {
    const result: TraceChunkResult = { events: [] };
    if (this.failure) return result;
    const last = this.rest + this.heldText();
    this.rest = '';
    if (last !== '') this.take(last, result, true);
    if (!this.failure && this.header === null) {
      this.fail(result, { code: 'empty', line: 1, message: 'line 1: the file is empty: a trace starts with a header line' });
    }
    return result;
  }

  /** The text of `chunk` up to its last line end, after the bytes held before it; the bytes after that are held. */
  private completeLines(chunk: Uint8Array): string {
    const lf = chunk.lastIndexOf(LF);
    // Copied: the caller may reuse its chunk's memory once push() returns.
    if (lf === -1) {
      this.heldBytes.add(chunk.slice());
      return '';
    }
    const text = this.decode(this.heldBytes.takeWith(chunk.subarray(0, lf + 1)));
    if (lf + 1 < chunk.length) this.heldBytes.add(chunk.slice(lf + 1));
    return text;
  }

  /** The held bytes as text (a character they cut off becomes U+FFFD, as a stream decoder's flush does). */
  private heldText(): string {
    return this.heldBytes.length === 0 ? '' : this.decode(this.heldBytes.takeWith(new Uint8Array(0)));
  }

  private decode(bytes: Uint8Array): string {
    if (this.decodedAny) return this.decoder.decode(bytes);
    this.decodedAny = true;
    return this.firstDecoder.decode(bytes);
  }

  // One complete line. Returns false once the reader has failed.
  private take(line: string, result: TraceChunkResult, unterminated: boolean): boolean {
    const n = ++this.lineNumber;
    if (line.trim() === '') {
      return this.fail(result, { code: 'blank', line: n, message: `line ${n}: empty line` });
    }
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      if (unterminated) {
        return this.fail(result, { code: 'truncated', line: n, message: `line ${n}: the last line is cut off (the file ends inside it)` });
      }
      return this.fail(result, { code: 'json', line: n, message: `line ${n}: not JSON (${(error as Error).message})` });
    }
    if (this.header === null) return this.takeHeader(value, n, result);
    if (looksLikeHeader(value)) {
      return this.fail(result, { code: 'sequence', line: n, message: `line ${n}: a second header; only line 1 is a header` });
    }
    const bad = checkEvent(value);
    if (bad) return this.fail(result, { code: 'event', line: n, message: `line ${n}: ${bad}` });
    const misplaced = this.checkSequence(value as Record<string, unknown>);
    if (misplaced) return this.fail(result, { code: 'sequence', line: n, message: `line ${n}: ${misplaced}` });
    const event = asEvent(value);
    if (event.ev === 'open') this.openConnections.add(event.conn);
    if (event.ev === 'close') this.openConnections.delete(event.conn);
    result.events.push(event);
    return true;
  }

  private takeHeader(value: unknown, n: number, result: TraceChunkResult): boolean {
    if (!looksLikeHeader(value)) {
      const what = isRecord(value) && value.tap === 1 ? 'a tap event' : 'not a trace header';
      return this.fail(result, {
        code: 'missing-header',
        line: n,
        message: `line ${n}: ${what}; a trace starts with a header line {"format":"${TRACE_FORMAT}","version":${TRACE_VERSION},...}`,
      });
    }
    if (value.version !== TRACE_VERSION) {
      return this.fail(result, {
        code: 'version',
        line: n,
        version: value.version,
        message: `line ${n}: trace format version ${JSON.stringify(value.version)}; this reader reads version ${TRACE_VERSION}`,
      });
    }
    const problem = checkHeader(value);
    if (problem) return this.fail(result, { code: 'header', line: n, message: `line ${n}: ${problem}` });
    this.header = asHeader(value);
    result.header = this.header;
    return true;
  }

  // Rules that depend on the header or on earlier lines.
  private checkSequence(event: Record<string, unknown>): string | null {
    const mode = (this.header as TraceHeader).mode;
    if ('proc' in event && mode !== 'between') return `field "proc" belongs to "between" traces, and this one is "${mode}"`;
    if (mode !== 'http') {
      if (event.ev === 'open' || event.ev === 'close') return `event "${String(event.ev)}" belongs to "http" traces, and this one is "${mode}"`;
      if ('conn' in event) return `field "conn" belongs to "http" traces, and this one is "${mode}"`;
      return null;
    }
    const conn = event.conn as number | undefined;
    if (event.ev === 'open') return this.openConnections.has(conn as number) ? `connection ${conn} is already open` : null;
    // Bytes without a conn are the HTTP server's own stdio, when the tap ran it.
    if ((event.ev === 'c2s' || event.ev === 's2c') && conn !== undefined && !this.openConnections.has(conn)) {
      return `connection ${conn} was not opened (or already closed)`;
    }
    return null;
  }

  private fail(result: TraceChunkResult, error: TraceParseError): false {
    this.failure = error;
    result.error = error;
    return false;
  }
}

/** Parse a whole trace held in memory: the trace, or the first problem. */
export function parseTrace(input: string | Uint8Array): Trace | { error: TraceParseError } {
  const reader = new TraceReader();
  const events: TraceEvent[] = [];
  let header: TraceHeader | undefined;
  for (const result of [reader.push(input), reader.end()]) {
    if (result.header) header = result.header;
    events.push(...result.events);
    if (result.error) return { error: result.error };
  }
  return { header: header as TraceHeader, events };
}
