// Every way out of the learner-server sandbox that the probe of issue 12 found, tried for real:
// learner code (what a share link can put in exercise 4) runs through the real bridge in the
// real sandbox, attempts the escape, and reports what happened on its stderr. Each attack must
// fail, and leave no process and no file behind. Where it is safe, the same code also runs as a
// control WITHOUT the sandbox (plain `node learner-server.mjs job.json`, as before issue 12) and
// must succeed there: that proves the attack is real, and it is the sandbox that stops it.

import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeLearnerJobFile } from '../../server/learner-job-file.ts';
import { createLearnerSandbox, DEFAULT_SANDBOX_LIMITS, SANDBOX_ENVIRONMENT } from '../../server/learner-sandbox.ts';
import { encodeNotification, encodeRequest } from '../../src/protocol/jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from '../../src/protocol/mcp.ts';
import { LEARNER_SERVER_HARD_LIMIT_MS, stuckServerLine } from '../../src/sandbox/learner-server-constants.ts';
import { base64ToBytes, bytesToBase64, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, isAlive, startTestBridge, testSandbox, waitUntil, WsTapTransport, type TestBridge } from '../integration/ws-tap-transport.ts';

// The unsandboxed runs' job files go in a folder of this file's own: other files, running at the
// same time, check the shared temp folder for job folders the bridge must never leave.
const JOB_PARENT = mkdtempSync(join(tmpdir(), 'mcp-test-jobs-'));
afterAll(() => rmSync(JOB_PARENT, { recursive: true, force: true }));

const PROJECT_ROOT = resolve(import.meta.dirname, '../..');
const SECRET_NAME = 'MCP_PLAYGROUND_TEST_SECRET';
const SECRET = `sk-test-${process.pid}-do-not-leak`;

let programs: { dir: string; remove(): Promise<void> };
let bridge: TestBridge;
const cleanups: Array<() => void | Promise<void>> = [];

beforeAll(async () => {
  // What a developer keeps in the shell that runs `npm start`.
  process.env[SECRET_NAME] = SECRET;
  programs = await buildProgramsForTest();
  bridge = await startTestBridge({ programsDir: programs.dir, learnerCode: { run: 'sandboxed', sandbox: await testSandbox() } });
});

afterAll(async () => {
  delete process.env[SECRET_NAME];
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await bridge.close();
  await programs.remove();
});

// ---- the harness ----

type Outcome = { ok: true; r: unknown } | { ok: false; code: string | null; message: string };

/** Learner code: the attack as an async function body, its outcome as one stderr line, and a server. */
function learnerCode(body: string): string {
  return `const P = globalThis.process;
const report = (value) => console.error('ATTACK ' + JSON.stringify(value));
(async () => {
${body}
})().then((r) => report({ ok: true, r }), (e) => report({ ok: false, code: (e && e.code) || null, message: String((e && e.message) || e) }));
export class McpServer { handle() { return null; } }
`;
}

function stderrOf(events: readonly TapEvent[]): string {
  return events.map((event) => (event.ev === 'stderr' ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
}

function outcomeIn(stderr: string): Outcome | null {
  const line = stderr.split('\n').find((text) => text.startsWith('ATTACK '));
  return line ? (JSON.parse(line.slice('ATTACK '.length)) as Outcome) : null;
}

/** Run learner code through the bridge, in the sandbox; resolves once it reported (or ended) and is gone. */
async function inSandbox(body: string, b: TestBridge = bridge): Promise<{ outcome: Outcome; events: TapEvent[]; pid: number }> {
  const run = await inSandboxMaybe(body, b);
  if (!run.outcome) throw new Error(`the attack did not report: ${stderrOf(run.events)}`);
  return { ...run, outcome: run.outcome };
}

async function inSandboxMaybe(body: string, b: TestBridge = bridge): Promise<{ outcome: Outcome | null; events: TapEvent[]; pid: number }> {
  const transport = await WsTapTransport.start(b.url, b.origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: learnerCode(body), file: 'server.ts' } });
  const spawned = await transport.waitForEvent((event) => event.ev === 'spawn');
  const pid = spawned.ev === 'spawn' ? spawned.pid : -1;
  await waitUntil(() => outcomeIn(stderrOf(transport.events)) !== null || transport.events.some((event) => event.ev === 'exit'), 10_000, 'the attack to report');
  transport.close();
  await transport.closed;
  await waitUntil(() => !isAlive(pid) && b.bridge.activeProcesses === 0, 8_000, 'the sandboxed server to be gone');
  return { outcome: outcomeIn(stderrOf(transport.events)), events: transport.events, pid };
}

/** The control: the same code as the runner ran it before issue 12 (no sandbox, no permission flags). */
async function unsandboxed(body: string, cwd: string): Promise<Outcome> {
  const job = writeLearnerJobFile({ framing: 'ndjson', faults: [], source: { code: learnerCode(body), file: 'server.ts' } }, JOB_PARENT);
  const child = spawn(process.execPath, [join(programs.dir, 'learner-server.mjs'), job.path], { cwd, stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    await waitUntil(() => outcomeIn(stderr) !== null, 10_000, 'the control to report');
  } finally {
    child.stdin.end();
    const gone = new Promise((done) => child.once('close', done));
    child.kill('SIGKILL');
    await gone;
    job.remove();
  }
  return outcomeIn(stderr) as Outcome;
}

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

async function tcpServer(): Promise<{ server: Server; port: number; connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  return { server, port: (server.address() as { port: number }).port, connections: () => count };
}

async function unixServer(path: string): Promise<{ connections: () => number }> {
  let count = 0;
  const server = createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(path, done));
  cleanups.push(() => new Promise<void>((done) => server.close(() => done())));
  return { connections: () => count };
}

function sentinel(): ChildProcess {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  cleanups.push(() => void child.kill('SIGKILL'));
  return child;
}

function traceAndReportFiles(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir).filter((name) => /^node_trace\..*\.log$|^report\..*\.json$/.test(name)) : [];
}

const leftovers = () => readdirSync(tmpdir()).filter((name) => name.startsWith('mcp-learner-server-'));

// ---- the attacks ----

describe('learner code in the bridge sandbox', () => {
  it("cannot read the bridge's environment: it gets an explicit, minimal one", async () => {
    const body = 'return { keys: Object.keys(P.env).sort(), values: Object.values(P.env) };';
    const { outcome } = await inSandbox(body);
    expect(outcome.ok).toBe(true);
    const { keys, values } = (outcome as { r: { keys: string[]; values: string[] } }).r;
    // bwrap adds PWD for the working directory it sets; nothing else but what we set.
    expect(keys.filter((key) => key !== 'PWD')).toEqual(Object.keys(SANDBOX_ENVIRONMENT).sort());
    expect(values.join('\n')).not.toContain(SECRET);

    const control = await unsandboxed(body, tempDir('mcp-sec-control-'));
    expect(control.ok && (control.r as { values: string[] }).values).toContain(SECRET);
  });

  it('works in its private job folder, which it cannot write to and which is not on the host disk', async () => {
    const before = leftovers();
    const body = `const fs = P.getBuiltinModule('fs');
let wrote;
try { fs.writeFileSync('planted.txt', 'x'); wrote = true; } catch (e) { wrote = e.code; }
return { cwd: P.cwd(), wrote };`;
    const { outcome } = await inSandbox(body);
    expect(outcome).toEqual({ ok: true, r: { cwd: '/job', wrote: 'ERR_ACCESS_DENIED' } });
    expect(leftovers()).toEqual(before);

    const controlDir = tempDir('mcp-sec-control-');
    expect(await unsandboxed(body, controlDir)).toMatchObject({ ok: true, r: { wrote: true } });
    expect(existsSync(join(controlDir, 'planted.txt'))).toBe(true);
  });

  it('cannot open a TCP connection, not even to loopback', async () => {
    const target = await tcpServer();
    const body = `const net = P.getBuiltinModule('net');
return await new Promise((resolve, reject) => {
  const s = net.connect(${target.port}, '127.0.0.1');
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', reject);
});`;
    const { outcome } = await inSandbox(body);
    expect(outcome).toMatchObject({ ok: false, code: expect.stringMatching(/^(ENETUNREACH|ECONNREFUSED)$/) });
    expect(target.connections()).toBe(0);

    expect(await unsandboxed(body, tempDir('mcp-sec-control-'))).toEqual({ ok: true, r: 'connected' });
    expect(target.connections()).toBe(1);
  });

  it('cannot send UDP', async () => {
    const received: string[] = [];
    const udp: UdpSocket = createSocket('udp4');
    udp.on('message', (message) => received.push(message.toString()));
    await new Promise<void>((done) => udp.bind(0, '127.0.0.1', done));
    cleanups.push(() => void udp.close());
    const body = `const dgram = P.getBuiltinModule('dgram');
const s = dgram.createSocket('udp4');
return await new Promise((resolve, reject) => s.send('escaped', ${udp.address().port}, '127.0.0.1', (e) => { s.close(); e ? reject(e) : resolve('sent'); }));`;
    // In its own network namespace loopback is down: the send may even "succeed", into nowhere.
    const { outcome } = await inSandbox(body);
    if (!outcome.ok) expect(outcome.code).toMatch(/^(ENETUNREACH|EPERM|EACCES)$/);

    expect(await unsandboxed(body, tempDir('mcp-sec-control-'))).toEqual({ ok: true, r: 'sent' });
    await waitUntil(() => received.length === 1, 5_000, 'the control datagram');
    // The sandboxed datagram never arrived: the only one is the control's.
    expect(received).toEqual(['escaped']);
  });

  it('cannot connect to a Unix socket, by path or in the abstract namespace', async () => {
    const dir = tempDir('mcp-sec-sock-');
    const path = join(dir, 'docker.sock');
    const byPath = await unixServer(path);
    const abstractName = `\0mcp-playground-test-${process.pid}`;
    const abstract = await unixServer(abstractName);
    const body = (target: string) => `const net = P.getBuiltinModule('net');
return await new Promise((resolve, reject) => {
  const s = net.connect(${JSON.stringify(target)});
  s.on('connect', () => { s.destroy(); resolve('connected'); });
  s.on('error', reject);
});`;
    expect((await inSandbox(body(path))).outcome).toMatchObject({ ok: false, code: expect.stringMatching(/^(ENOENT|EACCES)$/) });
    expect((await inSandbox(body(abstractName))).outcome).toMatchObject({ ok: false, code: 'ECONNREFUSED' });
    expect(byPath.connections() + abstract.connections()).toBe(0);

    const controlDir = tempDir('mcp-sec-control-');
    expect(await unsandboxed(body(path), controlDir)).toEqual({ ok: true, r: 'connected' });
    expect(await unsandboxed(body(abstractName), controlDir)).toEqual({ ok: true, r: 'connected' });
  });

  it('cannot signal a process outside its sandbox, the bridge included', async () => {
    const victim = sentinel();
    const body = `const tries = {};
for (const [name, pid, signal] of [['victim', ${victim.pid}, 'SIGKILL'], ['bridge', ${process.pid}, 0], ['everyone it may signal', -1, 'SIGKILL']]) {
  try { P.kill(pid, signal); tries[name] = 'sent'; } catch (e) { tries[name] = e.code; }
}
return { tries, ownPid: P.pid };`;
    const { outcome } = await inSandbox(body);
    // Its own pid namespace: it is pid 2 there (bwrap is 1), and no outside pid exists for it;
    // kill(-1) reaches only that namespace, where nothing but itself and bwrap's init runs.
    expect(outcome).toEqual({ ok: true, r: { tries: { victim: 'ESRCH', bridge: 'ESRCH', 'everyone it may signal': 'ESRCH' }, ownPid: 2 } });
    expect(isAlive(victim.pid as number)).toBe(true);

    const control = sentinel();
    const controlBody = `P.kill(${control.pid}, 'SIGKILL'); return 'sent';`;
    expect(await unsandboxed(controlBody, tempDir('mcp-sec-control-'))).toEqual({ ok: true, r: 'sent' });
    await waitUntil(() => !isAlive(control.pid as number), 5_000, 'the control victim to die');
  });

  it.each([
    [
      'a trace file',
      `const tracing = P.getBuiltinModule('trace_events').createTracing({ categories: ['node', 'v8'] });
tracing.enable();
await new Promise((r) => setTimeout(r, 100));
tracing.disable();
return 'traced';`,
    ],
    ['a diagnostic report', 'return P.report.writeReport();'],
  ])('cannot leave %s behind', async (_what, body) => {
    const watched = [PROJECT_ROOT, programs.dir, process.cwd(), tmpdir()];
    const before = watched.map(traceAndReportFiles);
    // Node cannot open the file on the read-only job folder (the tracing agent may even hang on
    // it until the heartbeat limit ends the process): either way nothing reaches the host.
    const { events } = await inSandboxMaybe(body);
    expect(stderrOf(events)).not.toMatch(/Writing Node\.js report to file/);
    expect(watched.map(traceAndReportFiles)).toEqual(before);

    // Control: without the sandbox the file lands in the working directory.
    const controlDir = tempDir('mcp-sec-control-');
    await unsandboxed(body, controlDir);
    await waitUntil(() => traceAndReportFiles(controlDir).length > 0, 5_000, 'the control to write a file');
  });

  it('cannot load a native addon', async () => {
    const body = `const module = { exports: {} };
P.dlopen(module, '/usr/lib/x86_64-linux-gnu/libc.so.6');
return 'loaded';`;
    expect((await inSandbox(body)).outcome).toMatchObject({ ok: false, code: expect.stringMatching(/^(ERR_DLOPEN_DISABLED|ERR_ACCESS_DENIED)$/) });
  });

  it('cannot write files, read files, start programs or workers', async () => {
    const marker = join(tempDir('mcp-sec-marker-'), 'escaped');
    const attempts = {
      write: `P.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'x');`,
      read: `return P.getBuiltinModule('fs').readFileSync('/etc/passwd', 'utf8');`,
      spawn: `P.getBuiltinModule('child_process').execFileSync('/bin/sh', ['-c', 'echo escaped > ${marker}']);`,
      worker: `new (P.getBuiltinModule('worker_threads').Worker)('require("fs").writeFileSync(${JSON.stringify(marker)}, "x")', { eval: true });`,
    };
    for (const [what, body] of Object.entries(attempts)) {
      const { outcome } = await inSandbox(`${body}\nreturn 'done';`);
      expect(outcome, what).toMatchObject({ ok: false, code: 'ERR_ACCESS_DENIED' });
    }
    expect(existsSync(marker)).toBe(false);
  });
});

describe('the limits on learner code', () => {
  const INITIALIZE = encodeRequest(1, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 't', version: '1' } });

  it('a heap that grows without end is stopped at the V8 limit', async () => {
    // It yields now and then, so the heartbeat keeps beating and only the heap limit can stop it.
    const body = 'const a = []; for (;;) { a.push(new Array(1e5).fill(1)); if (a.length % 20 === 0) await new Promise((r) => setTimeout(r, 0)); }';
    // The process aborts before it can report: watch its exit instead.
    const transport = await WsTapTransport.start(bridge.url, bridge.origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: learnerCode(body), file: 'server.ts' } });
    const exit = await transport.waitForEvent((event) => event.ev === 'exit', 10_000);
    expect(stderrOf(transport.events)).toMatch(/heap out of memory/);
    const lastGc = stderrOf(transport.events).match(/\[\d+:0x[0-9a-f]+\]\s+\d+ ms: [^\n]*/g)?.at(-1);
    console.info(`[measured] the learner heap died at the ${DEFAULT_SANDBOX_LIMITS.heapMiB} MiB V8 limit; last GC: ${lastGc ?? '(none printed)'}`);
    expect(exit).not.toMatchObject({ code: 0 });
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 5_000, 'the process to be gone');
  });

  it(`Buffers outside the heap are capped by the address-space limit (${DEFAULT_SANDBOX_LIMITS.addressSpaceBytes / 2 ** 20} MiB in all)`, async () => {
    const body = `const { Buffer } = P.getBuiltinModule('buffer');
let mib = 0; const keep = [];
try { for (;;) { keep.push(Buffer.alloc(16 * 1024 * 1024)); mib += 16; await new Promise((r) => setTimeout(r, 0)); } } catch (e) { return { mib, error: e.message }; }`;
    const { outcome } = await inSandbox(body);
    expect(outcome).toMatchObject({ ok: true, r: { error: 'Array buffer allocation failed' } });
    const { mib } = (outcome as { r: { mib: number } }).r;
    console.info(`[measured] learner Buffers failed after ${mib} MiB (address space cap ${DEFAULT_SANDBOX_LIMITS.addressSpaceBytes / 2 ** 20} MiB, heap cap ${DEFAULT_SANDBOX_LIMITS.heapMiB} MiB)`);
    expect(mib).toBeLessThan(DEFAULT_SANDBOX_LIMITS.addressSpaceBytes / 2 ** 20);
  });

  it(`a handle() that never returns is ended after ${LEARNER_SERVER_HARD_LIMIT_MS} ms without a heartbeat, with the line the worker host shows`, async () => {
    const code = 'export class McpServer { handle() { for (;;) {} } }\n';
    const transport = await WsTapTransport.start(bridge.url, bridge.origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code, file: 'server.ts' } });
    await transport.waitForEvent((event) => event.ev === 'spawn');
    await waitUntil(() => stderrOf(transport.events).includes('[learner-server] pid'), 5_000, 'the server to load');
    const sentAt = performance.now();
    transport.command({ cmd: 'write', b64: bytesToBase64(new TextEncoder().encode(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify(encodeNotification('notifications/initialized'))}\n`)) });
    const exit = await transport.waitForEvent((event) => event.ev === 'exit', 10_000);
    console.info(`[measured] a heartbeat-less loop in handle() was ended ${Math.round(performance.now() - sentAt)} ms after the request (limit ${LEARNER_SERVER_HARD_LIMIT_MS} ms)`);
    expect(stderrOf(transport.events)).toContain(`${stuckServerLine(LEARNER_SERVER_HARD_LIMIT_MS)}\n`);
    expect(exit).toMatchObject({ ev: 'exit' });
    await waitUntil(() => bridge.bridge.activeProcesses === 0, 5_000, 'the process to be gone');
  });

  it('a loop that forges heartbeats is ended by the CPU limit', async () => {
    const tools = await testSandbox();
    const b = await startTestBridge({
      programsDir: programs.dir,
      learnerCode: { run: 'sandboxed', sandbox: createLearnerSandbox(tools, { ...DEFAULT_SANDBOX_LIMITS, cpuSeconds: 1 }) },
    });
    cleanups.push(() => b.close());
    const code = `const fs = globalThis.process.getBuiltinModule('fs');
for (;;) { try { fs.writeSync(3, 'h'); } catch {} }
export class McpServer {}
`;
    const transport = await WsTapTransport.start(b.url, b.origin, { type: 'start', program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code, file: 'server.ts' } });
    // One CPU second can take many wall seconds on a loaded machine: the bound is generous.
    const exit = await transport.waitForEvent((event) => event.ev === 'exit', 60_000);
    expect(stderrOf(transport.events)).not.toContain('without pausing');
    expect(exit).not.toMatchObject({ code: 0 });
    await waitUntil(() => b.bridge.activeProcesses === 0, 5_000, 'the process to be gone');
  });
});
