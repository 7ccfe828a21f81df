// The bridge with real sockets and real processes, on a loopback port: who gets in, what may be
// started, and that nothing is left running once a connection ends.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import WebSocket from 'ws';
import { getFraming } from '../src/protocol/framing/index.ts';
import { parseTapEvent, type TapEvent } from '../src/runtime/tap-protocol.ts';
import type { FramingName } from '../src/protocol/framing/types.ts';
import { createBridge, type BridgeOptions } from './bridge.ts';
import { KILL_GRACE_MS } from './bridge-session.ts';
import {
  buildProgramsForTest,
  childPids,
  collectMessages,
  isAlive,
  startTestBridge,
  waitUntil,
  WsTapTransport,
  type TestBridge,
} from '../tests/integration/ws-tap-transport.ts';

let programs: { dir: string; remove(): Promise<void> };
let bridges: TestBridge[] = [];
const sockets: WebSocket[] = [];

beforeAll(async () => {
  programs = await buildProgramsForTest();
});
afterAll(async () => {
  await programs.remove();
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(bridges.map((b) => b.close()));
  for (const b of bridges) expect(b.bridge.activeProcesses).toBe(0);
  bridges = [];
});

async function newBridge(options: { maxTotal?: number; startTimeoutMs?: number } = {}): Promise<TestBridge> {
  const b = await startTestBridge({ programsDir: programs.dir, ...options });
  bridges.push(b);
  return b;
}

async function startTransport(b: TestBridge, start: Record<string, unknown>): Promise<WsTapTransport> {
  const transport = await WsTapTransport.start(b.url, b.origin, start);
  sockets.push(transport.socket);
  return transport;
}

const ECHO_NDJSON = { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] };

// Who may connect (Origin and token forms) and what may be started (program and argument
// injection) are probed in tests/security/bridge-probe.test.ts.
describe('connecting', () => {
  it('leaves other paths to the HTTP server', () => {
    const bridge = createBridge({ token: 't', allowedOrigins: [], programsDir: '/nonexistent', learnerCode: { run: 'never', why: 'not-enabled' }, log: () => {} });
    const req = { url: '/@vite/hmr', headers: {} } as never;
    expect(bridge.handleUpgrade(req, {} as never, Buffer.alloc(0))).toBe(false);
  });

  it('starts the server for the right token and Origin, and relays the tap lines', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    expect(spawn.ev === 'spawn' && spawn.argv.slice(-1)).toEqual(['--framing=ndjson']);
    expect(b.bridge.activeProcesses).toBe(1);
    expect(b.bridge.serverPids).toEqual([transport.serverPid]);
  });

  it('runs the tap in-process: the server is the only process started, a direct child of the bridge', async () => {
    const b = await newBridge();
    const before = childPids();
    const transport = await startTransport(b, ECHO_NDJSON);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    expect(spawn).toMatchObject({ ev: 'spawn', argv: [process.execPath, join(programs.dir, 'echo-server.mjs'), '--framing=ndjson'] });
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([transport.serverPid]);
    // Its own process group, so one kill reaches whatever it might spawn.
    expect(processGroupOf(transport.serverPid as number)).toBe(transport.serverPid);
  });

  it('cannot be created without an explicit decision about learner code', () => {
    expect(() => createBridge({ token: 't', allowedOrigins: [], programsDir: '/x' } as unknown as BridgeOptions)).toThrow(/learnerCode/);
  });
});

describe('processes end with their connection', () => {
  it('kills the server shortly after the socket closes', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const serverPid = transport.serverPid as number;
    expect(b.bridge.serverPids).toEqual([serverPid]);
    expect(isAlive(serverPid)).toBe(true);

    transport.close();
    await waitUntil(() => !isAlive(serverPid), 4_000, 'the server to exit');
    await waitUntil(() => b.bridge.activeProcesses === 0, 1_000, 'the count to drop');
  });

  it('kills them when the socket drops without a close handshake', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const serverPid = transport.serverPid as number;
    transport.socket.terminate();
    await waitUntil(() => !isAlive(serverPid), 4_000, 'the server to exit');
    await waitUntil(() => b.bridge.activeProcesses === 0, 1_000, 'the count to drop');
  });

  it('ends a stopped server at once: SIGCONT follows the SIGTERM, so it cannot sit on its slot', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const serverPid = transport.serverPid as number;
    // A stopped process cannot act on SIGTERM until it runs again.
    process.kill(serverPid, 'SIGSTOP');
    await waitUntil(() => threadStates(serverPid).every((state) => state === 'T'), 2_000, 'every thread to stop');
    transport.close();
    // Well before the SIGKILL of the grace period: the SIGTERM acted as soon as SIGCONT woke it.
    await waitUntil(() => !isAlive(serverPid), KILL_GRACE_MS - 500, 'the stopped server to end');
    await waitUntil(() => b.bridge.activeProcesses === 0, 1_000, 'the count to drop');
  });

  it('closes the socket with 1000 after relaying the exit when the server ends', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    transport.end();
    expect(await transport.closed).toBe(1000);
    expect(transport.events.at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    await waitUntil(() => b.bridge.activeProcesses === 0, 2_000, 'the count to drop');
  });

  it('passes a kill command on, and drops malformed or unsafe commands', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const serverPid = transport.serverPid as number;
    transport.socket.send(JSON.stringify({ cmd: 'kill', signal: 'SIGSTOP' }));
    transport.socket.send(JSON.stringify({ cmd: 'write', b64: 'not base64!' }));
    transport.socket.send('{"cmd":"eof"} trailing junk');
    transport.socket.send(JSON.stringify({ cmd: 'exec', line: 'id' }));
    transport.socket.send(Buffer.from('{"cmd":"eof"}'));
    // Had any of those reached the tap, the server would be stopped or have seen EOF and exited.
    const reply = collectS2c(transport);
    transport.write(getFraming('ndjson').encode({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await waitUntil(() => reply().includes('"id":1'), 5_000, 'the ping reply');
    expect(transport.events.some((event) => event.ev === 'exit' || event.ev === 'error')).toBe(false);
    expect(readProcessState(serverPid)).not.toBe('T');

    transport.command({ cmd: 'kill', signal: 'SIGTERM' });
    expect(await transport.closed).toBe(1000);
    expect(transport.events.at(-1)).toMatchObject({ ev: 'exit', signal: 'SIGTERM' });
  });

  it('closeAll ends every connection and every process', async () => {
    const b = await newBridge();
    const transports = await Promise.all([1, 2, 3].map(() => startTransport(b, ECHO_NDJSON)));
    await Promise.all(transports.map((t) => t.waitForEvent((event) => event.ev === 'spawn')));
    const pids = transports.map((t) => t.serverPid as number);
    expect([...b.bridge.serverPids].sort()).toEqual([...pids].sort());
    expect(new Set(pids).size).toBe(3);
    await b.bridge.closeAll();
    expect(b.bridge.activeProcesses).toBe(0);
    await waitUntil(() => pids.every((pid) => !isAlive(pid)), 1_000, 'every process to be gone');
    await expect(startTransport(b, ECHO_NDJSON)).rejects.toThrow(/403|shutting down/);
  });
});

describe('tap lines on the socket', () => {
  it('sends the lines of one event-loop turn as one message, and loses none of them', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    const messages = collectMessages(transport.socket);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const framing = getFraming('ndjson');
    const frames = Array.from({ length: 50 }, (_, id) => framing.encode({ jsonrpc: '2.0', id, method: 'ping' }));
    // Sent back to back: the bridge reads several commands per turn, so their c2s lines share messages.
    for (const frame of frames) transport.write(frame);
    const reply = collectS2c(transport);
    await waitUntil(() => reply().split('\n').filter(Boolean).length === frames.length, 5_000, 'every ping reply');
    transport.end();
    expect(await transport.closed).toBe(1000);

    const lines = messages.flatMap((message) => message.split('\n'));
    // Every line of every message is a whole tap event: nothing blank, nothing cut.
    expect(lines.filter((line) => parseTapEvent(line) === null)).toEqual([]);
    expect(lines.length).toBeGreaterThan(messages.length);
    expect(messages.some((message) => message.includes('\n'))).toBe(true);
    const events = lines.map((line) => parseTapEvent(line) as TapEvent);
    expect(events.at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    expect(events.filter((event) => event.ev === 'exit')).toHaveLength(1);
    // The c2s bytes are exactly what was written, in order; a batch never reorders.
    expect(Buffer.concat(events.flatMap((event) => (event.ev === 'c2s' ? [Buffer.from(event.b64, 'base64')] : [])))).toEqual(Buffer.concat(frames));
    // The transport (listening since before the spawn event) parsed the very same events.
    expect(transport.events.slice(-events.length)).toEqual(events);
  });
});

describe('an MCP handshake through the bridge', () => {
  it.each<[string, Record<string, unknown>, FramingName]>([
    ['echo-server, content-length', { type: 'start', program: 'echo-server', framing: 'content-length', faults: [] }, 'content-length'],
    ['echo-server, ndjson', ECHO_NDJSON, 'ndjson'],
    ['sdk-echo-server (no faults field)', { type: 'start', program: 'sdk-echo-server', framing: 'ndjson' }, 'ndjson'],
  ])('%s: initialize written via {"cmd":"write"} comes back as s2c', async (_name, start, framingName) => {
    const b = await newBridge();
    const transport = await startTransport(b, start);
    const framing = getFraming(framingName);
    const reader = framing.createReader();
    const messages: any[] = [];
    transport.onData((chunk) => {
      for (const item of reader.push(chunk)) if (item.type === 'message') messages.push(item.value);
    });
    const frame = framing.encode({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bridge-test', version: '1' } },
    });
    transport.write(frame);
    await waitUntil(() => messages.length > 0, 5_000, 'the initialize response');
    expect(messages[0]).toMatchObject({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} } } });
    // The tap confirms the exact bytes that reached the server's stdin.
    const c2s = await transport.waitForEvent((event) => event.ev === 'c2s');
    expect(c2s.ev === 'c2s' && Buffer.from(c2s.b64, 'base64')).toEqual(Buffer.from(frame));
  });
});

function collectS2c(transport: WsTapTransport): () => string {
  const chunks: Buffer[] = [];
  transport.onData((chunk) => chunks.push(Buffer.from(chunk)));
  return () => Buffer.concat(chunks).toString('utf8');
}

/** The state of each thread of a process (from /proc/PID/task/TID/stat). */
function threadStates(pid: number): string[] {
  return readdirSync(`/proc/${pid}/task`).map((tid) => {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
  });
}

/** The process group id (field 5 of /proc/PID/stat). */
function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

/** R running, S sleeping, T stopped... (field 3 of /proc/PID/stat) */
function readProcessState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
}
