// Exercise 2: frames. stdin and stdout are byte streams with no message boundaries; a framing puts
// them back. You write both stdio framings:
//   part 1: encodeFrame + FrameReader, the chapter's Content-Length framing (borrowed from LSP);
//   part 2: encodeLine + LineReader, newline-delimited JSON, what MCP's stdio transport really uses.
//
// Both readers implement the same interface, from '@protocol/framing/types':
//
//   interface FrameReader {
//     push(chunk: Uint8Array): ReadItem[];   // take the next chunk, return what it completed; never throw
//     readonly bufferedBytes: number;        // bytes held back, waiting for the rest of a frame
//   }
//
//   type ReadItem =
//     | { type: 'message'; value: unknown; offset: number; length: number }   // value: the parsed JSON
//     | { type: 'error'; kind: 'bad-header' | 'bad-json' | 'too-large'; detail: string; offset: number; length: number };
//
// `offset` is where the frame's first byte sits in the whole stream (counting from the first byte
// ever pushed) and `length` is the frame's size in bytes, header or newline included. A byte viewer
// uses them to point at the bytes; keep a running count of the bytes you have consumed.
// `detail` is a short sentence for a human ("no Content-Length header").
//
// A chunk may hold half a frame, several frames, or end in the middle of a character. Keep bytes,
// not strings, until a whole body is there.

import { DEFAULT_MAX_MESSAGE_BYTES, type FrameReader as FrameReaderContract, type ReadItem, type ReaderOptions } from '@protocol/framing/types';

const utf8 = new TextEncoder();
// fatal: a body that is not valid UTF-8 throws instead of being patched with U+FFFD. Decode a body
// only when all of its bytes are there.
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

// ---------------------------------------------------------------------------------------------
// Part 1: Content-Length framing
//
//   Content-Length: 40\r\n
//   \r\n
//   {"jsonrpc":"2.0","id":0,"method":"ping"}
// ---------------------------------------------------------------------------------------------

/** The whole frame as bytes: the header, a blank line, then the compact JSON body. */
export function encodeFrame(message: unknown): Uint8Array {
  throw new Error('TODO: encodeFrame — the length counts the UTF-8 bytes of the body, not its characters');
}

export class FrameReader implements FrameReaderContract {
  /** Good practice, not checked by the spec: refuse (kind 'too-large') a body longer than this. */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /**
   * Keep the bytes that have not made a whole frame yet. Then, in a loop:
   * - find the end of the header block (\r\n\r\n); not there yet: wait for more bytes;
   * - read the Content-Length from the header lines; no usable length: a 'bad-header' error
   *   item, drop the header block, go on;
   * - not all body bytes there yet: wait (keep everything);
   * - decode the body and JSON.parse it: a 'message' item, or a 'bad-json' error item;
   * - drop the frame's bytes and go round again: the chunk may hold more frames.
   */
  push(chunk: Uint8Array): ReadItem[] {
    throw new Error('TODO: FrameReader.push');
  }

  get bufferedBytes(): number {
    throw new Error('TODO: FrameReader.bufferedBytes — how many bytes you are holding');
  }
}

// ---------------------------------------------------------------------------------------------
// Part 2: newline-delimited JSON (NDJSON)
//
//   {"jsonrpc":"2.0","id":0,"method":"ping"}\n
// ---------------------------------------------------------------------------------------------

/** One compact JSON text followed by '\n'. */
export function encodeLine(message: unknown): Uint8Array {
  throw new Error('TODO: encodeLine');
}

export class LineReader implements FrameReaderContract {
  /** Good practice, not checked by the spec: refuse (kind 'too-large') a line longer than this. */
  private readonly maxMessageBytes: number;

  constructor(options?: ReaderOptions) {
    this.maxMessageBytes = options?.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  /**
   * Split on the byte 0x0A ('\n'); keep the unfinished last line for the next chunk. For each
   * complete line: strip one '\r' at its end, skip it silently if it is blank, else decode and
   * JSON.parse it: a 'message' item, or a 'bad-json' error item.
   */
  push(chunk: Uint8Array): ReadItem[] {
    throw new Error('TODO: LineReader.push');
  }

  get bufferedBytes(): number {
    throw new Error('TODO: LineReader.bufferedBytes — how many bytes you are holding');
  }
}

// ---------------------------------------------------------------------------------------------
// Small byte helpers you may use
// ---------------------------------------------------------------------------------------------

/** `a` followed by `b`, as one new array. */
function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** Where `needle` first occurs in `haystack` at or after `from`, or -1. */
function indexOfBytes(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  outer: for (let at = from; at + needle.length <= haystack.length; at++) {
    for (let i = 0; i < needle.length; i++) {
      if (haystack[at + i] !== needle[i]) continue outer;
    }
    return at;
  }
  return -1;
}
