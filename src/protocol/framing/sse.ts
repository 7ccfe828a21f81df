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

import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { ReaderOptions } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

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
const NOTHING_FOUND: SseReadItem[] = Object.freeze([]) as unknown as SseReadItem[];

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

/**
 * The incremental SSE reader: push byte chunks of any size, get back each dispatched event.
 *
 * Each chunk is decoded once, by a streaming decoder (which also drops only the stream's first
 * BOM and carries a character split across chunks), and lines are cut from that text. Line ends
 * are found in the bytes too, only to know each line's byte offset: CR and LF are one byte and
 * one character each, and the decoder never moves them past other characters, so the k-th line
 * end in a chunk's bytes is the k-th in its text. Decoding whole chunks instead of line by line
 * is what keeps this as fast as the official SDK's parser.
 */
export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  /** The text of the line so far, when it started in an earlier chunk, and its size in bytes. */
  private lineText = '';
  private lineBytes = 0;
  /** The previous chunk ended in CR: a LF first in the next chunk belongs to that line ending. */
  private skipLf = false;
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
  private found: SseReadItem[] = [];

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
    return this.discardingLine ? 0 : this.lineBytes;
  }

  /**
   * Take the next chunk; return every item it completed, in stream order. Never throws. The
   * result is the caller's to read (an empty one is shared and frozen: do not add to it).
   */
  push(chunk: Uint8Array): SseReadItem[] {
    // Most chunks of a long event complete nothing: they share one frozen empty result instead of
    // allocating an array each (measurable with small chunks).
    const items = this.found;
    const text = this.decoder.decode(chunk, { stream: true });
    let at = 0; // in bytes
    let textAt = 0; // in text
    if (this.skipLf && chunk.length > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        at = 1;
        textAt = 1;
        this.lineOffset = this.chunkOffset + 1;
      }
    }
    // Find each line end: LF is the common one; CR is looked up only while one may lie ahead.
    // The text tells whether a line end is there at all (a string search is faster than a byte
    // one): a chunk in the middle of a long line is held without scanning its bytes, and a CR-free
    // stream costs one byte scan per chunk, for LF.
    const hasLf = text.indexOf('\n', textAt) !== -1;
    const hasCr = text.indexOf('\r', textAt) !== -1;
    if (!hasLf && !hasCr) {
      if (at < chunk.length) this.hold(text.slice(textAt), chunk.length - at, items);
      this.chunkOffset += chunk.length;
      return this.takeFound();
    }
    let nextLf = hasLf ? chunk.indexOf(LF, at) : -1;
    let nextCr = hasCr ? chunk.indexOf(CR, at) : -1;
    while (nextLf !== -1 || nextCr !== -1) {
      const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
      const textEnd = text.indexOf(chunk[end] === LF ? '\n' : '\r', textAt);
      this.endLine(text.slice(textAt, textEnd), end - at, items);
      at = end + 1;
      textAt = textEnd + 1;
      if (chunk[end] === CR) {
        if (at === chunk.length) this.skipLf = true;
        else if (chunk[at] === LF) {
          at++;
          textAt++;
        }
      }
      this.lineOffset = this.chunkOffset + at;
      if (nextLf !== -1 && nextLf < at) nextLf = chunk.indexOf(LF, at);
      if (nextCr !== -1 && nextCr < at) nextCr = chunk.indexOf(CR, at);
    }
    if (at < chunk.length) this.hold(text.slice(textAt), chunk.length - at, items);
    this.chunkOffset += chunk.length;
    return this.takeFound();
  }

  /** What this push found, handed over; the reader starts a new list only when it needs one. */
  private takeFound(): SseReadItem[] {
    if (this.found.length === 0) return NOTHING_FOUND;
    const found = this.found;
    this.found = [];
    return found;
  }

  /** The current line ends with `tail` (`tailBytes` long); anything held comes before it. */
  private endLine(tail: string, tailBytes: number, items: SseReadItem[]): void {
    const length = this.lineBytes + tailBytes;
    const line = this.lineText === '' ? tail : this.lineText + tail;
    this.lineText = '';
    this.lineBytes = 0;
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    if (length > this.maxEventBytes) {
      this.tooLarge(items, length, `line of ${length} bytes is over the ${this.maxEventBytes}-byte limit`);
      return;
    }
    // Blank: no text. (A line of only the stream's first BOM has bytes but no text, and is blank too.)
    if (line === '') return this.dispatch(items);
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    if (line.charCodeAt(0) === COLON || this.discardingEvent) return;
    const colon = line.indexOf(':');
    if (colon === -1) return this.field(line, '', 0, items);
    const valueStart = line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1;
    // The name and separator are ASCII when the name is one we use, so the value's bytes are the rest.
    this.field(line.slice(0, colon), line.slice(valueStart), length - valueStart, items);
  }

  /** One field of the current event, by the standard's rules; unknown names are ignored. */
  private field(name: string, value: string, valueBytes: number, items: SseReadItem[]): void {
    switch (name) {
      case 'data':
        this.dataBytes += valueBytes + 1;
        if (this.dataBytes > this.maxEventBytes) {
          this.tooLarge(items, valueBytes, `event data over the ${this.maxEventBytes}-byte limit; dropping the event`);
          return;
        }
        this.dataLines.push(value);
        return;
      case 'event':
        this.eventType = value;
        return;
      case 'id':
        if (!value.includes('\0')) this.idBuffer = value;
        return;
      case 'retry':
        if (/^[0-9]+$/.test(value)) this.retryMs = Number(value);
        return;
    }
  }

  /** A blank line: hand out the event built so far, if it has data, and start a new one. */
  private dispatch(items: SseReadItem[]): void {
    this.lastId = this.idBuffer;
    const offset = this.eventOffset;
    const hasData = this.dataLines.length > 0 && !this.discardingEvent;
    if (hasData) {
      const data = this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join('\n');
      const event: SseEvent = { type: this.eventType === '' ? 'message' : this.eventType, data, id: this.lastId };
      items.push({ type: 'event', event, offset, length: this.lineOffset + 1 - offset });
    }
    this.dataLines = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.eventOffset = -1;
    this.discardingEvent = false;
  }

  /** Keep the start of a line whose end has not arrived yet. */
  private hold(text: string, bytes: number, items: SseReadItem[]): void {
    if (this.discardingLine) return;
    const held = this.lineBytes + bytes;
    if (held > this.maxEventBytes) {
      // Report once, as soon as it is certain, then drop the rest of the line without holding it.
      this.lineText = '';
      this.lineBytes = 0;
      this.discardingLine = true;
      this.tooLarge(items, held, `no line end within ${this.maxEventBytes} bytes; dropping the rest of the line`);
      return;
    }
    this.lineText += text;
    this.lineBytes = held;
  }

  /** Report at the current line, and drop the event it belongs to. */
  private tooLarge(items: SseReadItem[], length: number, detail: string): void {
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    this.discardingEvent = true;
    this.dataLines = [];
    items.push({ type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length });
  }
}
