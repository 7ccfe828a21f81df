// How fast the two frame readers turn chunks back into messages, against two baselines measured
// in the same run: JSON.parse of the bodies alone (the floor: every reader must at least parse),
// and the official SDK's stdio ReadBuffer fed the same messages as NDJSON in the same chunks.
// A third figure, decode+parse, is the floor for any reader that starts from bytes: on Node 20,
// turning UTF-8 with CJK and emoji into a JavaScript string (TextDecoder) costs as much as
// JSON.parse of that string, or more, so no reader can come near JSON.parse alone on such text.

import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
// The SDK's Streamable HTTP client parses SSE with this package (its own dependency), after a
// TextDecoderStream: that pair is the SDK baseline for the SSE reader.
import { createParser } from 'eventsource-parser';
import { encodeSseEvent, SseReader } from '../src/protocol/framing/sse.ts';
import { getFraming } from '../src/protocol/framing/index.ts';
import { FRAMING_NAMES } from '../src/protocol/framing/types.ts';
import type { FramingName } from '../src/protocol/framing/types.ts';
import { concatBytes } from '../src/protocol/inspect/concat-bytes.ts';
import { buildWorkloads, cutIntoChunks } from './workloads.ts';
import type { Workload, WorkloadSizes } from './workloads.ts';

export interface FramingRow {
  workload: string;
  /** The two stdio framings, and SSE (each message as one event with an id, as a server streams it). */
  framing: FramingName | 'sse';
  /** Our reader: push every chunk, collect every message. Median, in milliseconds. */
  ms: number;
  /** JSON.parse of the same bodies, already strings. */
  jsonParseMs: number;
  /**
   * The SDK's reader for the same messages: its stdio ReadBuffer on the NDJSON stream (the same
   * figure on both stdio rows); on the SSE row, TextDecoder + eventsource-parser + JSON.parse on
   * the SSE stream, which is what the SDK's StreamableHTTPClientTransport runs.
   */
  sdkReadBufferMs: number;
  /** TextDecoder (fatal UTF-8) then JSON.parse of the same bodies, from bytes: what any byte reader must do. */
  decodeAndParseMs: number;
}

// Timings on a shared machine come in two or three clusters; 11 runs keep the median inside the main one.
const DEFAULT_REPEATS = 11;
const DEFAULT_WARM_UP_RUNS = 2;

export interface FramingOptions {
  /** Timed runs per contender (default 11). */
  repeats?: number;
  /** Untimed runs first (default 2). */
  warmUpRuns?: number;
  /** The workloads' sizes (default the full ones). */
  sizes?: WorkloadSizes;
}

export async function runFramingBench(options: FramingOptions = {}): Promise<FramingRow[]> {
  const repeats = Math.max(1, options.repeats ?? DEFAULT_REPEATS);
  const warmUpRuns = Math.max(0, options.warmUpRuns ?? DEFAULT_WARM_UP_RUNS);
  const rows: FramingRow[] = [];
  for (const workload of buildWorkloads(options.sizes)) rows.push(...benchWorkload(workload, repeats, warmUpRuns));
  return rows;
}

function benchWorkload(workload: Workload, repeats: number, warmUpRuns: number): FramingRow[] {
  const expected = workload.messages.length;
  const bodies = workload.messages.map((message) => JSON.stringify(message));
  const utf8 = new TextEncoder();
  const bodyBytes = bodies.map((body) => utf8.encode(body));

  const parseOnly = () => {
    for (const body of bodies) JSON.parse(body);
  };
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decodeAndParse = () => {
    for (const body of bodyBytes) JSON.parse(decoder.decode(body));
  };

  const sdkChunks = cutIntoChunks(utf8.encode(bodies.map((body) => `${body}\n`).join('')), workload.chunkBytes).map(
    (chunk) => Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length),
  );
  const sdkRead = () => {
    const buffer = new ReadBuffer();
    let count = 0;
    for (const chunk of sdkChunks) {
      buffer.append(chunk);
      while (buffer.readMessage() !== null) count++;
    }
    expectCount('SDK ReadBuffer', workload, count, expected);
  };

  const readers = FRAMING_NAMES.map((name) => {
    const framing = getFraming(name);
    const chunks = cutIntoChunks(concatBytes(workload.messages.map((message) => framing.encode(message))), workload.chunkBytes);
    const read = () => {
      const reader = framing.createReader();
      let count = 0;
      for (const chunk of chunks) {
        for (const item of reader.push(chunk)) {
          if (item.type !== 'message') throw new Error(`${name} reader, ${workload.name}: unexpected ${item.kind}: ${item.detail}`);
          count++;
        }
      }
      expectCount(`${name} reader`, workload, count, expected);
    };
    return { name, read };
  });
  const sse = sseContenders(workload);
  // Interleaved, so that garbage collection and CPU noise fall on every contender alike.
  const contenders = [parseOnly, decodeAndParse, sdkRead, ...readers.map((reader) => reader.read), sse.ours, sse.sdk];
  const times = contenders.map(() => [] as number[]);
  for (let run = 0; run < warmUpRuns + repeats; run++) {
    contenders.forEach((contender, i) => {
      const ms = timeOnce(contender);
      if (run >= warmUpRuns) times[i]!.push(ms);
    });
  }
  // Checked after the timed runs, item by item: a check that first collected all 10,000 items,
  // run before the timing, slowed the readers' timed runs by 10-20% (the GC heuristics it left
  // behind), while leaving the SDK, which it did not run, untouched.
  checkRoundTrip(workload, bodies);
  checkSseRoundTrip(workload, bodies);
  const [jsonParseMs, decodeAndParseMs, sdkReadBufferMs, ...rest] = times.map(median);
  const readerMs = rest.slice(0, readers.length);
  const [sseMs, sdkSseMs] = rest.slice(readers.length);
  const rows: FramingRow[] = readers.map((reader, i) => ({
    workload: workload.name,
    framing: reader.name,
    ms: readerMs[i]!,
    jsonParseMs: jsonParseMs!,
    sdkReadBufferMs: sdkReadBufferMs!,
    decodeAndParseMs: decodeAndParseMs!,
  }));
  rows.push({ workload: workload.name, framing: 'sse', ms: sseMs!, jsonParseMs: jsonParseMs!, sdkReadBufferMs: sdkSseMs!, decodeAndParseMs: decodeAndParseMs! });
  return rows;
}

/** The workload as a server's SSE stream: one event per message, each with an id. */
function sseStream(workload: Workload): Uint8Array {
  return concatBytes(workload.messages.map((message, i) => encodeSseEvent({ id: `0-${i}`, data: JSON.stringify(message) })));
}

/** Our SSE reader and the SDK's pair, each reading every event and parsing its data as JSON. */
function sseContenders(workload: Workload): { ours: () => void; sdk: () => void } {
  const expected = workload.messages.length;
  const chunks = cutIntoChunks(sseStream(workload), workload.chunkBytes);
  const ours = () => {
    const reader = new SseReader();
    let count = 0;
    for (const chunk of chunks) {
      for (const item of reader.push(chunk)) {
        if (item.type !== 'event') throw new Error(`sse reader, ${workload.name}: unexpected ${item.kind}: ${item.detail}`);
        JSON.parse(item.event.data);
        count++;
      }
    }
    expectCount('sse reader', workload, count, expected);
  };
  const sdk = () => {
    let count = 0;
    const parser = createParser({
      onEvent(event) {
        JSON.parse(event.data);
        count++;
      },
    });
    const decoder = new TextDecoder();
    for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
    expectCount('SDK SSE parser', workload, count, expected);
  };
  return { ours, sdk };
}

/** The SSE reader gives back exactly the messages that went in, in order. */
function checkSseRoundTrip(workload: Workload, bodies: string[]): void {
  const reader = new SseReader();
  let index = 0;
  for (const chunk of cutIntoChunks(sseStream(workload), workload.chunkBytes)) {
    for (const item of reader.push(chunk)) {
      const text = item.type === 'event' ? JSON.stringify(JSON.parse(item.event.data)) : `error ${item.kind}`;
      if (text !== bodies[index++]) throw new Error(`sse reader, ${workload.name}: message ${index - 1} differs from what was encoded`);
    }
  }
  if (index !== bodies.length) throw new Error(`sse reader, ${workload.name}: read ${index} messages, expected ${bodies.length}`);
}

/** Each reader gives back exactly the messages that went in, in order. */
function checkRoundTrip(workload: Workload, bodies: string[]): void {
  for (const name of FRAMING_NAMES) {
    const framing = getFraming(name);
    const reader = framing.createReader();
    let index = 0;
    for (const chunk of cutIntoChunks(concatBytes(workload.messages.map((message) => framing.encode(message))), workload.chunkBytes)) {
      for (const item of reader.push(chunk)) {
        const text = item.type === 'message' ? JSON.stringify(item.value) : `error ${item.kind}`;
        if (text !== bodies[index++]) throw new Error(`${name} reader, ${workload.name}: message ${index - 1} differs from what was encoded`);
      }
    }
    if (index !== bodies.length) throw new Error(`${name} reader, ${workload.name}: read ${index} messages, expected ${bodies.length}`);
  }
}

function expectCount(who: string, workload: Workload, count: number, expected: number): void {
  if (count !== expected) throw new Error(`${who}, ${workload.name}: read ${count} messages, expected ${expected}`);
}

function timeOnce(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
