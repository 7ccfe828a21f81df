// The TCP relay of the bridge (server/relay-tap.ts) keeps the bridge's rules: only our page (Origin)
// with the run's token connects; only the shipped HTTP server runs, on a port it chose itself; a
// connect command cannot aim anywhere else, whatever host or port it names; the relay holds a
// bounded number of connections; and the server behind it still refuses a rebinding Host.

import { createServer as createTcpServer, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MAX_RELAY_CONNECTIONS } from '../../server/relay-tap.ts';
import { serializeRequest } from '../../src/protocol/http/http1-writer.ts';
import { base64ToBytes, bytesToBase64 } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, startTestBridge, tryUpgrade, waitUntil, WsTapTransport, type TestBridge } from '../integration/ws-tap-transport.ts';

const START = { type: 'start', program: 'mcp-http', framing: 'ndjson', faults: [] };
let programs: { dir: string; remove(): Promise<void> };
let bridge: TestBridge;
const transports: WsTapTransport[] = [];

beforeAll(async () => {
  programs = await buildProgramsForTest();
  bridge = await startTestBridge({ programsDir: programs.dir });
});
afterAll(async () => {
  await bridge.close();
  await programs.remove();
});
afterEach(async () => {
  for (const transport of transports.splice(0)) transport.socket.terminate();
  await waitUntil(() => bridge.bridge.activeProcesses === 0, 5_000, 'every relay server to be gone');
});

async function start(): Promise<WsTapTransport> {
  const transport = await WsTapTransport.start(bridge.url, bridge.origin, START);
  transports.push(transport);
  return transport;
}

/** Everything the server sent on connection `conn` until it closed it, as text. */
async function answerOn(transport: WsTapTransport, conn: number): Promise<string> {
  await transport.waitForEvent((event) => event.ev === 'close' && event.conn === conn);
  return transport.events
    .flatMap((event) => (event.ev === 's2c' && event.conn === conn ? [new TextDecoder().decode(base64ToBytes(event.b64))] : []))
    .join('');
}

function request(host: string): string {
  return bytesToBase64(serializeRequest({ method: 'GET', target: '/mcp', headers: [['Host', host], ['Accept', 'text/event-stream'], ['Connection', 'close']] }));
}

describe('the HTTP relay keeps the bridge rules', () => {
  it('refuses a page from another origin, and a page without the token, before anything starts', async () => {
    const foreign = await tryUpgrade(bridge.url, 'http://evil.example');
    expect(foreign).toMatchObject({ kind: 'rejected', status: 403 });
    const noToken = await tryUpgrade(bridge.url.replace(/\?token=.*$/, ''), bridge.origin);
    expect(noToken).toMatchObject({ kind: 'rejected', status: 403 });
    expect(bridge.bridge.activeProcesses).toBe(0);
  });

  it('refuses a start message that names a port, an argument or a program of its own', async () => {
    for (const start of [
      { ...START, port: 22 },
      { ...START, args: ['--port=22'] },
      { ...START, faults: ['stdout-log'] },
      { ...START, framing: 'content-length' },
      { ...START, program: '/bin/sh' },
    ]) {
      await expect(WsTapTransport.start(bridge.url, bridge.origin, start)).rejects.toThrow(/^refused: /);
    }
    expect(bridge.bridge.activeProcesses).toBe(0);
  });

  it('connects only to the shipped server, whatever host and port a connect command names', async () => {
    const decoy: Server = createTcpServer((socket) => socket.destroy());
    let decoyConnections = 0;
    decoy.on('connection', () => decoyConnections++);
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    const decoyPort = (decoy.address() as AddressInfo).port;
    try {
      const transport = await start();
      // Extra fields are not part of the command: the relay never reads them.
      transport.socket.send(JSON.stringify({ cmd: 'connect', conn: 1, host: '127.0.0.1', port: decoyPort }));
      transport.socket.send(JSON.stringify({ cmd: 'connect', conn: 2, host: 'example.com', port: 80 }));
      await transport.waitForEvent((event) => event.ev === 'open' && event.conn === 1);
      await transport.waitForEvent((event) => event.ev === 'open' && event.conn === 2);
      transport.socket.send(JSON.stringify({ cmd: 'write', conn: 1, b64: request('127.0.0.1') }));
      // The MCP server answers (a GET without a session is its 400), not the decoy.
      expect(await answerOn(transport, 1)).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*"jsonrpc":"2.0"/);
      expect(decoyConnections).toBe(0);
    } finally {
      await new Promise<void>((resolve) => decoy.close(() => resolve()));
    }
  });

  it('passes a DNS-rebinding Host on to the server, which refuses it with 403', async () => {
    const transport = await start();
    transport.command({ cmd: 'connect', conn: 1 });
    await transport.waitForEvent((event) => event.ev === 'open');
    transport.command({ cmd: 'write', conn: 1, b64: request('evil.example') });
    expect(await answerOn(transport, 1)).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n/);
  });

  it(`holds at most ${MAX_RELAY_CONNECTIONS} connections at once, and reuses no connection number`, async () => {
    const transport = await start();
    for (let conn = 1; conn <= MAX_RELAY_CONNECTIONS + 1; conn++) transport.command({ cmd: 'connect', conn });
    const refused = await transport.waitForEvent((event) => event.ev === 'close' && event.conn === MAX_RELAY_CONNECTIONS + 1);
    expect(refused).toMatchObject({ message: expect.stringContaining(`at most ${MAX_RELAY_CONNECTIONS}`) });
    transport.command({ cmd: 'connect', conn: 1 });
    expect(await transport.waitForEvent((event) => event.ev === 'error')).toMatchObject({ message: 'connection 1 was already used' });
  });
});
