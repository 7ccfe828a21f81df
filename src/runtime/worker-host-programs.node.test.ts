// The worker host running learner-server and sdk-echo-server: the real worker cores behind a real
// MessageChannel (structured clone, async delivery), as worker-host.test.ts does for the echo
// server. Node has no Worker; the entry files only wire a core to the worker scope.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpClient } from '../protocol/client.ts';
import type { ProgramName } from './host.ts';
import { createLearnerServerWorkerCore } from './learner-server-worker-core.ts';
import { PROTOCOL_MODULE_MAP } from '../sandbox/protocol-module-map.ts';
import { createSdkEchoWorkerCore } from './sdk-echo-worker-core.ts';
import { SDK2_SERVING } from './sdk2-echo-serving.ts';
import { base64ToBytes, type TapEvent } from './tap-protocol.ts';
import { createWorkerHost, stuckServerLine, type WorkerLike } from './worker-host.ts';

const REFERENCE = { code: readFileSync(join(import.meta.dirname, '../protocol/server.ts'), 'utf8'), file: 'server.ts', moduleId: '@protocol/server' };
const TEXT = '你好 👋 ünïcödé';

interface FakeWorker extends WorkerLike {
  program: ProgramName;
  terminated: boolean;
  /** Stop every message from inside, as a worker stuck in a loop would. */
  freeze(): void;
}

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

/** Awaits `promise` while the fake clock moves in small steps (for timers it waits on, if any). */
async function settledWhileTicking<T>(promise: Promise<T>): Promise<T> {
  let done = false;
  const settled = promise.finally(() => void (done = true));
  for (let step = 0; !done && step < 1_000; step++) await vi.advanceTimersByTimeAsync(5);
  return settled;
}

function fakeWorker(program: ProgramName, heartbeatMs = 50): FakeWorker {
  const { port1: page, port2: inside } = new MessageChannel();
  let frozen = false;
  const post = (message: unknown) => {
    if (!frozen) inside.postMessage(message);
  };
  let dispose = () => {};
  if (program === 'learner-server') {
    const core = createLearnerServerWorkerCore({ post, protocolModules: PROTOCOL_MODULE_MAP, heartbeatMs });
    inside.onmessage = (event) => core.handle(event.data);
    dispose = () => core.dispose();
  } else if (program === 'sdk-echo-server') {
    const core = createSdkEchoWorkerCore({ post });
    inside.onmessage = (event) => core.handle(event.data);
  } else if (program === 'sdk2-echo-server') {
    const core = createSdkEchoWorkerCore({ post, serving: SDK2_SERVING });
    inside.onmessage = (event) => core.handle(event.data);
  }
  const worker: FakeWorker = {
    program,
    terminated: false,
    postMessage: (message) => page.postMessage(message),
    onMessage: (listener) => {
      page.onmessage = (event) => listener(event.data);
    },
    onError: () => {},
    terminate: () => {
      worker.terminated = true;
      dispose();
      page.close();
      inside.close();
    },
    freeze: () => {
      frozen = true;
    },
  };
  cleanups.push(() => worker.terminate());
  return worker;
}

function hostWithWorkers(options: { learnerHardLimitMs?: number } = {}) {
  const workers: FakeWorker[] = [];
  const host = createWorkerHost({ createWorker: (program) => workers[workers.push(fakeWorker(program)) - 1] as FakeWorker, ...options });
  return { host, workers };
}

function stderrOf(events: readonly TapEvent[]): string {
  return events.map((event) => (event.ev === 'stderr' ? new TextDecoder().decode(base64ToBytes(event.b64)) : '')).join('');
}

describe('the worker host runs learner-server', () => {
  it("serves MCP through the learner's McpServer in a worker of its own, with the tap events of the Node runner", async () => {
    const { host, workers } = hostWithWorkers();
    const wire = await host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: REFERENCE });
    expect(workers.map((worker) => worker.program)).toEqual(['learner-server']);
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const client = new McpClient(wire, { framing: 'ndjson' });
    await client.connect();
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect((await client.callTool('echo', { text: TEXT })).content).toEqual([{ type: 'text', text: TEXT }]);
    expect((await client.callTool('fail', { message: 'on purpose' })).isError).toBe(true);

    const closed = new Promise<string>((resolve) => wire.onClose(resolve));
    wire.end();
    expect(await closed).toBe('server exited with code 0');
    expect(events[0]).toMatchObject({ ev: 'spawn', pid: 0, argv: ['node', 'learner-server.mjs', 'server.ts'] });
    expect(events.filter((event) => event.ev === 'c2s')).toHaveLength(5);
    expect(stderrOf(events)).toContain('[learner-server] pid 0 (in-browser worker), your server.ts, framing ndjson');
    expect(workers[0]?.terminated).toBe(true);
  });

  it('a file that does not load: started, then one stderr line and exit code 3', async () => {
    const { host } = hostWithWorkers();
    const wire = await host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: 'export class Server {}', file: 'server.ts' } });
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const closed = await new Promise<string>((resolve) => wire.onClose(resolve));
    expect(closed).toBe('server exited with code 3');
    expect(stderrOf(events)).toBe("[learner-server] your server did not load: server.ts does not export 'McpServer' (it exports Server). Check the name, and that it is declared with `export`.\n");
  });

  it('refuses a source the bridge would refuse, before any spawn', async () => {
    const { host } = hostWithWorkers();
    await expect(host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: { code: '', file: '/etc/passwd' } })).rejects.toThrow(
      'cannot start learner-server: learnerServer.file must be a plain file name such as server.ts',
    );
  });

  it('ends a worker that stops answering (a loop in learner code): stderr says why, then an exit event', async () => {
    // The clock is fake (the heartbeat, the watchdog and Date.now()); the MessageChannel is real, and
    // advanceTimersByTimeAsync lets its messages through between timers. No machine can be too slow.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    cleanups.push(() => vi.useRealTimers());
    const { host, workers } = hostWithWorkers({ learnerHardLimitMs: 1_000 });
    const started = host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: REFERENCE });
    const wire = await settledWhileTicking(started);
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const client = new McpClient(wire, { framing: 'ndjson', requestTimeoutMs: 5_000 });
    await settledWhileTicking(client.connect());
    // Alive while heartbeats (every 50 ms) flow, well past the limit.
    await vi.advanceTimersByTimeAsync(1_500);
    expect(workers[0]?.terminated).toBe(false);

    let closed: string | undefined;
    wire.onClose((reason) => void (closed = reason));
    workers[0]?.freeze();
    // The last heartbeat came at most 50 ms before the freeze: 950 ms into the silence it is within
    // the 1 s limit, so the worker must still be alive…
    await vi.advanceTimersByTimeAsync(950);
    expect(closed).toBeUndefined();
    expect(workers[0]?.terminated).toBe(false);
    // …and once the limit and one watchdog check (250 ms) have passed, it is gone.
    await vi.advanceTimersByTimeAsync(50 + 250 + 10);
    expect(closed).toBe('server was stopped by SIGKILL');
    expect(workers[0]?.terminated).toBe(true);
    expect(stderrOf(events)).toContain(`${stuckServerLine(1_000)}\n`);
    expect(events.at(-1)).toMatchObject({ ev: 'exit', code: null, signal: 'SIGKILL' });
  });

  it('holds the rule off while the worker transpiles learner code (a slow machine), and applies it after', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    cleanups.push(() => vi.useRealTimers());
    // A hand-driven worker: says it is alive, that it is preparing, stays silent 3 s (transpiling on
    // a slow machine), says it is prepared, then falls silent for good (learner code in a loop).
    let toPage: ((data: unknown) => void) | undefined;
    let terminated = false;
    const worker: WorkerLike = {
      postMessage: () => {},
      onMessage: (listener) => void (toPage = listener),
      onError: () => {},
      terminate: () => void (terminated = true),
    };
    const host = createWorkerHost({ createWorker: () => worker, learnerHardLimitMs: 1_000 });
    const started = host.start({ program: 'learner-server', framing: 'ndjson', faults: [], learnerServer: REFERENCE });
    started.catch(() => {});
    toPage?.({ type: 'alive' });
    toPage?.({ type: 'preparing' });
    await vi.advanceTimersByTimeAsync(3_000);
    expect(terminated).toBe(false);
    toPage?.({ type: 'prepared' });
    await vi.advanceTimersByTimeAsync(900);
    expect(terminated).toBe(false);
    await vi.advanceTimersByTimeAsync(400);
    expect(terminated).toBe(true);
    await expect(started).rejects.toThrow(stuckServerLine(1_000));
  });

  it('needs no heartbeat from the echo server (no watchdog there)', async () => {
    const workers: FakeWorker[] = [];
    // A learner-server core answering for echo-server would be refused; here echo-server gets a
    // silent worker that only says "spawned" once, and must not be killed for its silence.
    const host = createWorkerHost({
      learnerHardLimitMs: 100,
      createWorker: (program) => {
        const worker = fakeWorker(program);
        workers.push(worker);
        worker.postMessage = (message) => {
          if ((message as { type?: string }).type === 'start') queueMicrotask(() => listener?.({ tap: 1, ev: 'spawn', t: 0, pid: 0, argv: ['node'] }));
        };
        let listener: ((data: unknown) => void) | undefined;
        worker.onMessage = (l) => void (listener = l);
        return worker;
      },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    cleanups.push(() => vi.useRealTimers());
    await host.start({ program: 'echo-server', framing: 'ndjson', faults: [] });
    // Four times the limit of silence, with watchdog checks all along.
    await vi.advanceTimersByTimeAsync(400);
    expect(workers[0]?.terminated).toBe(false);
  });
});

describe('the worker host runs the official SDK echo server', () => {
  it('handshakes, lists and calls echo, and reports the tap events of the Node program', async () => {
    const { host, workers } = hostWithWorkers();
    const wire = await host.start({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] });
    expect(workers.map((worker) => worker.program)).toEqual(['sdk-echo-server']);
    const events: TapEvent[] = [];
    wire.onTapEvent((event) => events.push(event));
    const client = new McpClient(wire, { framing: 'ndjson' });
    const initialize = await client.connect();
    expect(initialize.serverInfo).toEqual({ name: 'sdk-echo-server', version: '1.0.0' });
    expect((await client.listTools()).map((tool) => tool.name)).toEqual(['echo']);
    expect((await client.callTool('echo', { text: TEXT })).content).toEqual([{ type: 'text', text: TEXT }]);
    // SDK 1.x answers an unknown tool with isError data, not a JSON-RPC error.
    expect((await client.callTool('no_such_tool', {})).isError).toBe(true);

    const closed = new Promise<string>((resolve) => wire.onClose(resolve));
    wire.end();
    expect(await closed).toBe('server exited with code 0');
    expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'sdk-echo-server.mjs'] });
    expect(stderrOf(events)).toBe('sdk-echo-server: ready on stdio (ndjson)\n');
    const s2c = events.filter((event) => event.ev === 's2c').map((event) => (event.ev === 's2c' ? new TextDecoder().decode(base64ToBytes(event.b64)) : ''));
    // One message per write, each one NDJSON line, as StdioServerTransport writes them.
    expect(s2c).toHaveLength(4);
    for (const line of s2c) expect(line).toMatch(/^\{.*\}\n$/);
    expect(workers[0]?.terminated).toBe(true);
  });

  it('refuses what the Node program cannot do: another framing, faults', async () => {
    const { host } = hostWithWorkers();
    await expect(host.start({ program: 'sdk-echo-server', framing: 'content-length', faults: [] })).rejects.toThrow('sdk-echo-server speaks ndjson only');
    await expect(host.start({ program: 'sdk-echo-server', framing: 'ndjson', faults: ['split-writes'] })).rejects.toThrow('sdk-echo-server takes no faults');
  });
});

describe('the worker host runs the SDK 2.4.0 echo server (serveStdio)', () => {
  it('serves a handshake-era client in both eras, and refuses initialize with -32022 in modern mode', async () => {
    const { host, workers } = hostWithWorkers();
    const wire = await host.start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [] });
    const client = new McpClient(wire, { framing: 'ndjson' });
    expect((await client.connect()).serverInfo).toEqual({ name: 'sdk2-echo-server', version: '2.4.0' });
    expect((await client.callTool('echo', { text: TEXT })).content).toEqual([{ type: 'text', text: TEXT }]);
    // SDK 2.x answers an unknown tool with the JSON-RPC error -32602.
    await expect(client.callTool('no_such_tool', {})).rejects.toMatchObject({ code: -32602 });
    wire.kill();

    const modern = await host.start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [], era: 'modern' });
    const events: TapEvent[] = [];
    modern.onTapEvent((event) => events.push(event));
    const refused = new McpClient(modern, { framing: 'ndjson' });
    await expect(refused.connect()).rejects.toMatchObject({ code: -32022 });
    expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'sdk2-echo-server.mjs', '--era=modern'] });
    expect(workers.map((worker) => worker.program)).toEqual(['sdk2-echo-server', 'sdk2-echo-server']);
    await expect(host.start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [], era: 'legacy' })).rejects.toThrow('sdk2-echo-server takes no era legacy');
  });
});
