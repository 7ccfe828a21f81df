// Turns the tap's events into the live panel's message log. Like the MCP Inspector's
// message-tracking transport, it records the true wire: the bytes as they crossed the pipes, and
// only then what the project's own frame readers made of them. One reader per direction, fed every
// chunk, so a chunk holding two frames, or half of one, is shown exactly as it happened.

import type { Framing, FrameErrorKind, FrameReader, ReadItem } from '../../protocol/framing/types.ts';
import {
  idKey,
  isErrorResponse,
  isNotification,
  isRequest,
  validateMessage,
  type JsonRpcId,
} from '../../protocol/jsonrpc.ts';
import { tapEventBytes, type TapEvent } from '../../runtime/tap-protocol.ts';

export type WireDirection = 'c2s' | 's2c';

export type MessageKind = 'request' | 'notification' | 'response' | 'error-response' | 'invalid';

/** One frame a reader completed inside a chunk. */
export type LogFrame =
  | {
      type: 'message';
      kind: MessageKind;
      /** For a response: the method of the request it answers, when that request was seen. */
      method: string | null;
      id: JsonRpcId | null;
      value: unknown;
      /** Why the JSON is not a valid JSON-RPC message (kind 'invalid' only). */
      invalidReason: string | null;
      length: number;
      /** The frame began in an earlier chunk: this chunk only completed it. */
      startedEarlier: boolean;
    }
  | { type: 'error'; kind: FrameErrorKind; detail: string; length: number; startedEarlier: boolean };

interface EntryBase {
  /** Position in the whole session, counting dropped entries, so React keys stay stable. */
  seq: number;
  /** The tap's clock: milliseconds since the tap started; null for events the page saw itself. */
  t: number | null;
  /** A trace recorded `--between` a client and a server: set when the client's process did this (spawn, stderr, exit, error). */
  proc?: 'client';
}

export type LogEntry =
  | (EntryBase & {
      type: 'bytes';
      direction: WireDirection;
      bytes: Uint8Array;
      /** The bytes as text, for the raw view (a split character shows as U+FFFD until it completes). */
      text: string;
      frames: LogFrame[];
      /** Bytes this direction's reader still holds, waiting for the rest of a frame. */
      bufferedBytes: number;
      /** The relayed HTTP connection the bytes crossed (HTTP sessions only). */
      conn?: number;
    })
  | (EntryBase & { type: 'stderr'; byteLength: number; text: string })
  | (EntryBase & { type: 'spawn'; pid: number; argv: string[] })
  | (EntryBase & { type: 'exit'; code: number | null; signal: string | null })
  | (EntryBase & { type: 'error'; message: string })
  | (EntryBase & { type: 'closed'; reason: string })
  /** A relayed TCP connection to an HTTP server opened or ended (the HTTP view reads its bytes). */
  | (EntryBase & { type: 'connection'; conn: number; state: 'open' | 'close'; message?: string });

export interface MessageLog {
  readonly entries: readonly LogEntry[];
  /** Entries removed from the front to respect the cap. */
  readonly dropped: number;
}

export const DEFAULT_LOG_CAP = 1000;
export const EMPTY_LOG: MessageLog = { entries: [], dropped: 0 };

/** A new log with `entry` at the end and the oldest entries dropped beyond `cap`. */
export function appendToLog(log: MessageLog, entry: LogEntry, cap = DEFAULT_LOG_CAP): MessageLog {
  const entries = [...log.entries, entry];
  const excess = entries.length - cap;
  if (excess <= 0) return { entries, dropped: log.dropped };
  return { entries: entries.slice(excess), dropped: log.dropped + excess };
}

/** Decodes one session's tap events into log entries. Holds the readers, so: one per server run. */
export class TapEventDecoder {
  private readonly readers: Record<WireDirection, FrameReader>;
  private readonly textDecoders: Record<WireDirection | 'stderr', TextDecoder>;
  /** Bytes pushed so far per direction, to tell whether a frame began in an earlier chunk. */
  private readonly pushed: Record<WireDirection, number> = { c2s: 0, s2c: 0 };
  /** Requests seen per direction, by id key, so a response can name the method it answers. */
  private readonly requests: Record<WireDirection, Map<string, string>> = { c2s: new Map(), s2c: new Map() };
  private seq: number;

  /**
   * `firstSeq`: the log outlives a run, so a new run's entries continue its numbering (seq is an
   * entry's identity).
   */
  constructor(framing: Framing, firstSeq = 0) {
    this.seq = firstSeq;
    this.readers = { c2s: framing.createReader(), s2c: framing.createReader() };
    this.textDecoders = { c2s: new TextDecoder(), s2c: new TextDecoder(), stderr: new TextDecoder() };
  }

  decode(event: TapEvent): LogEntry {
    const seq = this.seq++;
    switch (event.ev) {
      case 'c2s':
      case 's2c':
        return this.decodeBytes(seq, event.ev, event.t, tapEventBytes(event), event.conn);
      case 'stderr': {
        const bytes = tapEventBytes(event);
        return { seq, t: event.t, type: 'stderr', byteLength: bytes.length, text: this.textDecoders.stderr.decode(bytes, { stream: true }) };
      }
      case 'spawn':
        return { seq, t: event.t, type: 'spawn', pid: event.pid, argv: event.argv };
      case 'exit':
        return { seq, t: event.t, type: 'exit', code: event.code, signal: event.signal };
      case 'error':
        return { seq, t: event.t, type: 'error', message: event.message };
      case 'open':
        return { seq, t: event.t, type: 'connection', conn: event.conn, state: 'open' };
      case 'close':
        return { seq, t: event.t, type: 'connection', conn: event.conn, state: 'close', ...(event.message === undefined ? {} : { message: event.message }) };
    }
  }

  /** The wire closed without (or after) an exit event: the page noticed this itself. */
  closed(reason: string): LogEntry {
    return { seq: this.seq++, t: null, type: 'closed', reason };
  }

  /** `conn`: the relayed connection the bytes crossed; the stdio log reads them as one stream (a subclass may not). */
  protected decodeBytes(seq: number, direction: WireDirection, t: number, bytes: Uint8Array, _conn: number | undefined): LogEntry {
    const chunkStart = this.pushed[direction];
    this.pushed[direction] += bytes.length;
    const reader = this.readers[direction];
    const items = reader.push(bytes);
    this.read(items, chunkStart, bytes);
    const frames = items.map((item): LogFrame => {
      const startedEarlier = item.offset < chunkStart;
      if (item.type === 'error') {
        return { type: 'error', kind: item.kind, detail: item.detail, length: item.length, startedEarlier };
      }
      return this.describe(direction, item.value, item.length, startedEarlier);
    });
    return { seq, t, type: 'bytes', direction, bytes, text: this.chunkText(direction, bytes), frames, bufferedBytes: reader.bufferedBytes };
  }

  /** What the reader made of `chunk`, which starts at stream offset `chunkStart` (a trace's packer wants the offsets). */
  protected read(_items: readonly ReadItem[], _chunkStart: number, _chunk: Uint8Array): void {}

  /** The chunk's text, decoded as part of its direction's stream (a character may straddle chunks). */
  protected chunkText(direction: WireDirection, bytes: Uint8Array): string {
    return this.textDecoders[direction].decode(bytes, { stream: true });
  }

  /** A message frame: what the message is, and which request a response answers. One object literal, one shape (this runs for every frame of a 100 MB trace). */
  protected describe(direction: WireDirection, value: unknown, length: number, startedEarlier: boolean): LogFrame {
    const outcome = validateMessage(value);
    if (!outcome.ok) return { type: 'message', value, kind: 'invalid', method: null, id: outcome.id, invalidReason: outcome.reason, length, startedEarlier };
    const message = outcome.message;
    if (isRequest(message)) {
      this.requests[direction].set(idKey(message.id), message.method);
      return { type: 'message', value, kind: 'request', method: message.method, id: message.id, invalidReason: null, length, startedEarlier };
    }
    if (isNotification(message)) return { type: 'message', value, kind: 'notification', method: message.method, id: null, invalidReason: null, length, startedEarlier };
    // A response travels the other way from its request.
    const answered = direction === 'c2s' ? this.requests.s2c : this.requests.c2s;
    // An error response whose request id could not be read has a null id or none at all (MCP's form).
    const id = message.id ?? null;
    const method = id === null ? null : (answered.get(idKey(id)) ?? null);
    return { type: 'message', value, kind: isErrorResponse(message) ? 'error-response' : 'response', method, id, invalidReason: null, length, startedEarlier };
  }

}
