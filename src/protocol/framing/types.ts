// The one interface both stdio framings implement. A framing turns a message into bytes, and an
// incremental reader turns byte chunks of any size back into messages.

export type FramingName = 'content-length' | 'ndjson';
export const FRAMING_NAMES: readonly FramingName[] = ['content-length', 'ndjson'];

/** Default cap on one message's body: a larger declared or accumulated body is refused, never allocated. */
export const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export interface ReaderOptions {
  /** Largest body accepted, in bytes. */
  maxMessageBytes?: number;
}

/**
 * Why bytes were dropped. `bad-header`: a Content-Length header block without a usable length;
 * `bad-json`: a complete body that is not JSON (or not UTF-8); `too-large`: over maxMessageBytes.
 */
export type FrameErrorKind = 'bad-header' | 'bad-json' | 'too-large';

/**
 * One thing a reader found. Offsets count bytes from the first byte ever pushed, so a viewer can
 * map a message back to the exact bytes (and chunks) it came from.
 */
export type ReadItem =
  | { type: 'message'; value: unknown; offset: number; length: number }
  | { type: 'error'; kind: FrameErrorKind; detail: string; offset: number; length: number };

export interface FrameReader {
  /** Take the next chunk; return every item it completed, in stream order. Never throws. */
  push(chunk: Uint8Array): ReadItem[];
  /** Bytes held back waiting for the rest of a frame. */
  readonly bufferedBytes: number;
}

export interface Framing {
  readonly name: FramingName;
  /** The full frame for one message: compact JSON body plus this framing's delimiters. */
  encode(message: unknown): Uint8Array;
  createReader(options?: ReaderOptions): FrameReader;
}
