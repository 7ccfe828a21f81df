// A second correct solution to exercise 2, in another style than the reference: one growing byte
// buffer, the header decoded as ASCII text and read with a regular expression, and once its length
// is known the header is dropped (bufferedBytes then counts only the body's bytes, as the contract
// allows). second-solutions.test.ts requires the spec to pass on it.

import type { FrameReader as FrameReaderContract, ReadItem } from '@protocol/framing/types';

const encoder = new TextEncoder();
const strict = new TextDecoder('utf-8', { fatal: true });
const ascii = new TextDecoder('latin1');

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function parse(body: Uint8Array, offset: number, length: number): ReadItem {
  try {
    return { type: 'message', value: JSON.parse(strict.decode(body)), offset, length };
  } catch (error) {
    return { type: 'error', kind: 'bad-json', detail: String(error), offset, length };
  }
}

export function encodeFrame(message: unknown): Uint8Array {
  const body = encoder.encode(JSON.stringify(message));
  return concat(encoder.encode(`Content-Length: ${body.length}\r\n\r\n`), body);
}

export class FrameReader implements FrameReaderContract {
  private buffer: Uint8Array = new Uint8Array(0);
  /** Set once a header has been read and dropped: the body still being collected. */
  private pending: { length: number; headerBytes: number; offset: number } | undefined;
  private consumed = 0;

  get bufferedBytes(): number {
    return this.buffer.length;
  }

  push(chunk: Uint8Array): ReadItem[] {
    this.buffer = concat(this.buffer, chunk);
    const items: ReadItem[] = [];
    for (;;) {
      if (!this.pending) {
        const end = ascii.decode(this.buffer).indexOf('\r\n\r\n');
        if (end === -1) return items;
        const headerBytes = end + 4;
        const fields = ascii.decode(this.buffer.subarray(0, end)).split('\r\n');
        const value = fields.map((field) => /^Content-Length:\s*(\S*)\s*$/i.exec(field)?.[1]).find((found) => found !== undefined);
        this.buffer = this.buffer.slice(headerBytes);
        if (value === undefined || !/^\d+$/.test(value)) {
          items.push({ type: 'error', kind: 'bad-header', detail: 'no usable Content-Length', offset: this.consumed, length: headerBytes });
          this.consumed += headerBytes;
          continue;
        }
        this.pending = { length: Number(value), headerBytes, offset: this.consumed };
      }
      const { length, headerBytes, offset } = this.pending;
      if (this.buffer.length < length) return items;
      items.push(parse(this.buffer.subarray(0, length), offset, headerBytes + length));
      this.buffer = this.buffer.slice(length);
      this.consumed += headerBytes + length;
      this.pending = undefined;
    }
  }
}

export function encodeLine(message: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(message) + '\n');
}

export class LineReader implements FrameReaderContract {
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  private consumed = 0;

  get bufferedBytes(): number {
    return this.heldBytes;
  }

  push(chunk: Uint8Array): ReadItem[] {
    const items: ReadItem[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const line = this.held.reduce((all, piece) => concat(all, piece), new Uint8Array(0));
      const whole = concat(line, chunk.subarray(start, newline));
      const length = whole.length + 1;
      const body = whole[whole.length - 1] === 13 ? whole.subarray(0, -1) : whole;
      if (!/^[ \t\r]*$/.test(ascii.decode(body))) items.push(parse(body, this.consumed, length));
      this.consumed += length;
      this.held = [];
      this.heldBytes = 0;
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.held.push(chunk.slice(start));
      this.heldBytes += chunk.length - start;
    }
    return items;
  }
}
