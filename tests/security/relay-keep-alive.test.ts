// Issue 22: the tap's --listen relay (server/tap-http-relay.ts) checked Host and Origin on the
// first request of a connection only, so a second request on the same kept-alive connection
// reached the server unchecked. Here a real node:http server sits behind the relay and counts the
// requests it sees; a raw TCP client sends a good request, reads its whole response, then sends a
// second one on the same connection. A forged second one (Host or Origin of another site) gets the
// relay's 403 and never reaches the server; the control, a good second one, does.

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createConnection, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTapArgs } from '../../server/tap-args.ts';
import { startRelay, type RunningRelay } from '../../server/tap-http-relay.ts';

let dir: string;
let target: Server;
let relay: RunningRelay;
let relayPort: number;
const seen: Array<{ host: string | undefined; origin: string | undefined }> = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'relay-keep-alive-'));
  // Answers every request with a small JSON body and keeps the connection alive.
  target = createServer((req, res) => {
    seen.push({ host: req.headers.host, origin: req.headers.origin });
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' }).end('{}'));
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const args = parseTapArgs([`--record=${join(dir, 'trace.jsonl')}`, '--listen', `--target=http://127.0.0.1:${(target.address() as AddressInfo).port}/mcp`]);
  if (args === 'help' || 'error' in args || args.mode !== 'http') throw new Error('bad args');
  relay = await startRelay(args);
  relayPort = Number(new URL(relay.url).port);
});

afterAll(async () => {
  await relay?.stop();
  target?.closeAllConnections();
  await new Promise<void>((resolve) => target.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const post = (host: string, origin: string) => `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;

/** Everything the connection has received so far, as text, and a way to wait for more. */
function reader(socket: Socket): { text(): string; until(pattern: RegExp): Promise<string>; ended: Promise<void> } {
  let received = '';
  const waiters: Array<() => void> = [];
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1');
    for (const wake of waiters.splice(0)) wake();
  });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  return {
    text: () => received,
    ended,
    async until(pattern) {
      // Generous: the bytes come from loopback; the limit only keeps a broken relay from hanging the run.
      const deadline = Date.now() + 60_000;
      while (!pattern.test(received)) {
        if (Date.now() > deadline) throw new Error(`no ${pattern} in ${JSON.stringify(received)}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return received;
    },
  };
}

describe('the --listen relay judges every request on a kept-alive connection', () => {
  it.each([
    ['Host of another site', `evil.example:${0}`, 'http://evil.example', /Host "evil\.example:0" is not a loopback name/],
    ['Origin of another site', '127.0.0.1', 'http://evil.example', /Origin "http:\/\/evil\.example" is not a loopback origin/],
  ])('a forged second request (%s) gets 403 and never reaches the server', async (_what, host, origin, reason) => {
    seen.length = 0;
    const socket = createConnection({ host: '127.0.0.1', port: relayPort });
    socket.on('error', () => {});
    const replies = reader(socket);
    socket.write(post(`127.0.0.1:${relayPort}`, `http://127.0.0.1:${relayPort}`));
    await replies.until(/^HTTP\/1\.1 200 OK\r\n[\s\S]*\r\n\r\n\{\}$/);
    expect(seen).toHaveLength(1);

    socket.write(post(host, origin));
    await replies.ended;
    const second = replies.text().slice(replies.text().indexOf('{}') + 2);
    expect(second).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
    expect(second).toMatch(reason);
    // The server saw the first request only.
    expect(seen).toEqual([{ host: `127.0.0.1:${relayPort}`, origin: `http://127.0.0.1:${relayPort}` }]);
  });

  it('control: a good second request on the same connection reaches the server', async () => {
    seen.length = 0;
    const socket = createConnection({ host: '127.0.0.1', port: relayPort });
    const replies = reader(socket);
    socket.write(post(`127.0.0.1:${relayPort}`, `http://127.0.0.1:${relayPort}`));
    await replies.until(/\r\n\r\n\{\}$/);
    socket.write(post(`localhost:${relayPort}`, 'http://localhost:5173'));
    await replies.until(/\r\n\r\n\{\}[\s\S]*\r\n\r\n\{\}$/);
    expect(replies.text().match(/HTTP\/1\.1 200 OK/g)).toHaveLength(2);
    expect(seen.map((request) => request.host)).toEqual([`127.0.0.1:${relayPort}`, `localhost:${relayPort}`]);
    socket.destroy();
  });
});
