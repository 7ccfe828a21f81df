// The bridge with real sockets and real processes, on a loopback port: who gets in, what may be
// started, and that nothing is left running once a connection ends.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  closeOf,
  collectMessages,
  isAlive,
  openSocket,
  startTestBridge,
  tryUpgrade,
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

/** Direct children of this test process, from /proc (the bridge spawns servers as our children). */
function childPids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Field 4 is the parent pid; the command name (field 2) may hold spaces, so split after ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) pids.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

describe('who may connect', () => {
  it('refuses a wrong Origin with 403 before upgrading', async () => {
    const b = await newBridge();
    const outcome = await tryUpgrade(b.url, 'http://evil.example:5317');
    expect(outcome).toMatchObject({ kind: 'rejected', status: 403 });
    if (outcome.kind === 'rejected') expect(outcome.body).toContain('origin');
  });

  it('refuses a missing Origin with 403', async () => {
    const b = await newBridge();
    const outcome = await tryUpgrade(b.url);
    expect(outcome).toMatchObject({ kind: 'rejected', status: 403 });
    if (outcome.kind === 'rejected') expect(outcome.body).toContain('Origin');
  });

  it('refuses a missing token with 403', async () => {
    const b = await newBridge();
    const outcome = await tryUpgrade(b.url.replace(/\?token=.*$/, ''), b.origin);
    expect(outcome).toMatchObject({ kind: 'rejected', status: 403 });
    if (outcome.kind === 'rejected') expect(outcome.body).toContain('missing token');
  });

  it('refuses a wrong token with 403, of the same length or not', async () => {
    const b = await newBridge();
    const sameLength = b.token.slice(0, -1) + (b.token.endsWith('x') ? 'y' : 'x');
    for (const wrong of [sameLength, 'short', `${b.token}extra`]) {
      const outcome = await tryUpgrade(b.url.replace(/token=.*$/, `token=${encodeURIComponent(wrong)}`), b.origin);
      expect(outcome).toMatchObject({ kind: 'rejected', status: 403 });
      if (outcome.kind === 'rejected') expect(outcome.body).toContain('wrong token');
    }
  });

  it('leaves other paths to the HTTP server', () => {
    const bridge = createBridge({ token: 't', allowedOrigins: [], programsDir: '/nonexistent', allowLearnerServer: false, log: () => {} });
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
    expect(() => createBridge({ token: 't', allowedOrigins: [], programsDir: '/x' } as unknown as BridgeOptions)).toThrow(/allowLearnerServer/);
  });
});

describe('what may be started', () => {
  const marker = `/tmp/mcp-bridge-pwned-${process.pid}`;
  const refusedStarts: Array<[string, string]> = [
    ['a program outside the set', JSON.stringify({ type: 'start', program: 'cat', framing: 'ndjson', faults: [] })],
    ['a path as program', JSON.stringify({ type: 'start', program: '/bin/sh', framing: 'ndjson', faults: [] })],
    ['a relative path as program', JSON.stringify({ type: 'start', program: '../../echo-server', framing: 'ndjson', faults: [] })],
    ['a program with shell metacharacters', JSON.stringify({ type: 'start', program: `echo-server; touch ${marker}`, framing: 'ndjson', faults: [] })],
    ['a framing outside the set', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'xml', faults: [] })],
    ['a framing with shell metacharacters', JSON.stringify({ type: 'start', program: 'echo-server', framing: `ndjson $(touch ${marker})`, faults: [] })],
    ['a fault outside the set', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['rm -rf /'] })],
    ['faults that are not a list', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: 'stdout-log' })],
    ['a fault listed twice', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['stdout-log', 'stdout-log'] })],
    ['a framing-only fault with the other framing', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['char-length'] })],
    ['faults for sdk-echo-server', JSON.stringify({ type: 'start', program: 'sdk-echo-server', framing: 'ndjson', faults: ['stdout-log'] })],
    ['content-length for sdk-echo-server', JSON.stringify({ type: 'start', program: 'sdk-echo-server', framing: 'content-length', faults: [] })],
    ['extra fields with shell metacharacters', JSON.stringify({ ...ECHO_NDJSON, args: [`; touch ${marker}`], cwd: '/', env: { X: '`id`' } })],
    ['a start of the wrong type', JSON.stringify({ type: 'run', program: 'echo-server', framing: 'ndjson' })],
    ['a tap command instead of a start', JSON.stringify({ cmd: 'write', b64: '' })],
    ['text that is not JSON', 'start echo-server'],
    ['a JSON array', JSON.stringify([ECHO_NDJSON])],
  ];

  it.each(refusedStarts)('refuses %s, spawning nothing', async (_name, message) => {
    const b = await newBridge();
    const before = childPids();
    const socket = await openSocket(b.url, b.origin);
    sockets.push(socket);
    const messages = collectMessages(socket);
    const closed = closeOf(socket);
    socket.send(message);
    const { code } = await closed;
    expect(code).toBe(1008);
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0] as string)).toMatchObject({ type: 'refused', reason: expect.any(String) });
    expect(b.bridge.activeProcesses).toBe(0);
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a binary start message', async () => {
    const b = await newBridge();
    const socket = await openSocket(b.url, b.origin);
    sockets.push(socket);
    const messages = collectMessages(socket);
    const closed = closeOf(socket);
    socket.send(Buffer.from(JSON.stringify(ECHO_NDJSON)));
    expect((await closed).code).toBe(1008);
    expect(messages[0]).toContain('refused');
  });

  it('refuses a connection that sends no start in time', async () => {
    const b = await newBridge({ startTimeoutMs: 200 });
    const socket = await openSocket(b.url, b.origin);
    sockets.push(socket);
    const messages = collectMessages(socket);
    expect((await closeOf(socket)).code).toBe(1008);
    expect(messages[0]).toContain('no start message');
  });

  it('refuses a second start on the same connection and keeps one process', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    const messages = collectMessages(transport.socket);
    transport.socket.send(JSON.stringify({ ...ECHO_NDJSON, framing: 'content-length' }));
    await waitUntil(() => messages.some((m) => m.includes('"refused"')), 3_000, 'the refusal');
    expect(messages.find((m) => m.includes('"refused"'))).toContain('one process per connection');
    expect(b.bridge.activeProcesses).toBe(1);
    expect(transport.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('enforces the total cap, and frees a slot when a connection ends', async () => {
    const b = await newBridge({ maxTotal: 2 });
    const first = await startTransport(b, ECHO_NDJSON);
    await startTransport(b, ECHO_NDJSON);
    await expect(startTransport(b, ECHO_NDJSON)).rejects.toThrow(/limit \(2\)/);
    expect(b.bridge.activeProcesses).toBe(2);
    first.close();
    await waitUntil(() => b.bridge.activeProcesses === 1, 5_000, 'a slot to free');
    await startTransport(b, ECHO_NDJSON);
    expect(b.bridge.activeProcesses).toBe(2);
  });

  it('says so when the programs were never built', async () => {
    const b = await startTestBridge({ programsDir: '/nonexistent-programs' });
    bridges.push(b);
    await expect(startTransport(b, ECHO_NDJSON)).rejects.toThrow(/build the Node programs/);
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

  it('SIGKILLs a server that ignores SIGTERM (stopped), within the grace period', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const serverPid = transport.serverPid as number;
    // A stopped process cannot act on SIGTERM; only the group SIGKILL gets rid of it.
    process.kill(serverPid, 'SIGSTOP');
    // A stop completes thread by thread; a SIGTERM that found one still running would be fatal at once.
    await waitUntil(() => threadStates(serverPid).every((state) => state === 'T'), 2_000, 'every thread to stop');
    // The bridge's own timer decides when the SIGKILL goes out: watch it being set (no clock reading).
    const timers = vi.spyOn(globalThis, 'setTimeout');
    transport.close();
    await vi.waitFor(() => expect(timers).toHaveBeenCalledWith(expect.any(Function), KILL_GRACE_MS), { timeout: 2_000 });
    timers.mockRestore();
    // Half the grace period later the SIGTERM is still pending: the server lives on, stopped...
    await new Promise((resolve) => setTimeout(resolve, KILL_GRACE_MS / 2));
    expect(isAlive(serverPid)).toBe(true);
    expect(readProcessState(serverPid)).toBe('T');
    expect(b.bridge.activeProcesses).toBe(1);
    // ...until the grace period ends and the SIGKILL reaches its group.
    await waitUntil(() => !isAlive(serverPid), KILL_GRACE_MS + 3_000, 'the group kill');
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
