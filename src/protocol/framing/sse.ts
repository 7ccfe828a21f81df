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
/** The UTF-8 BOM (U+FEFF). */
const BOM_0 = 0xef;
const BOM_1 = 0xbb;
const BOM_2 = 0xbf;

/** The line buffer's first size (a power of two, so that it is a whole number of 8-byte word pairs). */
const FIRST_BUFFER_BYTES = 4096;
/** A buffer grown bigger than this for a long line is let go once that line has ended. */
const KEPT_BUFFER_BYTES = 256 * 1024;

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
/** decode() options, made once rather than on every call. */
const STREAM = { stream: true };

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
 * Each chunk is copied after the unfinished line into one buffer and scanned there for CR and LF,
 * eight bytes at a time (see `findLineEnd`). A chunk that ends no line is only held. When lines
 * do end, everything up to the last line end is decoded in one TextDecoder call, and each line's
 * text is cut from that: the k-th line end in the bytes is the k-th in the text, because CR and
 * LF are one byte and one character each, and the decoder never moves them past other characters.
 * Offsets, sizes and limits are counted in the bytes; field names are read from the bytes too.
 *
 * Why not decode each chunk as it comes, as the official SDK's parser does? With small chunks
 * (a 1 KiB message in 16 chunks of 64 bytes) a decode call per chunk costs as much again as the
 * decoding itself, and a line glued from 16 decoded pieces is a string JSON.parse reads slower
 * than a flat one. Here a line is decoded once, however many chunks it came in.
 */
export class SseReader {
  // `ignoreBOM`: a U+FEFF is text, even at the start of what is decoded; only the stream's first
  // BOM is dropped, and that is done by hand (see `endLine`).
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  /**
   * The unfinished line in `bytes[0, held)`, then during push() the new chunk after it. `words`
   * views the same memory as 32-bit words, for the line-end scan.
   */
  private bytes!: Uint8Array;
  private words!: Int32Array;
  private held = 0;
  /** Where push() found line ends: the first `count` entries of it are this push's. */
  private readonly lineEnds: number[] = [];
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
    this.allocate(FIRST_BUFFER_BYTES);
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
    return this.held;
  }

  /**
   * Take the next chunk; return every item it completed, in stream order. Never throws. The
   * result is the caller's to read (an empty one is shared and frozen: do not add to it).
   * The chunk is copied, so the caller may reuse its memory afterwards.
   */
  push(chunk: Uint8Array): SseReadItem[] {
    let at = 0;
    if (this.skipLf && chunk.length > 0) {
      this.skipLf = false;
      if (chunk[0] === LF) {
        at = 1;
        this.lineOffset = this.chunkOffset + 1;
      }
    }
    // Append the chunk to the unfinished line; only the new bytes need scanning.
    const scanFrom = this.held;
    const end = scanFrom + chunk.length - at;
    if (end > this.bytes.length) this.grow(end);
    const bytes = this.bytes;
    bytes.set(at === 0 ? chunk : chunk.subarray(at), scanFrom);
    // Where lines end among the new bytes. (The array is kept and overwritten, never emptied:
    // setting an array's length is a slow call, measurable at one push per 64 bytes.)
    const lineEnds = this.lineEnds;
    let count = 0;
    for (let lineEnd = this.findLineEnd(scanFrom, end); lineEnd !== -1; lineEnd = this.findLineEnd(lineEnd + 1, end)) lineEnds[count++] = lineEnd;
    let lineStart = 0;
    if (count > 0) {
      // One decode for every line that ended. It stops on a line end, an ASCII byte, so no partial
      // character is left in the decoder: one cut off by a line end becomes U+FFFD in its line,
      // and the next decode starts clean. Streaming mode all the same, because on Node it is the
      // fast path for non-ASCII text (one-shot decoding measured ~40% slower on CJK).
      const text = this.decoder.decode(bytes.subarray(0, lineEnds[count - 1]! + 1), STREAM);
      const bufferOffset = this.chunkOffset + at - scanFrom; // the stream offset of bytes[0]
      let textStart = 0;
      for (let k = 0; k < count; k++) {
        const lineEnd = lineEnds[k]!;
        if (lineEnd < lineStart) continue; // the LF of a CRLF, already passed
        const textEnd = text.indexOf(bytes[lineEnd] === LF ? '\n' : '\r', textStart);
        this.endLine(lineStart, lineEnd, text, textStart, textEnd);
        lineStart = lineEnd + 1;
        textStart = textEnd + 1;
        if (bytes[lineEnd] === CR) {
          if (lineStart === end) this.skipLf = true;
          else if (bytes[lineStart] === LF) {
            lineStart++;
            textStart++;
          }
        }
        this.lineOffset = bufferOffset + lineStart;
      }
    }
    this.hold(lineStart, end);
    this.chunkOffset += chunk.length;
    return this.takeFound();
  }

  /**
   * The first CR or LF in bytes[from, to), or -1. Eight bytes (two 32-bit words) are tested at a
   * time: a word holds a byte below 14 (CR is 13, LF 10) exactly when
   * `(x - 0x0e0e0e0e) & ~x & 0x80808080` is not zero (the classic "has a byte less than n" test),
   * and only then are its bytes looked at one by one. JSON text holds no raw control characters,
   * so that happens almost only at line ends. About three times as fast as a loop over bytes.
   */
  private findLineEnd(from: number, to: number): number {
    const bytes = this.bytes;
    const words = this.words;
    let i = from;
    // One byte at a time up to a word pair's boundary (the buffer itself starts on one)...
    for (; i < to && (i & 7) !== 0; i++) {
      if (bytes[i] === LF || bytes[i] === CR) return i;
    }
    // ...then eight at a time...
    for (; i + 8 <= to; i += 8) {
      const x = words[i >> 2]!;
      const y = words[(i >> 2) + 1]!;
      if ((((x - 0x0e0e0e0e) & ~x) | ((y - 0x0e0e0e0e) & ~y)) & 0x80808080) {
        for (let j = i; j < i + 8; j++) {
          if (bytes[j] === LF || bytes[j] === CR) return j;
        }
      }
    }
    // ...and the last few one at a time.
    for (; i < to; i++) {
      if (bytes[i] === LF || bytes[i] === CR) return i;
    }
    return -1;
  }

  /** Make room for `size` bytes, keeping the unfinished line. Doubling keeps the copying linear. */
  private grow(size: number): void {
    let capacity = this.bytes.length * 2;
    while (capacity < size) capacity *= 2;
    const line = this.bytes.subarray(0, this.held);
    this.allocate(capacity);
    this.bytes.set(line);
  }

  /** A new, empty buffer of `capacity` bytes (a multiple of 4), with its word view. */
  private allocate(capacity: number): void {
    const buffer = new ArrayBuffer(capacity);
    this.bytes = new Uint8Array(buffer);
    this.words = new Int32Array(buffer);
  }

  /** What this push found, handed over; the reader starts a new list only when it needs one. */
  private takeFound(): SseReadItem[] {
    // Most chunks of a long event complete nothing: they share one frozen empty result instead of
    // allocating an array each (measurable with small chunks).
    if (this.found.length === 0) return NOTHING_FOUND;
    const found = this.found;
    this.found = [];
    return found;
  }

  /** The line bytes[start, end) has ended (bytes[end] is its CR or LF); its text is text[textStart, textEnd). */
  private endLine(start: number, end: number, text: string, textStart: number, textEnd: number): void {
    const length = end - start;
    if (this.discardingLine) {
      this.discardingLine = false;
      return;
    }
    if (length > this.maxEventBytes) {
      this.tooLarge(length, `line of ${length} bytes is over the ${this.maxEventBytes}-byte limit`);
      return;
    }
    const bytes = this.bytes;
    // The stream's first BOM (3 bytes, 1 character) is not part of the first line; a line of only
    // that BOM is blank.
    let name = start;
    let textName = textStart;
    if (this.lineOffset === 0 && length >= 3 && bytes[start] === BOM_0 && bytes[start + 1] === BOM_1 && bytes[start + 2] === BOM_2) {
      name += 3;
      textName += 1;
    }
    if (name === end) return this.dispatch();
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    if (bytes[name] === COLON || this.discardingEvent) return;
    // The first colon ends the name; no colon means the whole line is the name, and the value is empty.
    let colon = name;
    while (colon < end && bytes[colon] !== COLON) colon++;
    const valueStart = colon === end ? end : bytes[colon + 1] === SPACE ? colon + 2 : colon + 1;
    // The value's size is the line's less the name and separator, so the BOM dropped from the
    // stream's first line counts in it (as it did when lines were cut from decoded text).
    const valueBytes = colon === end ? 0 : length - (valueStart - name);
    // A name we know and its colon and space are ASCII, one byte a character: the value's text
    // starts as many characters after the name as its bytes do.
    const textValue = textName + (valueStart - name);
    if (this.isName(name, colon, 'data')) {
      this.dataBytes += valueBytes + 1;
      if (this.dataBytes > this.maxEventBytes) {
        this.tooLarge(valueBytes, `event data over the ${this.maxEventBytes}-byte limit; dropping the event`);
        return;
      }
      this.dataLines.push(text.slice(textValue, textEnd));
    } else if (this.isName(name, colon, 'id')) {
      const id = text.slice(textValue, textEnd);
      if (!id.includes('\0')) this.idBuffer = id;
    } else if (this.isName(name, colon, 'event')) {
      this.eventType = text.slice(textValue, textEnd);
    } else if (this.isName(name, colon, 'retry')) {
      const retry = text.slice(textValue, textEnd);
      if (/^[0-9]+$/.test(retry)) this.retryMs = Number(retry);
    }
    // Other fields are ignored.
  }

  /** Whether bytes[start, end) spell `name` (an ASCII field name). */
  private isName(start: number, end: number, name: string): boolean {
    if (end - start !== name.length) return false;
    for (let i = 0; i < name.length; i++) if (this.bytes[start + i] !== name.charCodeAt(i)) return false;
    return true;
  }

  /** A blank line: hand out the event built so far, if it has data, and start a new one. */
  private dispatch(): void {
    this.lastId = this.idBuffer;
    const offset = this.eventOffset;
    const hasData = this.dataLines.length > 0 && !this.discardingEvent;
    if (hasData) {
      const data = this.dataLines.length === 1 ? this.dataLines[0]! : this.dataLines.join('\n');
      const event: SseEvent = { type: this.eventType === '' ? 'message' : this.eventType, data, id: this.lastId };
      this.found.push({ type: 'event', event, offset, length: this.lineOffset + 1 - offset });
    }
    this.dataLines = [];
    this.dataBytes = 0;
    this.eventType = '';
    this.eventOffset = -1;
    this.discardingEvent = false;
  }

  /** Keep bytes[start, end), the start of a line whose end has not arrived yet (maybe none), at the buffer's start. */
  private hold(start: number, end: number): void {
    if (start < end && !this.discardingLine && end - start > this.maxEventBytes) {
      // Report once, as soon as it is certain, then drop the rest of the line without holding it.
      this.discardingLine = true;
      this.tooLarge(end - start, `no line end within ${this.maxEventBytes} bytes; dropping the rest of the line`);
    }
    if (this.discardingLine) start = end;
    const held = end - start;
    if (this.bytes.length > KEPT_BUFFER_BYTES && held <= FIRST_BUFFER_BYTES) {
      // The long line this buffer grew for has ended: go back to a small one.
      const rest = this.bytes.subarray(start, end);
      this.allocate(FIRST_BUFFER_BYTES);
      this.bytes.set(rest);
    } else if (start > 0) {
      this.bytes.copyWithin(0, start, end);
    }
    this.held = held;
  }

  /** Report at the current line, and drop the event it belongs to. */
  private tooLarge(length: number, detail: string): void {
    if (this.eventOffset === -1) this.eventOffset = this.lineOffset;
    this.discardingEvent = true;
    this.dataLines = [];
    this.found.push({ type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length });
  }
}
