// The trace reader on a large trace: 100,000 messages, ~100 MB, read the way the page's worker
// reads a file (1 MiB byte chunks through TraceReader: UTF-8 decode, split, JSON.parse and the
// format's checks on every line), against baselines measured in the same run on the same data:
// the same trace saved as ONE plain JSON array and parsed with JSON.parse (what "open it as plain
// JSON" costs), and JSON.parse of each line with no checks (the floor of any line reader).

import { performance } from 'node:perf_hooks';
import { TraceReader } from '../src/runtime/trace/trace-reader.ts';
import type { TraceEvent, TraceHeader } from '../src/runtime/trace/trace-format.ts';
import { serializeTrace } from '../src/runtime/trace/trace-serialize.ts';
import { median } from './report.ts';

export interface TraceBenchRow {
  what: string;
  ms: number;
}

export interface TraceBenchReport {
  messages: number;
  fileBytes: number;
  rows: TraceBenchRow[];
}

const HEADER: TraceHeader = {
  format: 'mcp-playground-trace',
  version: 1,
  mode: 'stdio',
  framing: 'ndjson',
  framingSource: 'given',
  started: '2026-12-01T16:00:00.000Z',
  recorder: 'bench',
  program: ['node', 'server.js'],
};

/** `messages` tools/call requests and replies, each ~700 bytes of JSON, as c2s / s2c events. */
export function makeLargeTrace(messages: number): string {
  const events: TraceEvent[] = [];
  const filler = 'lorem ipsum dolor sit amet '.repeat(22);
  for (let i = 0; i < messages; i++) {
    const message = i % 2 === 0
      ? { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { text: `${i} ${filler}` } } }
      : { jsonrpc: '2.0', id: i - 1, result: { content: [{ type: 'text', text: `${i} ${filler}` }] } };
    events.push({ tap: 1, ev: i % 2 === 0 ? 'c2s' : 's2c', t: i / 10, b64: Buffer.from(`${JSON.stringify(message)}\n`).toString('base64') });
  }
  return serializeTrace({ header: HEADER, events });
}

function time(run: () => void, repeats: number): number {
  const samples: number[] = [];
  for (let i = 0; i < repeats; i++) {
    const start = performance.now();
    run();
    samples.push(performance.now() - start);
  }
  return median(samples);
}

export function runTraceBench(messages = 100_000, repeats = 3): TraceBenchReport {
  const text = makeLargeTrace(messages);
  const bytes = new TextEncoder().encode(text);
  const lines = text.trimEnd().split('\n');
  const asJsonArray = `[${lines.join(',')}]`;
  const chunk = 1 << 20;

  const row = (what: string, run: () => void): TraceBenchRow => ({ what, ms: time(run, repeats) });

  const rows = [
    row('JSON.parse of the whole trace as one JSON array (baseline)', () => {
      if ((JSON.parse(asJsonArray) as unknown[]).length !== lines.length) throw new Error('lost lines');
    }),
    row('JSON.parse of each line, no checks (floor)', () => {
      let count = 0;
      for (const line of lines) if (JSON.parse(line)) count++;
      if (count !== lines.length) throw new Error('lost lines');
    }),
    row('TraceReader, 1 MiB byte chunks (decode, split, parse, check)', () => {
      const reader = new TraceReader();
      let events = 0;
      for (let offset = 0; offset < bytes.length; offset += chunk) {
        const result = reader.push(bytes.subarray(offset, offset + chunk));
        if (result.error) throw new Error(result.error.message);
        events += result.events.length;
      }
      const last = reader.end();
      if (last.error) throw new Error(last.error.message);
      if (events + last.events.length !== messages) throw new Error('lost events');
    }),
  ];
  return { messages, fileBytes: bytes.length, rows };
}
