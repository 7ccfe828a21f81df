// What the byte inspector shows: one frame's bytes, the chunks they arrived in, and what the reader
// made of them. Built from the stepper's recorded streams or from the live panel's message log.

import type { FramingName } from '../../protocol/framing/types.ts';
import type { JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { ByteStream, WireDirection } from '../../protocol/inspect/byte-stream.ts';
import { chunkSpans, replayInput, type ChunkSpan } from '../../protocol/inspect/chunk-replay.ts';
import type { ArrowKind } from './stepper-records.ts';

export interface InspectTarget {
  direction: WireDirection;
  framing: FramingName;
  /** The frame's bytes, exactly as the reader delimited them. */
  bytes: Uint8Array;
  /** Where the frame starts in its direction's stream. */
  streamOffset: number;
  chunks: ChunkSpan[];
  /** The chunks to feed a fresh reader to replay this frame (see replayInput). */
  replay: Uint8Array[];
  kind: ArrowKind;
  method: string | null;
  id: JsonRpcId | null;
  /** The parsed JSON; null for an unreadable frame. */
  value: unknown;
  /** The reader's or validator's complaint, if any. */
  problem: string | null;
}

export interface FrameDescription {
  offset: number;
  length: number;
  kind: ArrowKind;
  method: string | null;
  id: JsonRpcId | null;
  value: unknown;
  problem: string | null;
}

export function targetFromStream(stream: ByteStream, framing: FramingName, frame: FrameDescription): InspectTarget {
  return {
    direction: stream.direction,
    framing,
    bytes: stream.slice(frame.offset, frame.offset + frame.length),
    streamOffset: frame.offset,
    chunks: chunkSpans(stream.chunks, frame.offset, frame.length),
    replay: replayInput(stream.chunks, frame.offset, frame.length, (chunk) => stream.chunkBytes(chunk)),
    kind: frame.kind,
    method: frame.method,
    id: frame.id,
    value: frame.value,
    problem: frame.problem,
  };
}
