// Chunk boundaries and the replay: the chunks a frame arrived in, as the client's reader received
// them, fed again one at a time into a reader (the reference one, or the learner's from exercise 2)
// to show what it holds and what it emits after each push.

import type { FrameReader, ReadItem } from '../framing/types.ts';
import type { ChunkRecord } from './byte-stream.ts';

/** Where one chunk falls inside a frame; offsets relative to the frame's first byte. */
export interface ChunkSpan {
  /** The chunk's index in its stream (chunk numbers shown to people are index + 1). */
  index: number;
  start: number;
  /** Exclusive. */
  end: number;
  /** The chunk's whole length, which may reach outside the frame (several frames in one chunk). */
  chunkLength: number;
  t: number | null;
}

/** The chunks that carried any byte of the frame [offset, offset + length). */
export function chunkSpans(chunks: readonly ChunkRecord[], offset: number, length: number): ChunkSpan[] {
  const end = offset + length;
  const spans: ChunkSpan[] = [];
  for (const chunk of chunks) {
    const chunkEnd = chunk.offset + chunk.length;
    if (chunkEnd <= offset || chunk.offset >= end) continue;
    spans.push({
      index: chunk.index,
      start: Math.max(chunk.offset, offset) - offset,
      end: Math.min(chunkEnd, end) - offset,
      chunkLength: chunk.length,
      t: chunk.t,
    });
  }
  return spans;
}

/**
 * What to feed a fresh reader to replay one frame: the chunks that carried it, the first one cut at
 * the frame's start (a fresh reader stands between frames there, as the client's reader did), the
 * last one whole, so bytes of the next frame that came in the same chunk are seen being held.
 */
export function replayInput(chunks: readonly ChunkRecord[], offset: number, length: number, bytesOf: (chunk: ChunkRecord) => Uint8Array): Uint8Array[] {
  const input: Uint8Array[] = [];
  for (const chunk of chunks) {
    const chunkEnd = chunk.offset + chunk.length;
    if (chunkEnd <= offset || chunk.offset >= offset + length) continue;
    const bytes = bytesOf(chunk);
    input.push(chunk.offset < offset ? bytes.subarray(offset - chunk.offset) : bytes);
  }
  return input;
}

/** What a reader gave back for one push; 'malformed' is something that is not a ReadItem at all. */
export type ReplayItem = ReadItem | { type: 'malformed'; detail: string };

export interface ReplayStep {
  /** 0-based position in the replay. */
  push: number;
  bytes: Uint8Array;
  /** The reader's bufferedBytes after the push; null when it threw or gave no number. */
  bufferedBytes: number | null;
  items: ReplayItem[];
  /** What push() (or bufferedBytes) threw, as text. */
  error: string | null;
}

/** Push each chunk into a fresh reader and record what happens. Never throws. */
export function replayChunks(createReader: () => FrameReader, chunks: readonly Uint8Array[]): ReplayStep[] {
  let reader: FrameReader;
  try {
    reader = createReader();
  } catch (error) {
    return chunks.length === 0 ? [] : [{ push: 0, bytes: chunks[0]!, bufferedBytes: null, items: [], error: `the reader could not be created: ${describeError(error)}` }];
  }
  return chunks.map((chunk, push) => {
    let items: ReplayItem[] = [];
    let error: string | null = null;
    try {
      // A copy: a reader may keep the array it was given, and the next replay must see clean bytes.
      items = sanitizeReadItems(reader.push(chunk.slice()));
    } catch (thrown) {
      error = `push() threw: ${describeError(thrown)}`;
    }
    let bufferedBytes: number | null = null;
    try {
      const value = reader.bufferedBytes;
      if (typeof value === 'number' && Number.isFinite(value)) bufferedBytes = value;
    } catch (thrown) {
      error ??= `bufferedBytes threw: ${describeError(thrown)}`;
    }
    return { push, bytes: chunk, bufferedBytes, items, error };
  });
}

/**
 * A learner's reader may return anything: keep real ReadItems as they are (values stay JSON, so
 * they cross a worker boundary) and name whatever else came back.
 */
export function sanitizeReadItems(raw: unknown): ReplayItem[] {
  if (!Array.isArray(raw)) return [{ type: 'malformed', detail: `push() returned ${describeValue(raw)}, not an array of items` }];
  return raw.map((item): ReplayItem => {
    if (typeof item !== 'object' || item === null) return { type: 'malformed', detail: `an item was ${describeValue(item)}` };
    const { type, offset, length } = item as Record<string, unknown>;
    const where = { offset: typeof offset === 'number' ? offset : -1, length: typeof length === 'number' ? length : -1 };
    if (type === 'message') return { type: 'message', value: toJsonSafe((item as { value?: unknown }).value), ...where };
    if (type === 'error') {
      const { kind, detail } = item as Record<string, unknown>;
      const knownKind = kind === 'bad-header' || kind === 'bad-json' || kind === 'too-large' ? kind : 'bad-json';
      return { type: 'error', kind: knownKind, detail: typeof detail === 'string' ? detail : String(detail), ...where };
    }
    return { type: 'malformed', detail: `an item had type ${describeValue(type)}` };
  });
}

/** The messages (values only) a replay emitted, in order. */
export function emittedMessages(steps: readonly ReplayStep[]): unknown[] {
  return steps.flatMap((step) => step.items.filter((item) => item.type === 'message').map((item) => (item as { value: unknown }).value));
}

export interface ReplayComparison {
  same: boolean;
  /** The first push after which the two readers disagree on what was emitted, if any. */
  firstDifference: number | null;
  expectedMessages: number;
  actualMessages: number;
}

/** Did the learner's reader emit the same messages, after the same pushes, as the reference? */
export function compareReplays(reference: readonly ReplayStep[], learner: readonly ReplayStep[]): ReplayComparison {
  let firstDifference: number | null = null;
  for (let push = 0; push < Math.max(reference.length, learner.length); push++) {
    const expected = JSON.stringify(messagesOf(reference[push]));
    const actual = JSON.stringify(messagesOf(learner[push]));
    if (expected !== actual || learner[push]?.error) {
      firstDifference = push;
      break;
    }
  }
  return { same: firstDifference === null, firstDifference, expectedMessages: emittedMessages(reference).length, actualMessages: emittedMessages(learner).length };
}

function messagesOf(step: ReplayStep | undefined): unknown[] {
  return step ? step.items.map((item) => (item.type === 'message' ? item.value : item.type)) : [];
}

/** The bytes a reader says it holds: the last `buffered` bytes of everything pushed so far. */
export function heldBytes(chunks: readonly Uint8Array[], throughPush: number, buffered: number): Uint8Array {
  const pushed = chunks.slice(0, throughPush + 1);
  const total = pushed.reduce((sum, chunk) => sum + chunk.length, 0);
  const take = Math.max(0, Math.min(buffered, total));
  const out = new Uint8Array(take);
  let skip = total - take;
  let at = 0;
  for (const chunk of pushed) {
    if (skip >= chunk.length) {
      skip -= chunk.length;
      continue;
    }
    const part = chunk.subarray(skip);
    out.set(part, at);
    at += part.length;
    skip = 0;
  }
  return out;
}

function toJsonSafe(value: unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(value) ?? 'null') as unknown;
  } catch {
    return String(value);
  }
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value;
}

export function describeError(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'Error' ? `${error.name}: ${error.message}` : error.message;
  return String(error);
}
