// The --listen relay in-process, against a bare TCP echo target: whatever body bytes a client
// sends after a loopback request head, in whatever pieces, cross unchanged both ways, and the trace
// holds exactly those bytes per connection. (Bytes past the body are the next request, judged in
// turn: relay-gate.test.ts.)

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTrace } from '../src/runtime/trace/trace-reader.ts';
import type { TraceEvent } from '../src/runtime/trace/trace-format.ts';
import { parseTapArgs } from './tap-args.ts';
import { startRelay } from './tap-http-relay.ts';

let dir: string;
let echo: Server;
let echoPort: number;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-'));
  // Echoes every byte back, and ends its side when the client ends its own.
  echo = createServer({ allowHalfOpen: true }, (socket) => {
    socket.on('data', (chunk) => socket.write(chunk));
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
  echoPort = (echo.address() as AddressInfo).port;
});
afterAll(() => {
  echo.close();
  rmSync(dir, { recursive: true, force: true });
});

const bytesOf = (events: TraceEvent[], ev: 'c2s' | 's2c', conn: number) =>
  Buffer.concat(events.flatMap((e) => (e.ev === ev && 'conn' in e && e.conn === conn ? [Buffer.from(e.b64, 'base64')] : [])));

/** Send the pieces one write at a time (each after the previous was flushed), end, collect the echo. */
function exchange(port: number, pieces: Buffer[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = createConnection({ host: '127.0.0.1', port, allowHalfOpen: true });
    const received: Buffer[] = [];
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(received)));
    socket.on('error', reject);
    const next = (i: number): void => {
      if (i === pieces.length) return void socket.end();
      socket.write(pieces[i]!, () => setImmediate(() => next(i + 1)));
    };
    socket.on('connect', () => next(0));
  });
}

describe('the HTTP relay', () => {
  it('passes any body after a loopback head unchanged both ways, and records exactly them', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.uint8Array({ minLength: 1, maxLength: 70_000, size: 'max' }), { minLength: 0, maxLength: 6 }), fc.nat({ max: 40 }), async (payload, cutAt) => {
        const file = join(dir, `relay-${run++}.jsonl`);
        const args = parseTapArgs([`--record=${file}`, '--listen', `--target=http://127.0.0.1:${echoPort}/mcp`]);
        if (args === 'help' || 'error' in args || args.mode !== 'http') throw new Error('bad args');
        const relay = await startRelay(args);
        let sent = Buffer.alloc(0);
        try {
          const length = payload.reduce((sum, p) => sum + p.length, 0);
          const head = Buffer.from(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${new URL(relay.url).port}\r\nContent-Type: application/octet-stream\r\nContent-Length: ${length}\r\n\r\n`);
          // The head itself may arrive in two pieces: the gate must wait for its end.
          const cut = Math.min(cutAt, head.length - 1);
          const pieces = [head.subarray(0, cut), head.subarray(cut), ...payload.map((p) => Buffer.from(p))].filter((p) => p.length > 0);
          sent = Buffer.concat(pieces);
          const echoed = await exchange(Number(new URL(relay.url).port), pieces);
          expect(echoed.equals(sent)).toBe(true);
        } finally {
          await relay.stop();
        }
        const trace = parseTrace(readFileSync(file));
        if ('error' in trace) throw new Error(trace.error.message);
        expect(bytesOf(trace.events, 'c2s', 1).equals(sent)).toBe(true);
        expect(bytesOf(trace.events, 's2c', 1).equals(sent)).toBe(true);
        expect(trace.events.at(-1)).toMatchObject({ ev: 'close', conn: 1 });
        expect(trace.events.filter((e) => e.ev === 'error')).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });
});
