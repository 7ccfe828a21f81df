// learner-server through the real bridge: real sockets, real processes. Only a loopback bridge runs
// a page's server code; a shared one refuses with a reason the page can show; the source is capped
// and its file name checked; it travels in a private job file that is gone once the server is; and
// Node's permission model really stops the learner's code from writing files or spawning programs.

import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import { learnerServerArgv, permissionFlags, writeLearnerJobFile } from '../../server/learner-job-file.ts';
import { McpClient } from '../../src/protocol/client.ts';
import { LEARNER_SOURCE_MAX_BYTES } from '../../src/runtime/learner-server-job.ts';
import { SHARED_BRIDGE_LEARNER_REFUSAL } from '../../src/runtime/bridge-messages.ts';
import { base64ToBytes, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import { buildProgramsForTest, closeOf, collectMessages, isAlive, openSocket, startTestBridge, waitUntil, WsTapTransport, type TestBridge } from './ws-tap-transport.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';

const REFERENCE_CODE = readFileSync(join(PROJECT_ROOT, 'src/protocol/server.ts'), 'utf8');
const REFERENCE = { code: REFERENCE_CODE, file: 'server.ts', moduleId: '@protocol/server' };

let programs: { dir: string; remove(): Promise<void> };
const bridges: TestBridge[] = [];
const sockets: WebSocket[] = [];
const marker = `/tmp/mcp-learner-escape-${process.pid}`;

beforeAll(async () => {
  programs = await buildProgramsForTest();
}, 60_000);
afterAll(async () => {
  await programs.remove();
});
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.terminate();
  await Promise.all(bridges.splice(0).map((b) => b.close()));
  rmSync(marker, { force: true });
});

async function newBridge(allowLearnerServer: boolean): Promise<TestBridge> {
  const b = await startTestBridge({ programsDir: programs.dir, allowLearnerServer });
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

describe('learner-server on a loopback bridge', () => {
  it('runs the learner file under the permission model, serves MCP, and deletes the job file when the server is gone', async () => {
    const b = await newBridge(true);
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart(REFERENCE));
    sockets.push(transport.socket);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    if (spawn.ev !== 'spawn') throw new Error('no spawn');
    const jobPath = spawn.argv.at(-1) as string;
    expect(spawn.argv.at(-2)).toBe(join(programs.dir, 'learner-server.mjs'));
    expect(spawn.argv).toEqual(expect.arrayContaining(permissionFlags([join(programs.dir, 'learner-server.mjs'), jobPath]) ?? []));
    expect(spawn.argv.some((arg) => /^--(experimental-)?permission$/.test(arg))).toBe(true);
    // Private: only this user can read the job file or even list its directory.
    expect(statSync(jobPath).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(jobPath)).mode & 0o777).toBe(0o700);

    const client = new McpClient(transport, { framing: 'ndjson', requestTimeoutMs: 10_000 });
    await client.connect();
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect(await client.callTool('echo', { text: 'über 你好' })).toEqual({ content: [{ type: 'text', text: 'über 你好' }] });
    expect(stderrText(transport.events)).toContain('[learner-server] pid');

    client.close();
    const exit = await transport.waitForEvent((event) => event.ev === 'exit');
    expect(exit).toMatchObject({ code: 0, signal: null });
    await waitUntil(() => !existsSync(dirname(jobPath)), 5_000, 'the job directory to be removed');
    await waitUntil(() => b.bridge.activeProcesses === 0, 5_000, 'the process to be gone');
  });

  it('a learner file that does not load: one stderr line, exit code 3, job file removed', async () => {
    const b = await newBridge(true);
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart({ code: 'export const x = ;\n', file: 'server.ts' }));
    sockets.push(transport.socket);
    const exit = await transport.waitForEvent((event) => event.ev === 'exit');
    expect(exit).toMatchObject({ code: 3 });
    expect(stderrText(transport.events)).toMatch(/^\[learner-server\] your server did not load: server\.ts:1:\d+: /);
    const spawn = transport.events.find((event) => event.ev === 'spawn');
    const jobPath = spawn?.ev === 'spawn' ? (spawn.argv.at(-1) as string) : '';
    await waitUntil(() => !existsSync(dirname(jobPath)), 5_000, 'the job directory to be removed');
  });

  it('kills a learner server that hangs when the page goes away, and removes its job file', async () => {
    const b = await newBridge(true);
    const hang = 'while (true) {}\nexport class McpServer {}\n';
    const transport = await WsTapTransport.start(b.url, b.origin, learnerStart({ code: hang, file: 'server.ts' }));
    sockets.push(transport.socket);
    const spawn = await transport.waitForEvent((event) => event.ev === 'spawn');
    const pid = spawn.ev === 'spawn' ? spawn.pid : -1;
    const jobPath = spawn.ev === 'spawn' ? (spawn.argv.at(-1) as string) : '';
    transport.socket.terminate();
    await waitUntil(() => !isAlive(pid), 8_000, 'the hanging server to be killed');
    await waitUntil(() => !existsSync(dirname(jobPath)), 5_000, 'the job directory to be removed');
  });

  it('refuses an oversized source, a bad file name, a missing source and a source for another program', async () => {
    const b = await newBridge(true);
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

describe('learner-server on a shared bridge', () => {
  it('is refused with a reason the page can show, and nothing is spawned', async () => {
    const b = await newBridge(false);
    expect(await refusalOf(b, learnerStart(REFERENCE))).toBe(SHARED_BRIDGE_LEARNER_REFUSAL);
    expect(SHARED_BRIDGE_LEARNER_REFUSAL).toContain('only on a loopback bridge');
  });

  it('still runs the echo servers', async () => {
    const b = await newBridge(false);
    const transport = await WsTapTransport.start(b.url, b.origin, { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] });
    sockets.push(transport.socket);
    expect(await transport.waitForEvent((event) => event.ev === 'spawn')).toMatchObject({ ev: 'spawn' });
  });
});

describe("the permission model around the learner's code", () => {
  const escapes = {
    'a file write': `globalThis.process.getBuiltinModule('fs').writeFileSync(${JSON.stringify(marker)}, 'escaped');`,
    'a child process': `globalThis.process.getBuiltinModule('child_process').execFileSync('/bin/sh', ['-c', 'echo escaped > ${marker}']);`,
  };

  function run(code: string, withPermissions: boolean) {
    const job = writeLearnerJobFile({ framing: 'ndjson', faults: [], source: { code: `${code}\nexport class McpServer { handle() { return null; } }\n`, file: 'server.ts' } });
    try {
      const argv = learnerServerArgv(join(programs.dir, 'learner-server.mjs'), job.path);
      const [command, ...args] = withPermissions ? argv : [argv[0] as string, ...argv.slice(-2)];
      return spawnSync(command as string, args, { input: '', encoding: 'utf8', timeout: 10_000 });
    } finally {
      job.remove();
    }
  }

  for (const [what, code] of Object.entries(escapes)) {
    it(`blocks ${what} from learner code (and, as a control, the same code escapes without it)`, () => {
      const blocked = run(code, true);
      expect(blocked.status).toBe(3);
      expect(blocked.stderr).toContain('Access to this API has been restricted');
      expect(existsSync(marker)).toBe(false);

      const control = run(code, false);
      expect(control.status).toBe(0);
      expect(existsSync(marker)).toBe(true);
    });
  }
});
