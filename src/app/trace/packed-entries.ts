// Log entries as the trace worker sends them: a batch's chunk bytes in ONE transferred ArrayBuffer
// (moved, not copied), and each frame's JSON as text rather than a tree of objects. Unpacked on
// the page into entries whose `text` and `value` are computed on first use. Why: a 100 MB trace
// unpacked in full is millions of small objects and a few hundred MB of heap on the page's thread,
// and the garbage collector's pauses over that heap were the page's longest tasks (`npm run bench`).

import type { LogEntry, LogFrame, WireDirection } from '../live-session/message-log.ts';

type MessageFrame = Extract<LogFrame, { type: 'message' }>;
type BytesEntry = Extract<LogEntry, { type: 'bytes' }>;

export type PackedFrame = Extract<LogFrame, { type: 'error' }> | (Omit<MessageFrame, 'value'> & { json: string });

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
      /** The text as the stream decoder made it, only when a character straddles the chunk's ends. */
      text?: string;
      conn?: number;
    };

export interface PackedBatch {
  bytes: ArrayBuffer;
  entries: PackedEntry[];
}

export function packEntries(entries: readonly LogEntry[]): PackedBatch {
  let total = 0;
  for (const entry of entries) if (entry.type === 'bytes') total += entry.bytes.length;
  const bytes = new Uint8Array(total);
  let offset = 0;
  const packed = entries.map((entry): PackedEntry => {
    if (entry.type !== 'bytes') return entry;
    bytes.set(entry.bytes, offset);
    const result: PackedEntry = {
      seq: entry.seq,
      t: entry.t,
      type: 'bytes',
      direction: entry.direction,
      offset,
      length: entry.bytes.length,
      bufferedBytes: entry.bufferedBytes,
      frames: entry.frames.map((frame): PackedFrame => {
        if (frame.type === 'error') return frame;
        const { value, ...rest } = frame;
        return { ...rest, json: JSON.stringify(value) ?? 'null' };
      }),
    };
    if (splitsACharacter(entry.bytes)) result.text = entry.text;
    if (entry.conn !== undefined) result.conn = entry.conn;
    offset += entry.bytes.length;
    return result;
  });
  return { bytes: bytes.buffer, entries: packed };
}

/**
 * True when a UTF-8 character straddles the chunk's start or end: then decoding the chunk alone
 * differs from the live panel's stream decoding, and the worker sends the text it decoded.
 */
export function splitsACharacter(bytes: Uint8Array): boolean {
  if (bytes.length === 0) return false;
  if ((bytes[0]! & 0xc0) === 0x80) return true;
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const needs = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return needs > back;
  }
  return false;
}

/** A frame whose parsed JSON is made from its text when first asked for. */
class LazyFrame implements MessageFrame {
  readonly type = 'message' as const;
  readonly kind: MessageFrame['kind'];
  readonly method: MessageFrame['method'];
  readonly id: MessageFrame['id'];
  readonly invalidReason: MessageFrame['invalidReason'];
  readonly length: number;
  readonly startedEarlier: boolean;
  /** The frame's JSON as text: what Find searches without parsing every frame. */
  readonly json: string;
  private parsed: { value: unknown } | null = null;

  constructor(packed: Exclude<PackedFrame, { type: 'error' }>) {
    this.kind = packed.kind;
    this.method = packed.method;
    this.id = packed.id;
    this.invalidReason = packed.invalidReason;
    this.length = packed.length;
    this.startedEarlier = packed.startedEarlier;
    this.json = packed.json;
  }

  get value(): unknown {
    this.parsed ??= { value: JSON.parse(this.json) as unknown };
    return this.parsed.value;
  }
}

const decoder = new TextDecoder();

/** A chunk whose text is decoded when first shown (a character split across chunks shows as U+FFFD). */
class LazyBytesEntry implements BytesEntry {
  readonly type = 'bytes' as const;
  private decoded: string | null = null;

  constructor(
    readonly seq: number,
    readonly t: number | null,
    readonly direction: WireDirection,
    readonly bytes: Uint8Array,
    readonly frames: LogFrame[],
    readonly bufferedBytes: number,
    text?: string,
    readonly conn?: number,
  ) {
    this.decoded = text ?? null;
  }

  get text(): string {
    this.decoded ??= decoder.decode(this.bytes);
    return this.decoded;
  }
}

export function unpackEntries(batch: PackedBatch): LogEntry[] {
  return batch.entries.map((entry): LogEntry => {
    if (entry.type !== 'bytes') return entry;
    const frames = entry.frames.map((frame): LogFrame => (frame.type === 'error' ? frame : new LazyFrame(frame)));
    return new LazyBytesEntry(entry.seq, entry.t, entry.direction, new Uint8Array(batch.bytes, entry.offset, entry.length), frames, entry.bufferedBytes, entry.text, entry.conn);
  });
}
