// HTTP traces: the HTTP stepper's session saved as a trace holds every connection's exact bytes,
// and opened in the trace view reads as the JSON-RPC messages those requests and responses carried
// (bodies and SSE events), each connection back as the stepper's exchange for the HTTP inspector.

import { describe, expect, it } from 'vitest';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import { parseTrace } from '../../runtime/trace/index.ts';
import { base64ToBytes } from '../../runtime/tap-protocol.ts';
import { HttpSessionStore } from '../protocol/http-session-store.ts';
import type { LogEntry } from '../live-session/message-log.ts';
import { httpTraceText } from './trace-export.ts';
import { exchangeOfConnection } from './http-trace-exchange.ts';
import { TraceStore, type TraceLoader } from './trace-store.ts';
import { chunksOf, readTrace } from './trace-worker-core.ts';
import { diagramPage } from './trace-diagram.ts';

const inProcessLoader: TraceLoader = {
  open(source, onMessage) {
    const total = typeof source === 'string' ? source.length : source.size;
    void readTrace(chunksOf(source), total, onMessage, 4);
    return () => {};
  },
};

function concatBytes(parts: readonly Uint8Array[]): number[] {
  return parts.flatMap((part) => [...part]);
}

function messages(entries: readonly LogEntry[]) {
  return entries.flatMap((entry) =>
    entry.type === 'bytes' ? entry.frames.map((frame) => (frame.type === 'message' ? [entry.direction, entry.conn, frame.kind, frame.method, frame.id] : [entry.direction, entry.conn, frame.type, frame.kind, null])) : [],
  );
}

describe('an HTTP stepper session as a trace', () => {
  it('saves every connection byte for byte, and opens as its JSON-RPC messages', async () => {
    const stepper = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec) });
    await stepper.runToEnd();
    const { exchanges } = stepper.getSnapshot();
    const recording = stepper.recording();
    expect(recording).not.toBeNull();
    const text = httpTraceText(recording!);

    // Round trip: the file's bytes per connection and direction are the stepper's.
    const parsed = parseTrace(text);
    if ('error' in parsed) throw new Error(parsed.error.message);
    expect(parsed.header).toMatchObject({ mode: 'http', framing: 'http' });
    for (const exchange of exchanges) {
      for (const direction of ['c2s', 's2c'] as const) {
        const saved = parsed.events.flatMap((event) => (event.ev === direction && event.conn === exchange.conn ? [base64ToBytes(event.b64)] : []));
        expect(concatBytes(saved), `conn ${exchange.conn} ${direction}`).toEqual(concatBytes(exchange[direction]));
        expect(saved.length).toBe(exchange[direction].length);
      }
    }

    // Opened: the messages the bodies and event streams carried, on their connections.
    const store = new TraceStore(inProcessLoader);
    expect(await store.open('http.jsonl', text)).toBe('opened');
    const { log, methods } = store.getSnapshot();
    const conn = (request: string) => exchanges.find((exchange) => exchange.request === request)!.conn;
    const found = messages(log.entries);
    const progress = found.filter((row) => row[3] === 'notifications/progress');
    expect(progress.length).toBe(stepper.getSnapshot().progress.length);
    expect(progress.every((row) => row[0] === 's2c' && row[1] === conn('POST tools/call') && row[2] === 'notification')).toBe(true);
    expect(found.filter((row) => row[3] !== 'notifications/progress')).toEqual([
      ['c2s', conn('POST initialize'), 'request', 'initialize', 0],
      ['s2c', conn('POST initialize'), 'response', 'initialize', 0],
      ['c2s', conn('POST notifications/initialized'), 'notification', 'notifications/initialized', null],
      ['c2s', conn('POST tools/call'), 'request', 'tools/call', 1],
      ['s2c', conn('POST tools/call'), 'response', 'tools/call', 1],
    ]);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'notifications/progress', 'tools/call']);

    // Each connection comes back as the stepper's exchange (what the HTTP inspector shows).
    for (const exchange of exchanges) {
      const back = exchangeOfConnection(log.entries, exchange.conn)!;
      expect({ ...back, step: exchange.step }).toEqual(exchange);
    }

    // The diagram draws a request arrow and a response arrow for each message (and the server's exit).
    const page = diagramPage(log.entries, 0);
    expect(page.records[0]!.arrows.map((arrow) => [arrow.direction, arrow.kind === 'exit' ? 'exit' : arrow.method]).filter(([, method]) => method !== 'notifications/progress')).toEqual([
      ['c2s', 'initialize'],
      ['s2c', 'initialize'],
      ['c2s', 'notifications/initialized'],
      ['c2s', 'tools/call'],
      ['s2c', 'tools/call'],
      ['s2c', 'exit'],
    ]);

    // A restarted stepper has nothing to save until its next session starts.
    stepper.restart();
    expect(stepper.recording()).toBeNull();
  });
});
