// Newline-delimited JSON: one compact JSON value per line. This is what the MCP specification's
// stdio transport and the official SDKs actually speak. It needs no length header because
// JSON.stringify never writes a raw newline: a newline inside a string comes out as `\n`.
//
// The reader splits on the byte 0x0A before decoding anything. That is safe in UTF-8, where every
// byte of a multi-byte character is 0x80 or above, so a chunk may end inside a character.

import { NOTHING_FOUND, readJsonBody, toJsonText } from './json-body.ts';
import { PendingBytes } from './pending-bytes.ts';
import { DEFAULT_MAX_MESSAGE_BYTES } from './types.ts';
import type { FrameReader as FrameReaderContract, Framing, ReadItem, ReaderOptions } from './types.ts';

const LF = 0x0a;
const CR = 0x0d;
const utf8 = new TextEncoder();

/** One message as one line: compact JSON, then a newline. */
export function encodeLine(message: unknown): Uint8Array {
  return utf8.encode(`${toJsonText(message)}\n`);
}

export const ndjsonFraming: Framing = {
  name: 'ndjson',
  encode: encodeLine,
  createReader(options?: ReaderOptions): FrameReaderContract {
    return new LineReader(options);
  },
};

/** The incremental NDJSON reader: push byte chunks of any size, get back one item per line. */
export class LineReader implements FrameReaderContract {
  /** The line so far: everything since the last newline. */
  private readonly line = new PendingBytes();
  /** True after a too-large report, until the end of that line. */
  private discarding = false;
  /** Stream offsets of the current chunk's first byte and of the current line's first byte. */
  private chunkOffset = 0;
  private lineOffset = 0;

  /** What this push has completed; a push that completes nothing returns NOTHING_FOUND instead. */
  private found: ReadItem[] = [];

  /** Largest line accepted, in bytes, not counting its line ending. */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  get bufferedBytes(): number {
    return this.line.length;
  }

  push(chunk: Uint8Array): ReadItem[] {
    const items = this.found;
    let at = 0;
    // Only the new chunk is searched: bytes held from earlier chunks are known to hold no newline.
    for (let lf = chunk.indexOf(LF); lf !== -1; lf = chunk.indexOf(LF, at)) {
      this.endLine(chunk, at, lf, items);
      at = lf + 1;
      this.lineOffset = this.chunkOffset + at;
    }
    if (at < chunk.length) this.hold(chunk, at, items);
    this.chunkOffset += chunk.length;
    if (items.length === 0) return NOTHING_FOUND;
    this.found = [];
    return items;
  }

  /** The line's last piece, `chunk[start, lf)`, has arrived. */
  private endLine(chunk: Uint8Array, start: number, lf: number, items: ReadItem[]): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    const beforeNewline = this.line.length + (lf - start);
    const length = beforeNewline + 1;
    // max + 1 leaves room for the CR of a CRLF ending; longer lines are refused before any copy.
    if (beforeNewline > this.maxMessageBytes + 1) {
      this.line.clear();
      items.push(this.tooLarge(length, `line of ${length} bytes is over the ${this.maxMessageBytes}-byte limit`));
      return;
    }
    let body = this.line.takeWith(chunk.subarray(start, lf));
    if (body.length > 0 && body[body.length - 1] === CR) body = body.subarray(0, body.length - 1);
    if (body.length > this.maxMessageBytes) {
      items.push(this.tooLarge(length, `line of ${length} bytes is over the ${this.maxMessageBytes}-byte limit`));
    } else if (!isBlank(body)) {
      items.push(readJsonBody(body, this.lineOffset, length));
    }
    // A blank line carries no message, so it is skipped without a report.
  }

  /** Keep `chunk[at..]`, the start of a line whose newline has not arrived yet. */
  private hold(chunk: Uint8Array, at: number, items: ReadItem[]): void {
    if (this.discarding) return;
    const held = this.line.length + (chunk.length - at);
    if (held > this.maxMessageBytes + 1) {
      // Report once, as soon as it is certain (the length is what was seen so far), then drop
      // bytes until the newline without holding them.
      this.line.clear();
      this.discarding = true;
      items.push(this.tooLarge(held, `no newline within ${this.maxMessageBytes} bytes; dropping the rest of the line`));
      return;
    }
    this.line.add(at === 0 ? chunk : chunk.subarray(at));
  }

  private tooLarge(length: number, detail: string): ReadItem {
    return { type: 'error', kind: 'too-large', detail, offset: this.lineOffset, length };
  }
}

/** Empty or only JSON whitespace. Returns at the first byte of any real line, so it costs nothing there. */
function isBlank(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte !== 0x20 && byte !== 0x09 && byte !== CR) return false;
  }
  return true;
}
