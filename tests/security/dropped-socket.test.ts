// Issue 22: a learner server (--learner-code-in-node, in the bwrap/prlimit sandbox) whose page
// socket drops abruptly must be gone within about 2 s, whether or not it reads its stdin. Before
// the fix a server that stopped reading stdin kept the bridge's socket paused, so nothing read the
// FIN or RST and the sandbox lived until the paused-socket limit (~30 s).
//
// The bridge here has its paused-socket limit and its ping interval set to 10 minutes, so neither
// can be what ends the server: only the liveness check that works while the socket is paused can.
// The wait for the processes to go is generous (60 s); the measured time is printed as [measured].

import { execFileSync } from 'node:child_process';
import type { Socket } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bytesToBase64, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, isAlive, sandboxedLearnerCode, startTestBridge, waitUntil, WsTapTransport, type TestBridge } from '../integration/ws-tap-transport.ts';

const TEN_MINUTES = 10 * 60_000;

// Learner code that makes dying hard: it ignores SIGTERM (globalThis still reaches process) and
// keeps a timer alive. STOPS_READING also pauses its stdin, so the page's writes pile up.
const IGNORES_SIGTERM = `globalThis.process.on('SIGTERM', () => {});
setInterval(() => {}, 1000);
export class McpServer { handle(message) { return { jsonrpc: '2.0', id: message.id, result: {} }; } }
`;
const STOPS_READING = `setTimeout(() => globalThis.process.stdin.pause(), 0);\n${IGNORES_SIGTERM}`;

let programs: { dir: string; remove(): Promise<void> };
let bridge: TestBridge;
const logs: string[] = [];

beforeAll(async () => {
  programs = await buildProgramsForTest();
  bridge = await startTestBridge({
    programsDir: programs.dir,
    learnerCode: await sandboxedLearnerCode(),
    sessionLimits: { pausedLimitMs: TEN_MINUTES, pingIntervalMs: TEN_MINUTES },
    log: (line) => logs.push(line),
  });
});

afterAll(async () => {
  await bridge?.close();
  await programs?.remove();
});

afterEach(() => {
  logs.length = 0;
});

/** Every descendant of `pid` (prlimit execs bwrap; bwrap's init and the learner's node below it). */
function descendants(pid: number): number[] {
  const rows = execFileSync('ps', ['-eo', 'pid=,ppid='], { encoding: 'utf8' })
    .trim()
    .split('\n')
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const [child, ppid] of rows) {
      if (ppid === parent && !found.includes(child)) {
        found.push(child);
        queue.push(child);
      }
    }
  }
  return found;
}

function stderrOf(events: readonly TapEvent[]): string {
  return events.map((event) => (event.ev === 'stderr' ? Buffer.from(event.b64, 'base64').toString('utf8') : '')).join('');
}

/** The TCP socket under the client's WebSocket: what a crashed tab or a pulled cable takes away. */
function tcpOf(transport: WsTapTransport): Socket {
  return (transport.socket as unknown as { _socket: Socket })._socket;
}

async function startLearner(code: string): Promise<{ transport: WsTapTransport; processes: number[] }> {
  const transport = await WsTapTransport.start(bridge.url, bridge.origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code, file: 'server.ts' } });
  await waitUntil(() => stderrOf(transport.events).includes('[learner-server] pid'), 20_000, 'the learner server to load');
  const processes = bridge.bridge.serverPids.flatMap((pid) => [pid, ...descendants(pid)]);
  // prlimit/bwrap, the sandbox's init, the learner's node.
  expect(processes.length).toBeGreaterThanOrEqual(3);
  return { transport, processes };
}

/** Send 6 MiB of NDJSON whitespace the server never reads: the bridge pauses the socket (> 4 MiB). */
async function fillUntilPaused(transport: WsTapTransport): Promise<void> {
  const chunk = bytesToBase64(new Uint8Array(1024 * 1024).fill(0x20));
  for (let i = 0; i < 6; i++) transport.command({ cmd: 'write', b64: chunk });
  await new Promise<void>((resolve) => transport.socket.send('', () => resolve()));
  // The bridge reads the page's writes, then stops reading once its backlog passes the mark.
  await waitUntil(() => bridge.bridge.pausedConnections === 1, 60_000, 'the bridge to pause the socket');
}

async function measureGone(processes: readonly number[], drop: () => void): Promise<number> {
  const dropped = performance.now();
  drop();
  await waitUntil(() => processes.every((pid) => !isAlive(pid)), 60_000, 'every process of the sandbox to be gone');
  return Math.round(performance.now() - dropped);
}

describe('a learner server whose page socket drops abruptly is gone', () => {
  it.each([
    ['reset (RST)', (socket: Socket) => socket.resetAndDestroy()],
    ['destroyed (FIN)', (socket: Socket) => socket.destroy()],
  ])('that stops reading its stdin, the socket paused by backpressure, the TCP socket %s', async (how, drop) => {
    const { transport, processes } = await startLearner(STOPS_READING);
    await fillUntilPaused(transport);
    const ms = await measureGone(processes, () => drop(tcpOf(transport)));
    console.log(`[measured] paused socket ${how}: the sandbox was gone ${ms} ms after the drop`);
    expect(processes.every((pid) => !isAlive(pid))).toBe(true);
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 10_000, 'the bridge to count the exit');
    // The liveness check ended it, not the paused-socket limit (10 minutes here).
    expect(logs.some((line) => line.includes('paused for'))).toBe(false);
  });

  it.each([
    ['reset (RST)', (socket: Socket) => socket.resetAndDestroy()],
    ['destroyed (FIN)', (socket: Socket) => socket.destroy()],
  ])('that reads its stdin (and ignores SIGTERM), the TCP socket %s', async (how, drop) => {
    const { transport, processes } = await startLearner(IGNORES_SIGTERM);
    const ms = await measureGone(processes, () => drop(tcpOf(transport)));
    console.log(`[measured] flowing socket ${how}: the sandbox was gone ${ms} ms after the drop`);
    expect(processes.every((pid) => !isAlive(pid))).toBe(true);
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 10_000, 'the bridge to count the exit');
  });
});
