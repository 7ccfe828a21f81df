// What crosses between the page and the trace worker: plain data only.

import type { TraceHeader, TraceParseError } from '../../runtime/trace/index.ts';
import type { PackedBatch } from './packed-entries.ts';

export type PageToTraceWorker =
  /** A file chosen or dropped (read in slices by the worker), or the text of a `#trace=` link. */
  { type: 'open'; source: Blob | string };

export type TraceWorkerToPage =
  | { type: 'header'; header: TraceHeader }
  /** A batch of log entries, in order, packed (its bytes buffer is transferred, not copied). */
  | { type: 'entries'; batch: PackedBatch }
  | { type: 'progress'; bytesRead: number; totalBytes: number; events: number }
  /** `methods`: every method the log's frames name, sorted (the method filter's choices). */
  | { type: 'done'; events: number; bytes: number; methods: string[] }
  | { type: 'failed'; error: TraceParseError };
