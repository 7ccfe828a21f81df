// The chapter's framing, borrowed from the Language Server Protocol: a header block, a blank
// line, then exactly Content-Length bytes of JSON.
//
//   Content-Length: 17\r\n
//   \r\n
//   {"jsonrpc":"2.0"}
//
// The length counts UTF-8 bytes, not characters: "你好" is 6 bytes. The reader works on bytes and
// decodes a body only once all of it has arrived, so a chunk may end anywhere, even inside a
// character.

import { classifyHeaderLine, indexOfContentLength } from './header-line.ts';
import { NOTHING_FOUND, readJsonBody, toJsonText } from './json-body.ts';
import { PendingBytes } from './pending-bytes.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { FrameReader as FrameReaderContract, Framing, ReadItem, ReaderOptions } from './types.ts';

/** A header block that has not ended within this many bytes is dropped, so memory stays bounded. */
export const MAX_HEADER_BYTES = 8 * 1024;

const LF = 0x0a;
const utf8 = new TextEncoder();

/** One message as a whole frame: the header, a blank line, then the compact JSON body. */
export function encodeFrame(message: unknown): Uint8Array {
  const body = utf8.encode(toJsonText(message));
  const header = utf8.encode(`Content-Length: ${body.length}\r\n\r\n`);
  const frame = new Uint8Array(header.length + body.length);
  frame.set(header);
  frame.set(body, header.length);
  return frame;
}

export const contentLengthFraming: Framing = {
  name: 'content-length',
  encode: encodeFrame,
  createReader(options?: ReaderOptions): FrameReaderContract {
    return new FrameReader(options);
  },
};

/**
 * `header`: collecting header lines. `body`: collecting a body of known length. `discard`:
 * letting a too-large body go by. `skip-line`: dropping the rest of an over-long header line.
 */
type Phase = 'header' | 'body' | 'discard' | 'skip-line';

/** The incremental Content-Length reader: push byte chunks of any size, get back messages. */
export class FrameReader implements FrameReaderContract {
  private phase: Phase = 'header';

  // The header block so far. Headers are short, so they are copied into one small buffer that
  // is allocated once; lines are judged one at a time as their LF arrives, never re-scanned.
  private readonly header = new Uint8Array(MAX_HEADER_BYTES);
  private headerLength = 0;
  /** Where the line still waiting for its LF starts in `header`. */
  private lineStart = 0;
  private declaredLength: number | null = null;
  private headerProblem: string | null = null;

  /** Body bytes still to come (`body`) or still to drop (`discard`). */
  private remaining = 0;
  private readonly body = new PendingBytes();

  /** Stream offset of the current chunk's first byte. */
  private chunkOffset = 0;
  /** Stream offset of the current frame's first header byte, and the whole frame's length. */
  private frameOffset = 0;
  private frameLength = 0;

  /** What this push has completed; a push that completes nothing returns NOTHING_FOUND instead. */
  private found: ReadItem[] = [];

  /** Largest body accepted, in bytes. */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /** Bytes of the unfinished frame received so far; a body being skipped is not held, so it is not counted. */
  get bufferedBytes(): number {
    return this.phase === 'body' ? this.frameLength - this.remaining : this.headerLength;
  }

  push(chunk: Uint8Array): ReadItem[] {
    const items = this.found;
    let at = 0;
    while (at < chunk.length) {
      switch (this.phase) {
        case 'header':
          at = this.readHeader(chunk, at, items);
          break;
        case 'body':
          at = this.readBody(chunk, at, items);
          break;
        case 'discard':
          at = this.discard(chunk, at);
          break;
        case 'skip-line':
          at = this.skipLine(chunk, at);
          break;
      }
    }
    this.chunkOffset += chunk.length;
    if (items.length === 0) return NOTHING_FOUND;
    this.found = [];
    return items;
  }

  /** Copy header bytes up to and including the next LF (or the chunk's end); judge a completed line. */
  private readHeader(chunk: Uint8Array, at: number, items: ReadItem[]): number {
    if (this.headerLength === 0) this.frameOffset = this.chunkOffset + at;
    const lf = chunk.indexOf(LF, at);
    const end = lf === -1 ? chunk.length : lf + 1;

    if (this.headerLength + (end - at) > MAX_HEADER_BYTES) {
      const dropped = this.headerLength + (end - at);
      this.dropHeader(dropped, `no end of header within ${MAX_HEADER_BYTES} bytes`, items);
      // Mid-line: drop the rest of the line too (silently: it was just reported), then look again.
      if (lf === -1) this.phase = 'skip-line';
      return end;
    }

    // A plain loop: header pieces are a few dozen bytes, too short to pay for a subarray + set.
    for (let i = at; i < end; i++) this.header[this.headerLength++] = chunk[i]!;
    if (lf !== -1) this.onHeaderLine(items);
    return end;
  }

  private onHeaderLine(items: ReadItem[]): void {
    const line = classifyHeaderLine(this.header, this.lineStart, this.headerLength);
    switch (line.kind) {
      case 'content-length':
        this.noteDeclaredLength(line.value);
        this.lineStart = this.headerLength;
        return;
      case 'other-field':
        this.lineStart = this.headerLength;
        return;
      case 'blank':
        if (this.lineStart === 0) this.dropHeader(this.headerLength, 'blank line where a header was expected', items);
        else this.endHeaderBlock(items);
        return;
      case 'garbage':
        this.resync(items);
        return;
    }
  }

  private noteDeclaredLength(value: number | null): void {
    if (value === null) this.headerProblem = 'Content-Length is not a byte count';
    else if (this.declaredLength !== null && this.declaredLength !== value) this.headerProblem = 'conflicting Content-Length headers';
    else this.declaredLength = value;
  }

  /**
   * Resync rule. A line that is not `Name: value` + CRLF (a log line, the tail of a body whose
   * length was wrong) means we are not inside a header block: drop everything held, up to and
   * including that line, and look again from the next byte. One exception: when the line holds
   * `Content-Length:` after its first byte, garbage without a newline ran straight into the next
   * frame's header (`...}Content-Length: 42`), so drop only the bytes before it and read that
   * header. Headers themselves end lines with CRLF; the bare-LF log lines are what this catches.
   */
  private resync(items: ReadItem[]): void {
    const restart = indexOfContentLength(this.header, this.lineStart + 1, this.headerLength);
    if (restart === -1) {
      this.dropHeader(this.headerLength, 'not a header line', items);
      return;
    }
    const held = this.headerLength;
    this.dropHeader(restart, 'not a header line', items);
    this.header.copyWithin(0, restart, held);
    this.headerLength = held - restart;
    this.frameOffset += restart;
    this.onHeaderLine(items);
  }

  private endHeaderBlock(items: ReadItem[]): void {
    const length = this.declaredLength;
    if (this.headerProblem !== null || length === null) {
      this.dropHeader(this.headerLength, this.headerProblem ?? 'no Content-Length header', items);
      return;
    }
    this.frameLength = this.headerLength + length;
    this.resetHeader();
    this.remaining = length;
    if (length > this.maxMessageBytes) {
      // Reported from the header alone: the body is never held, only counted as it goes by.
      const detail = `Content-Length ${length} is over the ${this.maxMessageBytes}-byte limit; skipping the body`;
      items.push({ type: 'error', kind: 'too-large', detail, offset: this.frameOffset, length: this.frameLength });
      this.phase = 'discard';
    } else if (length === 0) {
      items.push(readJsonBody(new Uint8Array(0), this.frameOffset, this.frameLength));
    } else {
      this.phase = 'body';
    }
  }

  private readBody(chunk: Uint8Array, at: number, items: ReadItem[]): number {
    const available = chunk.length - at;
    if (available < this.remaining) {
      this.body.add(at === 0 ? chunk : chunk.subarray(at));
      this.remaining -= available;
      return chunk.length;
    }
    const end = at + this.remaining;
    // Zero copy when the whole body is in this chunk; otherwise one copy of the held pieces.
    const body = this.body.takeWith(chunk.subarray(at, end));
    items.push(readJsonBody(body, this.frameOffset, this.frameLength));
    this.remaining = 0;
    this.phase = 'header';
    return end;
  }

  private discard(chunk: Uint8Array, at: number): number {
    const skipped = Math.min(this.remaining, chunk.length - at);
    this.remaining -= skipped;
    if (this.remaining === 0) this.phase = 'header';
    return at + skipped;
  }

  private skipLine(chunk: Uint8Array, at: number): number {
    const lf = chunk.indexOf(LF, at);
    if (lf === -1) return chunk.length;
    this.phase = 'header';
    return lf + 1;
  }

  /** Report the first `length` held header bytes as bad-header and forget the header so far. */
  private dropHeader(length: number, detail: string, items: ReadItem[]): void {
    items.push({ type: 'error', kind: 'bad-header', detail, offset: this.frameOffset, length });
    this.resetHeader();
  }

  private resetHeader(): void {
    this.headerLength = 0;
    this.lineStart = 0;
    this.declaredLength = null;
    this.headerProblem = null;
  }
}
