// Server-Sent Events: the third framing, the one Streamable HTTP uses for a stream of server
// messages. Unlike the two stdio framings it frames *events* (text fields), not JSON values; a
// JSON-RPC message rides in an event's `data`. The reader follows the WHATWG "event stream
// interpretation" rules exactly, because every browser's EventSource and every SDK do:
//
//   * lines end in CRLF, LF or CR — and a CRLF may be split across two chunks;
//   * a line starting with ":" is a comment; "name: value" drops ONE space after the colon;
//     a line without a colon is a field with an empty value;
//   * `data` lines append to the data buffer with a LF between them; `event` names the type;
//     `id` sets the last event ID unless it holds U+0000 and persists across events; `retry`
//     (ASCII digits only) sets the reconnection delay; other fields are ignored;
//   * a blank line dispatches: no data line since the last dispatch means no event, but the last
//     event ID still updates (that is how an id-only block moves a resume cursor);
//   * one UTF-8 BOM at the very start of the stream is dropped; invalid UTF-8 becomes U+FFFD;
//   * an event not ended by a blank line when the stream ends is never dispatched.
//
// Like the other readers it splits on bytes before decoding: CR and LF are ASCII, so they never
// occur inside a multi-byte character, and a chunk may end anywhere.

import { PendingBytes } from './pending-bytes.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { ReaderOptions } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;
const NUL = 0x00;

/** One dispatched event, as an EventSource listener would see it. */
export interface SseEvent {
  /** The `event` field, or "message" when none was given. */
  type: string;
  /** The `data` lines joined with "\n". */
  data: string;
  /** The last event ID at dispatch (it persists from earlier events when this one had no `id`). */
  id: string;
}

/**
 * What the reader found. Offsets count bytes from the first byte ever pushed; an event's span
 * runs from its first line to the first byte of the blank line's line ending (so it does not
 * depend on whether a CRLF's LF arrived in the same chunk).
 */
export type SseReadItem =
  | { type: 'event'; event: SseEvent; offset: number; length: number }
  | { type: 'error'; kind: 'too-large'; detail: string; offset: number; length: number };

/** The fields one event may carry when encoding. */
export interface SseEventInit {
  data?: string;
  /** Event type; omitted means "message". */
  event?: string;
  id?: string;
  /** Reconnection delay in milliseconds. */
  retry?: number;
  /** A comment line (ignored by readers; keeps idle connections alive). */
  comment?: string;
}

const utf8Encoder = new TextEncoder();
// Not fatal: the SSE rules decode with replacement characters. ignoreBOM keeps a U+FEFF inside
// the stream as a character; only the stream's very first BOM is dropped, by hand.
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

const FIELD_DATA = utf8Encoder.encode('data');
const FIELD_EVENT = utf8Encoder.encode('event');
const FIELD_ID = utf8Encoder.encode('id');
const FIELD_RETRY = utf8Encoder.encode('retry');

/** The text of one event block, ended by its blank line. Throws TypeError for fields SSE cannot carry. */
export function encodeSseText(init: SseEventInit): string {
  let text = '';
  if (init.comment !== undefined) {
    for (const line of init.comment.split(/\r\n|\r|\n/)) text += `: ${line}\n`;
  }
  if (init.event !== undefined) text += `event: ${singleLine('event', init.event)}\n`;
  if (init.id !== undefined) {
    if (init.id.includes('\0')) throw new TypeError('an SSE id cannot contain U+0000: readers ignore such an id');
    text += `id: ${singleLine('id', init.id)}\n`;
  }
  if (init.retry !== undefined) {
    if (!Number.isSafeInteger(init.retry) || init.retry < 0) throw new TypeError(`retry must be a non-negative integer, got ${init.retry}`);
    text += `retry: ${init.retry}\n`;
  }
  // Every line break in the data becomes its own data line; the reader joins them with "\n".
  if (init.data !== undefined) {
    for (const line of init.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  }
  return `${text}\n`;
}

/** One event block as UTF-8 bytes. */
export function encodeSseEvent(init: SseEventInit): Uint8Array {
  return utf8Encoder.encode(encodeSseText(init));
}

function singleLine(field: string, value: string): string {
  if (/[\r\n]/.test(value)) throw new TypeError(`an SSE ${field} cannot contain a line break`);
  return value;
}

/** The incremental SSE reader: push byte chunks of any size, get back each dispatched event. */
export class SseReader {
  /** The line so far, when it started in an earlier chunk. */
  private readonly line = new PendingBytes();
  /** The previous chunk ended in CR: a LF first in the next chunk belongs to that line ending. */
  private skipLf = false;
  /** Only the stream's first line may start with a BOM. */
  private firstLine = true;
  /** A too-long line was reported; drop its bytes until its end. */
  private discardingLine = false;
  /** The current event went over the limit; drop its fields until the blank line. */
  private discardingEvent = false;

  private chunkOffset = 0;
  private lineOffset = 0;
  /** Offset of the current event's first line, or -1 when no line of it has been seen. */
  private eventOffset = -1;

  private dataLines: string[] = [];
  private dataBytes = 0;
  private eventType = '';
  private idBuffer = '';
  private lastId = '';
  private retryMs: number | undefined;

  private readonly maxEventBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxEventBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** The last event ID so far: what a client sends as `Last-Event-ID` when it reconnects. */
  get lastEventId(): string {
    return this.lastId;
  }

  /** The latest `retry` value, in milliseconds, or undefined when the stream has sent none. */
  get retry(): number | undefined {
    return this.retryMs;
  }

  /** Bytes held back waiting for the end of a line. */
  get bufferedBytes(): number {
    return this.line.length;
  }

  /** Take the next chunk; return every item it completed, in stream order. Never throws. */
  push(chunk: Uint8Array): SseReadItem[] {
    const items: SseReadItem[] = [];
    let at = 0;
    if (this.skipLf && chunk.length > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        at = 1;
        this.lineOffset = this.chunkOffset + 1;
      }
    }
    // Find each line end: LF is the common one; CR is looked up only while one may lie ahead.
    let nextLf = chunk.indexOf(LF, at);
    let nextCr = chunk.indexOf(CR, at);
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      this.endLine(chunk, at, end, items);
      at = end + 1;
      if (chunk[end] === CR) {
        if (at === chunk.length) this.skipLf = true;
        else if (chunk[at] === LF) at++;
      }
      this.lineOffset = this.chunkOffset + at;
      if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = chunk.indexOf(CR, at);
    }
    if (at < chunk.length) this.hold(chunk, at, items);
    this.chunkOffset += chunk.length;
    return items;
  }

  /** The line `chunk[start, end)` (plus anything held) has ended at `end`. */
  private endLine(chunk: Uint8Array, start: number, end: number, items: SseReadItem[]): void {
    if (this.discardingLine) {
      this.discardingLine = false;
      this.line.clear();
      return;
    }
    const length = this.line.length + (end - start);
    if (length > this.maxEventBytes) {
      this.line.clear();
      this.tooLarge(items, length, `line of ${length} bytes is over the ${this.maxEventBytes}-byte limit`);
      return;
    }
    let line = this.line.takeWith(chunk.subarray(start, end));
    if (this.firstLine) {
      this.firstLine = false;
      if (line.length >= 3 && line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (line.length === 0) return this.dispatch(items);
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    if (line[0] === COLON || this.discardingEvent) return;

    const colon = line.indexOf(COLON);
    const nameEnd = colon === -1 ? line.length : colon;
    let valueStart = colon === -1 ? line.length : colon + 1;
    if (valueStart < line.length && line[valueStart] === SPACE) valueStart++;
    const value = line.subarray(valueStart);

    if (isField(line, nameEnd, FIELD_DATA)) {
      this.dataBytes += value.length + 1;
      if (this.dataBytes > this.maxEventBytes) {
        this.tooLarge(items, length, `event data over the ${this.maxEventBytes}-byte limit; dropping the event`);
        return;
      }
      this.dataLines.push(utf8Decoder.decode(value));
    } else if (isField(line, nameEnd, FIELD_EVENT)) {
      this.eventType = utf8Decoder.decode(value);
    } else if (isField(line, nameEnd, FIELD_ID)) {
      if (!value.includes(NUL)) this.idBuffer = utf8Decoder.decode(value);
    } else if (isField(line, nameEnd, FIELD_RETRY)) {
      if (value.length > 0 && value.every((byte) => byte >= 0x30 && byte <= 0x39)) this.retryMs = Number(utf8Decoder.decode(value));
    }
    // Any other field name is ignored, as the standard says.
  }

  /** A blank line: hand out the event built so far, if it has data, and start a new one. */
  private dispatch(items: SseReadItem[]): void {
    this.lastId = this.idBuffer;
    const offset = this.eventOffset;
    const hasData = this.dataLines.length > 0 && !this.discardingEvent;
    if (hasData) {
      const event: SseEvent = { type: this.eventType === '' ? 'message' : this.eventType, data: this.dataLines.join('\n'), id: this.lastId };
      items.push({ type: 'event', event, offset, length: this.lineOffset + 1 - offset });
    }
    this.dataLines = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.eventOffset = -1;
    this.discardingEvent = false;
  }

  /** Keep `chunk[at..]`, the start of a line whose end has not arrived yet. */
  private hold(chunk: Uint8Array, at: number, items: SseReadItem[]): void {
    if (this.discardingLine) return;
    const held = this.line.length + (chunk.length - at);
    if (held > this.maxEventBytes) {
      // Report once, as soon as it is certain, then drop the rest of the line without holding it.
      this.line.clear();
      this.discardingLine = true;
      this.tooLarge(items, held, `no line end within ${this.maxEventBytes} bytes; dropping the rest of the line`);
      return;
    }
    this.line.add(at === 0 ? chunk : chunk.subarray(at));
  }

  /** Report at the current line, and drop the event it belongs to. */
  private tooLarge(items: SseReadItem[], length: number, detail: string): void {
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    this.firstLine = false;
    this.discardingEvent = true;
    this.dataLines = [];
    items.push({ type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length });
  }
}

/** True when `line[0, nameEnd)` is exactly `name`. */
function isField(line: Uint8Array, nameEnd: number, name: Uint8Array): boolean {
  if (nameEnd !== name.length) return false;
  for (let i = 0; i < nameEnd; i++) if (line[i] !== name[i]) return false;
  return true;
}
