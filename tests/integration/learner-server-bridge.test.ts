// learner-server through the real bridge: real sockets, real processes. Only a loopback bridge
// that opted in and has the OS sandbox runs a page's server code; any other says why; the source
// is capped and its file name checked; it travels through a pipe into the sandbox, never a host
// file. What the sandbox stops is tested attack by attack in tests/security/learner-sandbox.test.ts.

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { SANDBOX_JOB_PATH, SANDBOX_RUNNER_PATH } from '../../server/learner-sandbox.ts';
import { McpClient } from '../../src/protocol/client.ts';
import { LEARNER_SOURCE_MAX_BYTES } from '../../src/runtime/learner-server-job.ts';
import { LEARNER_CODE_REFUSALS, SHARED_BRIDGE_LEARNER_REFUSAL, type LearnerCodeRefusal } from '../../src/runtime/bridge-messages.ts';
import { base64ToBytes, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, closeOf, collectMessages, isAlive, openSocket, sandboxedLearnerCode, startTestBridge, testSandbox, waitUntil, WsTapTransport, type TestBridge } from './ws-tap-transport.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { startTap } from '../../server/tap-core.ts';
import { KILL_GRACE_MS } from '../../server/bridge-session.ts';
import { encodeLearnerServerJob } from '../../src/runtime/learner-server-job.ts';

const REFERENCE_CODE = readFileSync(join(PROJECT_ROOT, 'src/protocol/server.ts'), 'utf8');
const REFERENCE = { code: REFERENCE_CODE, file: 'server.ts', moduleId: '@protocol/server' };

let programs: { dir: string; remove(): Promise<void> };
const bridges: TestBridge[] = [];
const sockets: WebSocket[] = [];
const jobFolders = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-learner-server-'));

beforeAll(async () => {
  programs = await buildProgramsForTest();
});
afterAll(async () => {
  await programs.remove();
});
// Closing waits for every sandboxed server to end (SIGTERM, then SIGKILL after the grace period):
// bounded, but slower than the default hook limit on a loaded two-core machine.
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(bridges.splice(0).map((b) => b.close()));
});

/** Every process below `pid`, from ps (Linux). */
function descendants(pid: number): Array<{ pid: number; comm: string }> {
  const rows = spawnSync('ps', ['-e', '-o', 'pid=,ppid=,comm='], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length >= 3)
    .map(([p, pp, comm]) => ({ pid: Number(p), ppid: Number(pp), comm: comm as string }));
  const found: Array<{ pid: number; comm: string }> = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift() as number;
    for (const row of rows) if (row.ppid === parent) (found.push({ pid: row.pid, comm: row.comm }), queue.push(row.pid));
  }
  return found;
}

/** The process group of a process, from /proc (Linux): field 5 of its stat line. */
function processGroupOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
}

async function newBridge(refusal?: LearnerCodeRefusal): Promise<TestBridge> {
  const learnerCode = refusal === undefined ? await sandboxedLearnerCode() : ({ run: 'never', why: refusal } as const);
  const b = await startTestBridge({ programsDir: programs.dir, learnerCode });
  bridges.push(b);
  return b;
}

function learnerStart(source: Record<string, unknown>) {
  return { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: source };
}

async function refusalOf(b: TestBridge, start: Record<string, unknown>): Promise<string> {
  const socket = await openSocket(b.url, b.origin);
  sockets.push(socket);
  const messages = collectMessages(socket);
  const closed = closeOf(socket);
  socket.send(JSON.stringify(start));
  expect((await closed).code).toBe(1008);
  const reply = JSON.parse(messages[0] as string) as { type: string; reason: string };
  expect(reply.type).toBe('refused');
  expect(b.bridge.activeProcesses).toBe(0);
  return reply.reason;
}

function stderrText(events: readonly TapEvent[]): string {
  return events.map((event) => (event.ev === 'stderr' ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
}

describe('learner-server on an opted-in loopback bridge with the sandbox', () => {
  it('runs the learner file in the sandbox under the permission model, serves MCP, and leaves no file behind', async () => {
    const before = jobFolders();
    const b = await newBridge();
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart(REFERENCE));
    sockets.push(transport.socket);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    if (spawn.ev !== 'spawn') throw new Error('no spawn');
    expect(spawn.argv[0]).toMatch(/prlimit$/);
    expect(spawn.argv).toEqual(expect.arrayContaining(['--unshare-all', '--die-with-parent', '--clearenv', '--no-addons']));
    expect(spawn.argv.slice(-2)).toEqual([SANDBOX_RUNNER_PATH, SANDBOX_JOB_PATH]);
    expect(spawn.argv.some((arg) => /^--(experimental-)?permission$/.test(arg))).toBe(true);
    // The job went through a pipe: no job file on this machine's disk at any time.
    expect(jobFolders()).toEqual(before);

    const client = new McpClient(transport, { framing: 'ndjson', requestTimeoutMs: 10_000 });
    await client.connect();
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect(await client.callTool('echo', { text: 'über 你好' })).toEqual({ content: [{ type: 'text', text: 'über 你好' }] });
    expect(stderrText(transport.events)).toContain('[learner-server] pid');

    client.close();
    const exit = await transport.waitForEvent((event) => event.ev === 'exit');
    expect(exit).toMatchObject({ code: 0, signal: null });
    await waitUntil(() => b.bridge.activeProcesses === 0, 5_000, 'the process to be gone');
  });

  it('a learner file that does not load: one stderr line, exit code 3', async () => {
    const b = await newBridge();
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart({ code: 'export const x = ;\n', file: 'server.ts' }));
    sockets.push(transport.socket);
    const exit = await transport.waitForEvent((event) => event.ev === 'exit');
    expect(exit).toMatchObject({ code: 3 });
    expect(stderrText(transport.events)).toMatch(/^\[learner-server\] your server did not load: server\.ts:1:\d+: /);
  });

  it('kills a learner server that hangs when the page goes away', async () => {
    const b = await newBridge();
    const hang = 'while (true) {}\nexport class McpServer {}\n';
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart({ code: hang, file: 'server.ts' }));
    sockets.push(transport.socket);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    const pid = spawn.ev === 'spawn' ? spawn.pid : -1;
    // The page goes away once the server is really running inside the sandbox: before that, bwrap may not have armed --die-with-parent for its child yet.
    // (bwrap's init in the pid namespace, and the server under it: its name varies with the Node
    // version, e.g. "node" or its main thread's name.)
    await waitUntil(() => descendants(pid).length >= 2, 10_000, 'the server to run inside the sandbox');
    transport.socket.terminate();
    await waitUntil(() => !isAlive(pid), 8_000, 'the hanging server to be killed');
  });

  it('every process of the sandbox stays in the process group the bridge kills', async () => {
    const b = await newBridge();
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart({ code: 'while (true) {}\nexport class McpServer {}\n', file: 'server.ts' }));
    sockets.push(transport.socket);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    const pid = spawn.ev === 'spawn' ? spawn.pid : -1;
    await waitUntil(() => descendants(pid).length >= 2, 10_000, 'the server to run inside the sandbox');
    // bwrap --new-session would give its child a session (and group) of its own: out of reach of
    // the group kill in the milliseconds before --die-with-parent is armed.
    const groups = descendants(pid).map((child) => processGroupOf(child.pid));
    expect(groups.length).toBeGreaterThanOrEqual(2);
    expect(new Set(groups)).toEqual(new Set([pid]));
  });

  // bwrap arms --die-with-parent in its child only a few milliseconds after it starts, so the
  // sandbox must also be within reach of the bridge's group kill: a page that leaves at once used
  // to leave that child running in a session of its own (bwrap --new-session), holding the pipes
  // open, so the session never ended and closing the bridge hung. This drives the tap exactly as
  // the bridge does (own process group; SIGTERM + SIGCONT, SIGKILL after the grace) across that window.
  it('a sandbox stopped within milliseconds of its start ends, and nothing of it survives', async () => {
    const sandbox = await testSandbox();
    const marker = `mcp-race-${process.pid}-${Date.now()}`;
    const job = Buffer.from(encodeLearnerServerJob({ framing: 'ndjson', faults: [], source: { code: 'while (true) {}\nexport class McpServer {}\n', file: 'server.ts', moduleId: '@protocol/server' } }));
    for (let attempt = 0; attempt < 12; attempt++) {
      let ended = false;
      let onSpawn = () => {};
      const spawned = new Promise<void>((resolve) => (onSpawn = resolve));
      const tap = startTap({
        argv: [...sandbox.argv(join(programs.dir, 'learner-server.mjs')), marker],
        env: {},
        ownProcessGroup: true,
        onLine: (_line, event) => event.ev === 'spawn' && onSpawn(),
        onEnd: () => (ended = true),
        sandboxPipes: { job, onHeartbeat: () => {} },
      });
      await spawned;
      await new Promise((resolve) => setTimeout(resolve, attempt % 8));
      tap.killGroup('SIGTERM');
      tap.killGroup('SIGCONT');
      // bwrap's init ignores SIGTERM (a pid namespace's init gets only the signals it handles), so
      // in that window only --die-with-parent or the bridge's SIGKILL after KILL_GRACE_MS ends it;
      // the SIGKILL reaches it only if it is still in the group.
      await waitUntil(() => ended, KILL_GRACE_MS, 'the grace period').catch(() => tap.killGroup('SIGKILL'));
      await waitUntil(() => ended, 10_000, `attempt ${attempt}: the tap to end (a survivor holds its pipes open)`);
    }
    const survivors = spawnSync('ps', ['-e', '-o', 'pid=,args='], { encoding: 'utf8' }).stdout.split('\n').filter((line) => line.includes(marker));
    expect(survivors).toEqual([]);
  });

  it('refuses an oversized source, a bad file name, a missing source and a source for another program', async () => {
    const b = await newBridge();
    const big = 'x'.repeat(LEARNER_SOURCE_MAX_BYTES + 1);
    expect(await refusalOf(b, learnerStart({ code: big, file: 'server.ts' }))).toContain('the limit is 256 KiB');
    expect(await refusalOf(b, learnerStart({ code: REFERENCE_CODE, file: '../../etc/passwd.ts' }))).toContain('plain file name');
    expect(await refusalOf(b, learnerStart({ code: REFERENCE_CODE, file: 'server.ts', extra: 1 }))).toContain('unknown field');
    expect(await refusalOf(b, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [] })).toContain('needs the learnerServer field');
    expect(await refusalOf(b, { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [], learnerServer: REFERENCE })).toContain(
      'only with program learner-server',
    );
  });
});

describe('learner-server on a bridge that does not run learner code', () => {
  it.each(['shared-bridge', 'not-enabled', 'no-sandbox'] as const)('%s: refused with a reason the page can show, and nothing is spawned', async (why) => {
    const b = await newBridge(why);
    expect(await refusalOf(b, learnerStart(REFERENCE))).toBe(LEARNER_CODE_REFUSALS[why]);
    expect(SHARED_BRIDGE_LEARNER_REFUSAL).toContain('only on a loopback bridge');
  });

  it('still runs the echo servers', async () => {
    const b = await newBridge('shared-bridge');
    const transport = await WsTapTransport.start(b.url, b.origin, { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] });
    sockets.push(transport.socket);
    expect(await transport.waitForEvent((event) => event.ev === 'spawn')).toMatchObject({ ev: 'spawn' });
  });
});
