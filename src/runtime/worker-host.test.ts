import { afterEach, describe, expect, it } from 'vitest';
import { McpClient } from '../protocol/client.ts';
import { getFraming } from '../protocol/framing/index.ts';
import { createEchoWorkerCore, wrongWorkerRefusal } from './echo-worker-core.ts';
import { base64ToBytes, type TapEvent } from './tap-protocol.ts';
import { createWorkerHost, type WorkerLike } from './worker-host.ts';

const encoder = new TextEncoder();

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

// The worker host with the real core behind a real MessageChannel (structured clone, async
// delivery), but no Worker: Node has none, and the entry file only wires these two together.

interface FakeWorker extends WorkerLike {
  terminated: boolean;
  fail(message: string): void;
}

const openPorts: MessagePort[] = [];
afterEach(() => {
  for (const port of openPorts.splice(0)) port.close();
});

/** A worker without a Worker: the core on one end of a MessageChannel, the host on the other. */
function fakeWorker(options: { silent?: boolean } = {}): FakeWorker {
  const { port1: page, port2: inside } = new MessageChannel();
  openPorts.push(page, inside);
  if (!options.silent) {
    const core = createEchoWorkerCore({ post: (event) => inside.postMessage(event) });
    inside.onmessage = (event) => core.handle(event.data);
  }
  const errorListeners: ((message: string) => void)[] = [];
  const worker: FakeWorker = {
    terminated: false,
    postMessage: (message) => page.postMessage(message),
    onMessage: (listener) => {
      page.onmessage = (event) => listener(event.data);
    },
    onError: (listener) => errorListeners.push(listener),
    terminate: () => {
      worker.terminated = true;
      page.close();
      inside.close();
    },
    fail: (message) => {
      for (const listener of errorListeners) listener(message);
    },
  };
  return worker;
}

describe('createWorkerHost', () => {
  for (const framing of ['content-length', 'ndjson'] as const) {
    it(`runs a full MCP session over ${framing}, and the s2c bytes are exactly the frames`, async () => {
      const workers: FakeWorker[] = [];
      const host = createWorkerHost({ createWorker: () => workers[workers.push(fakeWorker()) - 1] as FakeWorker });
      expect(await host.probe()).toEqual({ kind: 'worker', status: 'available' });
      const wire = await host.start({ program: 'echo-server', framing, faults: [] });
      expect(wire.host).toBe('worker');
      const events: TapEvent[] = [];
      wire.onTapEvent((event) => events.push(event));
      const client = new McpClient(wire, { framing });
      const received: unknown[] = [];
      client.on((event) => {
        if (event.type === 'received') received.push(event.message);
      });
      await client.connect();
      expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
      const result = await client.callTool('echo', { text: '你好 👋 ünïcödé' });
      expect(result.content).toEqual([{ type: 'text', text: '你好 👋 ünïcödé' }]);

      const closed = new Promise<string>((resolve) => wire.onClose(resolve));
      wire.end();
      expect(await closed).toBe('server exited with code 0');
      expect(events[0]).toMatchObject({ ev: 'spawn', pid: 0 });
      const s2c = concat(events.flatMap((event) => (event.ev === 's2c' ? [base64ToBytes(event.b64)] : [])));
      expect(s2c).toEqual(concat(received.map((message) => getFraming(framing).encode(message))));
      const c2s = events.filter((event) => event.ev === 'c2s');
      expect(c2s).toHaveLength(4); // initialize, initialized, tools/list, tools/call
      expect(workers).toHaveLength(1);
      expect(workers[0]?.terminated).toBe(true);
    });
  }

  it('starts a fresh worker per server and terminates it on kill', async () => {
    const workers: FakeWorker[] = [];
    const host = createWorkerHost({ createWorker: () => workers[workers.push(fakeWorker()) - 1] as FakeWorker });
    const first = await host.start({ program: 'echo-server', framing: 'ndjson', faults: [] });
    const second = await host.start({ program: 'echo-server', framing: 'ndjson', faults: [] });
    expect(workers).toHaveLength(2);
    const closed = new Promise<string>((resolve) => first.onClose(resolve));
    first.kill();
    expect(await closed).toBe('server was stopped by SIGTERM');
    expect(workers.map((worker) => worker.terminated)).toEqual([true, false]);
    second.kill();
  });

  it("rejects start with the worker's refusal when it runs another program, and terminates the worker", async () => {
    const worker = fakeWorker();
    const host = createWorkerHost({ createWorker: () => worker });
    await expect(host.start({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] })).rejects.toThrow(wrongWorkerRefusal('sdk-echo-server', 'echo-server'));
    expect(worker.terminated).toBe(true);
  });

  it('rejects start when the worker never answers', async () => {
    const worker = fakeWorker({ silent: true });
    const host = createWorkerHost({ createWorker: () => worker, startTimeoutMs: 50 });
    await expect(host.start({ program: 'echo-server', framing: 'ndjson', faults: [] })).rejects.toThrow(
      'could not start echo-server in the in-browser worker: the worker did not report it running within 50 ms',
    );
    expect(worker.terminated).toBe(true);
  });

  it('closes the wire with the reason when the worker fails mid-session', async () => {
    const worker = fakeWorker();
    const wire = await createWorkerHost({ createWorker: () => worker }).start({ program: 'echo-server', framing: 'ndjson', faults: [] });
    const closed = new Promise<string>((resolve) => wire.onClose(resolve));
    worker.fail('out of memory');
    expect(await closed).toBe('the in-browser worker failed: out of memory');
    expect(worker.terminated).toBe(true);
  });

  it('sends every command the wire makes as an object, and drops non-commands', async () => {
    const posted: unknown[] = [];
    const inner = fakeWorker();
    const worker: WorkerLike = { ...inner, postMessage: (message) => (posted.push(message), inner.postMessage(message)) };
    const wire = await createWorkerHost({ createWorker: () => worker }).start({ program: 'echo-server', framing: 'ndjson', faults: [] });
    wire.write(encoder.encode('x'));
    wire.end();
    expect(posted).toEqual([
      { type: 'start', spec: { program: 'echo-server', framing: 'ndjson', faults: [] } },
      { cmd: 'write', b64: 'eA==' },
      { cmd: 'eof' },
    ]);
    wire.kill();
  });
});
