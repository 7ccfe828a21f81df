// No orphan, ever (issue 12, item 2). A learner server that stops reading its stdin while the page
// sends more than the bridge buffers used to pause the socket forever and keep its process; a
// bridge that died left its servers running, re-parented to PID 1. Here the bridge runs as a real
// child process (bridge-harness.ts: startServer + the exit handling of `npm start`), holds real
// sessions (an echo server, and a sandboxed learner server that ignores stdin EOF and keeps
// itself alive), and is ended by SIGTERM, by an uncaught error and by SIGKILL. Afterwards `ps`
// must show none of its descendants and the temp folder no job folder.

import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { bytesToBase64, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import { isAlive, sandboxedLearnerCode, startTestBridge, waitUntil, WsTapTransport, type TestBridge } from '../integration/ws-tap-transport.ts';

const HARNESS = resolve(import.meta.dirname, 'bridge-harness.ts');
let dist: string;

// Learner code that outlives its page if anything does: it stops reading stdin (so it never sees
// EOF) and keeps a timer alive; its heartbeat keeps beating, so only the orphan rules can end it.
const STUBBORN_SERVER = `setTimeout(() => globalThis.process.stdin.pause(), 0);
setInterval(() => {}, 1000);
export class McpServer { handle(message) { return { jsonrpc: '2.0', id: message.id, result: {} }; } }
`;

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'mcp-orphan-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
  await buildNodePrograms(join(dist, 'generated'));
});

afterAll(() => {
  rmSync(dist, { recursive: true, force: true });
});

const jobFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-learner-server-'));

/** Every descendant of `pid` now, from ps (the sandbox's processes are descendants too). */
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

/** ps lines that mention our programs: what an orphan of this test would look like. */
function oursInPs(): string[] {
  return execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line.includes(dist));
}

interface Harness {
  child: ChildProcessWithoutNullStreams;
  url: string;
  origin: string;
  wsUrl: string;
}

const harnesses: Harness[] = [];
afterEach(() => {
  for (const harness of harnesses.splice(0)) if (harness.child.exitCode === null) harness.child.kill('SIGKILL');
});

async function startHarness(): Promise<Harness> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, ['--import', 'tsx', HARNESS, dist], { stdio: ['pipe', 'pipe', 'pipe'], env, cwd: resolve(import.meta.dirname, '../..') });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  await waitUntil(() => out.includes('\n') || child.exitCode !== null, 20_000, 'the bridge harness to listen');
  if (!out.includes('\n')) throw new Error(`the harness did not start: ${err}`);
  const { url, token } = JSON.parse(out.split('\n')[0] as string) as { url: string; token: string };
  const origin = url.replace(/\/$/, '');
  const harness = { child, url, origin, wsUrl: `${origin.replace('http:', 'ws:')}/bridge?token=${encodeURIComponent(token)}` };
  harnesses.push(harness);
  return harness;
}

/** An echo server and a stubborn learner server, both running, with some bytes exchanged. */
async function openSessions(wsUrl: string, origin: string): Promise<WsTapTransport[]> {
  const echo = await WsTapTransport.start(wsUrl, origin, { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] });
  const learner = await WsTapTransport.start(wsUrl, origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: STUBBORN_SERVER, file: 'server.ts' } });
  for (const transport of [echo, learner]) {
    await transport.waitForEvent((event) => event.ev === 'stderr', 10_000);
  }
  return [echo, learner];
}

function stderrOf(events: readonly TapEvent[]): string {
  return events.map((event) => (event.ev === 'stderr' ? Buffer.from(event.b64, 'base64').toString('utf8') : '')).join('');
}

describe('a bridge that ends mid-session leaves nothing behind', () => {
  it.each([
    ['SIGTERM', (child: ChildProcessWithoutNullStreams) => child.kill('SIGTERM')],
    ['an uncaught error', (child: ChildProcessWithoutNullStreams) => child.kill('SIGUSR2')],
    ['SIGKILL', (child: ChildProcessWithoutNullStreams) => child.kill('SIGKILL')],
  ])('%s', async (_how, end) => {
    const foldersBefore = jobFolders();
    const harness = await startHarness();
    const transports = await openSessions(harness.wsUrl, harness.origin);
    const ours = descendants(harness.child.pid as number);
    // The echo server, and prlimit/bwrap + the sandbox's init + the learner's node.
    expect(ours.length).toBeGreaterThanOrEqual(3);
    expect(oursInPs().length).toBeGreaterThan(0);

    end(harness.child);
    await new Promise((done) => (harness.child.exitCode !== null || harness.child.signalCode !== null ? done(null) : harness.child.once('exit', done)));
    await waitUntil(() => ours.every((pid) => !isAlive(pid)), 10_000, 'every process the bridge started to be gone');
    expect(oursInPs()).toEqual([]);
    expect(jobFolders()).toEqual(foldersBefore);
    for (const transport of transports) transport.socket.terminate();
  });
});

describe('a paused socket has a time limit', () => {
  let bridge: TestBridge;
  afterAll(async () => {
    await bridge?.close();
  });

  it("a learner server that stops reading its stdin while the page sends more than 4 MiB: the connection and the server's group end", async () => {
    const logs: string[] = [];
    bridge = await startTestBridge({ programsDir: join(dist, 'generated'), learnerCode: await sandboxedLearnerCode(), sessionLimits: { pausedLimitMs: 300 }, log: (line) => logs.push(line) });
    const transport = await WsTapTransport.start(bridge.url, bridge.origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: STUBBORN_SERVER, file: 'server.ts' } });
    await waitUntil(() => stderrOf(transport.events).includes('[learner-server] pid'), 10_000, 'the server to load');
    const processes = () => bridge.bridge.serverPids.flatMap((pid) => [pid, ...descendants(pid)]);
    const ours = processes();
    expect(ours.length).toBeGreaterThan(0);

    // 6 MiB of spaces (valid NDJSON whitespace) that nobody reads.
    const chunk = bytesToBase64(new Uint8Array(1024 * 1024).fill(0x20));
    for (let i = 0; i < 6; i++) transport.command({ cmd: 'write', b64: chunk });

    const code = await transport.closed;
    expect(code).toBe(1006);
    expect(logs.some((line) => line.includes('paused for 300 ms (the server stopped reading its stdin)'))).toBe(true);
    // The processes die first; the bridge counts the exit when Node delivers it, a moment later.
    await waitUntil(() => ours.every((pid) => !isAlive(pid)) && bridge.bridge.activeProcesses === 0, 8_000, 'the server group to be gone and counted');
    expect(bridge.bridge.activeProcesses).toBe(0);
    expect(oursInPs()).toEqual([]);
  });
});
