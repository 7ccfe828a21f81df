// The trace worker's work, without the worker: read a trace in slices, validate every line with the
// trace format's reader (which names the line of the first problem), decode the events into log
// entries, and hand them on in small batches with progress. Tested in Node; the worker only wires
// it to postMessage.

import { TraceReader, type TraceHeader } from '../../runtime/trace/index.ts';
import { TraceLogDecoder } from './trace-log.ts';
import type { TraceWorkerToPage } from './trace-worker-messages.ts';
import { EntryPacker } from './packed-entries.ts';

/** Entries per message: small enough that the page unpacks one batch in a few milliseconds. */
export const ENTRY_BATCH = 1000;
/** Slices a string source is cut into, so a pasted link reports progress like a file. */
const TEXT_SLICE = 1 << 20;

export type ChunkSource = AsyncIterable<Uint8Array | string>;

/** A Blob's bytes as they stream in, or a string in slices. */
export function chunksOf(source: Blob | string): ChunkSource {
  if (typeof source === 'string') {
    return (async function* () {
      for (let i = 0; i < source.length; i += TEXT_SLICE) yield source.slice(i, i + TEXT_SLICE);
    })();
  }
  return (async function* () {
    const reader = source.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  })();
}

/** `post` gets each message with the buffers to transfer along with it. */
export type TracePost = (message: TraceWorkerToPage, transfer: ArrayBuffer[]) => void;

export async function readTrace(chunks: ChunkSource, totalBytes: number, post: TracePost, batchSize = ENTRY_BATCH): Promise<void> {
  const reader = new TraceReader();
  let decoder: TraceLogDecoder | null = null;
  // Each entry is packed as soon as it is decoded: its parsed messages and text die young.
  const packer = new EntryPacker();
  let events = 0;
  // Counted here, off the page's thread: the method filter's choices.
  const methods = new Set<string>();
  const flush = () => {
    if (packer.size === 0) return;
    const packed = packer.take();
    post({ type: 'entries', batch: packed }, [packed.bytes]);
  };
  const take = (result: ReturnType<TraceReader['push']>): boolean => {
    if (result.header) {
      decoder = new TraceLogDecoder(result.header, { textWhereSplit: true });
      post({ type: 'header', header: result.header as TraceHeader }, []);
    }
    for (const event of result.events) {
      events++;
      const entry = (decoder as TraceLogDecoder | null)?.decode(event);
      if (!entry) continue;
      if (entry.type === 'bytes') for (const frame of entry.frames) if (frame.type === 'message' && frame.method !== null) methods.add(frame.method);
      packer.add(entry, (decoder as TraceLogDecoder).bodySpans(), (decoder as TraceLogDecoder).streamedText());
      if (packer.size >= batchSize) flush();
    }
    if (result.error) {
      // Nothing of a bad trace is kept: the page drops what it was sent and names the line.
      post({ type: 'failed', error: result.error }, []);
      return false;
    }
    return true;
  };

  for await (const chunk of chunks) {
    if (!take(reader.push(chunk))) return;
    // What is decoded goes to the page with the progress, so its rows show while the rest is read.
    flush();
    post({ type: 'progress', bytesRead: reader.bytesRead, totalBytes, events }, []);
  }
  if (!take(reader.end())) return;
  flush();
  post({ type: 'done', events, bytes: reader.bytesRead, methods: [...methods].sort() }, []);
}
