// The relay tap on its own, with small real programs in place of mcp-http: connects that come
// before the program says where it listens wait for it; only the first stdout line, and only a
// loopback http URL on it, names the port; a connection closed while waiting is reported closed.

import { afterEach, describe, expect, it } from 'vitest';
import { base64ToBytes, bytesToBase64, type TapEvent } from '../src/runtime/tap-protocol.ts';
import { startRelayTap } from './relay-tap.ts';
import type { TapCore } from './tap-core.ts';

/** A node program that listens on a free loopback port after `delayMs` and prints `line(port)`. */
function server(delayMs: number, line: string): string[] {
  const script = `setTimeout(() => { const s = require('http').createServer((q, r) => r.end('hi')); s.listen(0, '127.0.0.1', () => { process.stdout.write(${line}); }); process.stdin.on('end', () => process.exit(0)); process.stdin.resume(); }, ${delayMs});`;
  return [process.execPath, '-e', script];
}

const taps: TapCore[] = [];
afterEach(() => {
  for (const tap of taps.splice(0)) tap.kill('SIGKILL');
});

function start(argv: string[]) {
  const events: TapEvent[] = [];
  const waiters: Array<() => void> = [];
  const tap = startRelayTap({ argv, onLine: (_line, event) => (events.push(event), waiters.forEach((wake) => wake())), onEnd: () => {} });
  taps.push(tap);
  const waitFor = (predicate: (event: TapEvent) => boolean, timeoutMs = 5000) =>
    new Promise<TapEvent>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no such event; saw ${events.map((event) => event.ev).join(', ')}`)), timeoutMs);
      const check = () => {
        const found = events.find(predicate);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      };
      waiters.push(check);
      check();
    });
  return { tap, events, waitFor };
}

const GET = bytesToBase64(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));

describe('startRelayTap', () => {
  it('holds a connect made before the server listens, then relays it to the port the server printed', async () => {
    const { tap, events, waitFor } = start(server(300, "'http://127.0.0.1:' + s.address().port + '/mcp\\n'"));
    tap.run({ cmd: 'connect', conn: 1 });
    await waitFor((event) => event.ev === 'open' && event.conn === 1);
    tap.run({ cmd: 'write', conn: 1, b64: GET });
    await waitFor((event) => event.ev === 'close' && event.conn === 1);
    const received = events.flatMap((event) => (event.ev === 's2c' && event.conn === 1 ? [new TextDecoder().decode(base64ToBytes(event.b64))] : [])).join('');
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\nhi$/);
    // The request went out once, as written, on that connection.
    expect(events.filter((event) => event.ev === 'c2s').map((event) => (event as { b64: string; conn?: number }).conn)).toEqual([1]);
    // The server's stdout line is still reported, as any stdout is.
    expect(events.some((event) => event.ev === 's2c' && event.conn === undefined)).toBe(true);
  });

  it('never connects when the first line is not a loopback URL of the server', async () => {
    // A loopback URL on the second line, printed a moment later, is not taken either.
    const { tap, events, waitFor } = start(server(0, "'http://10.0.0.1:' + s.address().port + '/mcp\\n'); setTimeout(() => process.stdout.write('http://127.0.0.1:' + s.address().port + '/mcp\\n'), 50"));
    await waitFor((event) => event.ev === 's2c' && event.conn === undefined && new TextDecoder().decode(base64ToBytes(event.b64)).includes('127.0.0.1'));
    tap.run({ cmd: 'connect', conn: 1 });
    // Still waiting for a port: the bytes have nowhere to go.
    tap.run({ cmd: 'write', conn: 1, b64: GET });
    expect(await waitFor((event) => event.ev === 'error')).toMatchObject({ message: 'write to connection 1, which is not open' });
    tap.run({ cmd: 'close', conn: 1 });
    await waitFor((event) => event.ev === 'close' && event.conn === 1);
    expect(events.some((event) => event.ev === 'open' || (event.ev === 's2c' && event.conn !== undefined))).toBe(false);
  });

  it('counts bytes a server has not read as backlog, and says when they are gone', async () => {
    // A server that accepts and never reads: the relay's socket fills up.
    const script = "const s = require('net').createServer((c) => c.pause()); s.listen(0, '127.0.0.1', () => process.stdout.write('http://127.0.0.1:' + s.address().port + '/mcp\\n')); process.stdin.resume();";
    const { tap, waitFor } = start([process.execPath, '-e', script]);
    tap.run({ cmd: 'connect', conn: 1 });
    await waitFor((event) => event.ev === 'open');
    tap.run({ cmd: 'write', conn: 1, b64: bytesToBase64(new Uint8Array(16 * 1024 * 1024)) });
    expect(tap.inputBacklogBytes).toBeGreaterThan(0);
    let drained = false;
    tap.onInputDrained(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(drained).toBe(false);
    tap.run({ cmd: 'close', conn: 1 });
    await waitFor((event) => event.ev === 'close');
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(drained).toBe(true);
    expect(tap.inputBacklogBytes).toBe(0);
  });
});
