// Log entries as the trace worker sends them: a batch's chunk bytes in ONE transferred ArrayBuffer
// (moved, not copied), and each frame's JSON as a span of those bytes rather than a tree of
// objects or a second copy as text. Unpacked on the page into entries whose `text`, `json` and
// `value` are computed on use. Why: a 100 MB trace unpacked in full is millions of small objects
// and a few hundred MB of heap on the page's thread, and the garbage collector's pauses over that
// heap were the page's longest tasks (`npm run bench`); the worker's own time went mostly to
// making strings it then threw away.

import type { LogEntry, LogFrame, WireDirection } from '../live-session/message-log.ts';
import type { BodySpan } from './trace-log.ts';
import { splitsACharacter } from './utf8-edges.ts';

type MessageFrame = Extract<LogFrame, { type: 'message' }>;
type BytesEntry = Extract<LogEntry, { type: 'bytes' }>;

/**
 * A message frame carries its JSON either as a span of the batch's bytes (`body`: [start, end),
 * the frame lies whole in its chunk) or as text (`json`: it began in an earlier chunk, or an HTTP
 * trace, whose bodies the reader takes apart).
 */
export type PackedFrame = Extract<LogFrame, { type: 'error' }> | (Omit<MessageFrame, 'value'> & { json?: string; body?: [number, number] });

export type PackedEntry =
  | Exclude<LogEntry, BytesEntry>
  | {
      seq: number;
      t: number | null;
      type: 'bytes';
      direction: WireDirection;
      offset: number;
      length: number;
      bufferedBytes: number;
      frames: PackedFrame[];
      /** The text as the stream decoder made it, only when decoding the chunk alone would differ. */
      text?: string;
      conn?: number;
    };

export interface PackedBatch {
  bytes: ArrayBuffer;
  entries: PackedEntry[];
}

/** Packs entries one at a time, as the worker decodes them, so no entry outlives its turn. */
export class EntryPacker {
  private bytes = new Uint8Array(1 << 16);
  private used = 0;
  private entries: PackedEntry[] = [];

  /** Entries packed since the last take(). */
  get size(): number {
    return this.entries.length;
  }

  /**
   * `spans`: each frame's body in the chunk (null where the frame began earlier), so its JSON is
   * not sent twice; without them each frame's JSON is sent as text. `streamedText`: the entry's
   * text had to come from the stream decoder (default: where a character straddles the chunk).
   */
  add(entry: LogEntry, spans: readonly (BodySpan | null)[] = [], streamedText?: boolean): void {
    if (entry.type !== 'bytes') {
      this.entries.push(entry);
      return;
    }
    const offset = this.reserve(entry.bytes.length);
    this.bytes.set(entry.bytes, offset);
    const packed: PackedEntry = {
      seq: entry.seq,
      t: entry.t,
      type: 'bytes',
      direction: entry.direction,
      offset,
      length: entry.bytes.length,
      bufferedBytes: entry.bufferedBytes,
      frames: entry.frames.map((frame, index): PackedFrame => {
        if (frame.type === 'error') return frame;
        const span = spans[index];
        const { kind, method, id, invalidReason, length, startedEarlier } = frame;
        return span
          ? { type: 'message', kind, method, id, invalidReason, length, startedEarlier, body: [offset + span.start, offset + span.end] }
          : { type: 'message', kind, method, id, invalidReason, length, startedEarlier, json: JSON.stringify(frame.value) ?? 'null' };
      }),
    };
    if (streamedText ?? splitsACharacter(entry.bytes)) packed.text = entry.text;
    if (entry.conn !== undefined) packed.conn = entry.conn;
    this.entries.push(packed);
  }

  /** The batch so far (its bytes ready to transfer); the packer starts a new one. */
  take(): PackedBatch {
    const batch = { bytes: this.bytes.slice(0, this.used).buffer, entries: this.entries };
    this.used = 0;
    this.entries = [];
    return batch;
  }

  private reserve(length: number): number {
    if (this.used + length > this.bytes.length) {
      const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + length));
      grown.set(this.bytes.subarray(0, this.used));
      this.bytes = grown;
    }
    const offset = this.used;
    this.used += length;
    return offset;
  }
}

export function packEntries(entries: readonly LogEntry[]): PackedBatch {
  const packer = new EntryPacker();
  for (const entry of entries) packer.add(entry);
  return packer.take();
}

const decoder = new TextDecoder();

/** A frame whose JSON text and parsed value are made from its bytes (or its text) on use. */
class LazyFrame implements MessageFrame {
  readonly type = 'message' as const;
  readonly kind: MessageFrame['kind'];
  readonly method: MessageFrame['method'];
  readonly id: MessageFrame['id'];
  readonly invalidReason: MessageFrame['invalidReason'];
  readonly length: number;
  readonly startedEarlier: boolean;
  private readonly text: string | null;
  private readonly batch: Uint8Array;
  private readonly body: [number, number] | null;
  private parsed: { value: unknown } | null = null;

  constructor(packed: Exclude<PackedFrame, { type: 'error' }>, batch: Uint8Array) {
    this.kind = packed.kind;
    this.method = packed.method;
    this.id = packed.id;
    this.invalidReason = packed.invalidReason;
    this.length = packed.length;
    this.startedEarlier = packed.startedEarlier;
    this.text = packed.json ?? null;
    // Positions, not a view: a typed array per frame was most of unpacking a batch.
    this.batch = batch;
    this.body = packed.body ?? null;
  }

  /**
   * The frame's JSON as text: what Find searches without parsing every frame. Decoded from the
   * bytes each time and not kept, so a search of a long trace holds no second copy of its text.
   */
  get json(): string {
    return this.text ?? decoder.decode(this.batch.subarray(this.body![0], this.body![1]));
  }

  get value(): unknown {
    this.parsed ??= { value: JSON.parse(this.json) as unknown };
    return this.parsed.value;
  }
}

/** A chunk whose bytes and text are made when first shown (a character split across chunks shows as U+FFFD). */
export class LazyBytesEntry implements BytesEntry {
  readonly type = 'bytes' as const;
  private view: Uint8Array | null = null;
  private decoded: string | null;

  constructor(
    readonly seq: number,
    readonly t: number | null,
    readonly direction: WireDirection,
    private readonly batch: Uint8Array,
    private readonly offset: number,
    /** The chunk's length without making a view of it (the diagram counts a whole trace's). */
    readonly byteLength: number,
    readonly frames: LogFrame[],
    readonly bufferedBytes: number,
    text?: string,
    readonly conn?: number,
  ) {
    this.decoded = text ?? null;
  }

  get bytes(): Uint8Array {
    this.view ??= this.batch.subarray(this.offset, this.offset + this.byteLength);
    return this.view;
  }

  get text(): string {
    this.decoded ??= decoder.decode(this.bytes);
    return this.decoded;
  }
}

export function unpackEntries(batch: PackedBatch): LogEntry[] {
  const bytes = new Uint8Array(batch.bytes);
  return batch.entries.map((entry): LogEntry => {
    if (entry.type !== 'bytes') return entry;
    const frames = entry.frames.map((frame): LogFrame => (frame.type === 'error' ? frame : new LazyFrame(frame, bytes)));
    return new LazyBytesEntry(entry.seq, entry.t, entry.direction, bytes, entry.offset, entry.length, frames, entry.bufferedBytes, entry.text, entry.conn);
  });
}
