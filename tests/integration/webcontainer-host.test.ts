// The WebContainer host against a fake WebContainer that runs the real tap and the real servers
// behind a hostile pseudo-terminal (tests/fakes/fake-webcontainer.ts): merged streams, CRLF,
// characters cut between chunks, escape sequences, echoed input. Whatever the terminal does, the
// page must see the exact bytes the server wrote.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { McpClient } from '../../src/protocol/client.ts';
import { getFraming } from '../../src/protocol/framing/index.ts';
import type { FramingName } from '../../src/protocol/framing/types.ts';
import type { ProgramSpec, Wire } from '../../src/runtime/host.ts';
import { base64ToBytes, type TapEvent } from '../../src/runtime/tap-protocol.ts';
import {
  NOT_ISOLATED_REASON,
  NO_SHARED_ARRAY_BUFFER_REASON,
  bootTimeoutReason,
  createWebContainerHost,
  type WebContainerFileName,
  type WebContainerHostDeps,
} from '../../src/runtime/webcontainer-host.ts';
import { createFakeBoot, type FakeBootOptions, type FakeProcess } from '../fakes/fake-webcontainer.ts';

const GENERATED = resolve(import.meta.dirname, '../../public/generated');
const TEXT = '你好 👋 ünïcödé';

beforeAll(async () => {
  // tests/global-setup.ts builds these before a run of vitest.config.ts; under another config
  // (or after a clean) build them here.
  if (!existsSync(resolve(GENERATED, 'tap.mjs')) || !existsSync(resolve(GENERATED, 'echo-server.mjs'))) await buildNodePrograms();
});

const fakes: ReturnType<typeof createFakeBoot>[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.teardown()));
});

function readGenerated(name: WebContainerFileName): Promise<string> {
  return readFile(resolve(GENERATED, `${name}.mjs`), 'utf8');
}

function fakeHost(options: FakeBootOptions = {}, deps: Partial<WebContainerHostDeps> = {}) {
  const fake = createFakeBoot(options);
  fakes.push(fake);
  const host = createWebContainerHost({ boot: fake.boot, fetchProgram: readGenerated, isolated: () => true, ...deps });
  return { fake, host };
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

function s2cBytes(events: readonly TapEvent[]): Uint8Array {
  return concat(events.flatMap((event) => (event.ev === 's2c' ? [base64ToBytes(event.b64)] : [])));
}

/** Connect, list tools, echo TEXT, say goodbye; return everything that crossed the wire. */
async function conversation(wire: Wire, framing: FramingName) {
  const events: TapEvent[] = [];
  wire.onTapEvent((event) => events.push(event));
  const client = new McpClient(wire, { framing, requestTimeoutMs: 10_000 });
  const received: unknown[] = [];
  client.on((event) => {
    if (event.type === 'received') received.push(event.message);
  });
  const closed = new Promise<string>((done) => wire.onClose(done));
  const initialize = await client.connect();
  const tools = await client.listTools();
  const result = await client.callTool('echo', { text: TEXT });
  client.close();
  return { events, received, initialize, tools, result, closeReason: await closed };
}

describe('the fake WebContainer terminal (is it hostile enough?)', () => {
  it('merges stderr into stdout, turns \\n into \\r\\n and corrupts a character cut between chunks', async () => {
    const { fake } = fakeHost({ terminal: { maxChunk: 2, escapeRate: 0 } });
    const container = await fake.boot();
    const script = "process.stdout.write('你好\\n'); process.stderr.write('err\\n');";
    await container.mount({ 'p.mjs': { file: { contents: script } } });
    const process = (await container.spawn('node', ['p.mjs'])) as FakeProcess;
    let text = '';
    for await (const chunk of process.output as unknown as AsyncIterable<string>) text += chunk;
    expect(await process.exit).toBe(0);
    expect(text).toContain('\uFFFD');
    expect(text).not.toContain('你好');
    expect(text.endsWith('err\r\n')).toBe(true);
    expect(process.stats.corruptedChunks).toBeGreaterThan(0);
  });

  it('echoes typed input and hands a typed "\\r\\n" to the process as "\\n\\n"', async () => {
    const { fake } = fakeHost({ terminal: { escapeRate: 0 } });
    const container = await fake.boot();
    const script = "let all = ''; process.stdin.on('data', (d) => (all += d)); process.stdin.on('end', () => process.stdout.write(JSON.stringify(all)));";
    await container.mount({ 'p.mjs': { file: { contents: script } } });
    const process = (await container.spawn('node', ['p.mjs'])) as FakeProcess;
    const writer = process.input.getWriter();
    await writer.write('hi\r\n');
    let text = '';
    const reading = (async () => {
      for await (const chunk of process.output as unknown as AsyncIterable<string>) text += chunk;
    })();
    // The script only answers at EOF; killing takes the echo with it, so end stdin the Node way.
    await new Promise((done) => setTimeout(done, 100));
    expect(text).toBe('hi\r\n\r\n'); // the echo
    (process as unknown as { child: { stdin: { end(): void } } }).child.stdin.end();
    await reading;
    expect(text).toBe('hi\r\n\r\n"hi\\n\\n"');
  });
});

describe('createWebContainerHost with the fake WebContainer', () => {
  for (const framing of ['content-length', 'ndjson'] as const) {
    it(`runs a full MCP session over ${framing}; the s2c bytes are exactly the frames the server wrote`, async () => {
      const { fake, host } = fakeHost({ terminal: { seed: framing.length, maxChunk: 9, escapeRate: 0.1 } });
      expect(await host.probe()).toEqual({ kind: 'webcontainer', status: 'available' });
      const wire = await host.start({ program: 'echo-server', framing, faults: [] });
      expect(wire.host).toBe('webcontainer');
      const { events, received, initialize, tools, result, closeReason } = await conversation(wire, framing);

      expect(initialize.serverInfo.name).toBe('mcp-echo-server');
      expect(tools.map((tool) => tool.name)).toContain('echo');
      expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
      expect(closeReason).toBe('server exited with code 0');

      expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'echo-server.mjs', `--framing=${framing}`] });
      expect(events.at(-1)).toMatchObject({ ev: 'exit', code: 0, signal: null });
      expect(received).toHaveLength(3);
      // Byte for byte: what the server wrote is the framing's encoding of what the client read.
      const expected = concat(received.map((message) => getFraming(framing).encode(message)));
      expect(s2cBytes(events)).toEqual(expected);
      expect(new TextDecoder().decode(s2cBytes(events))).toContain(TEXT);
      // Logs travel apart from the protocol bytes, however merged the terminal was.
      const stderr = new TextDecoder().decode(concat(events.flatMap((event) => (event.ev === 'stderr' ? [base64ToBytes(event.b64)] : []))));
      expect(stderr).toContain('[echo-server] request tools/call #2');

      // The hostile path was really taken.
      const process = fake.instance?.processes[0];
      expect(process?.stats.chunks).toBeGreaterThan(100);
      expect(process?.stats.escapesInjected).toBeGreaterThan(5);
      expect(process?.stats.echoedWrites).toBeGreaterThanOrEqual(4);
      expect(process?.typed.every((line) => line.endsWith('}\n') && !line.slice(0, -1).includes('\n'))).toBe(true);
    });
  }

  it('keeps split-writes chunks apart and still reassembles the exact bytes', async () => {
    const { host } = fakeHost({ terminal: { seed: 3, maxChunk: 5, escapeRate: 0.2 } });
    const wire = await host.start({ program: 'echo-server', framing: 'content-length', faults: ['split-writes'] });
    const { events, received, result } = await conversation(wire, 'content-length');
    expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
    expect(s2cBytes(events)).toEqual(concat(received.map((message) => getFraming('content-length').encode(message))));
    const chunks = events.filter((event) => event.ev === 's2c');
    // Each piece is at most 7 bytes; a pipe may merge a few, but many stay apart.
    expect(chunks.length).toBeGreaterThan(received.length);
  });

  it('runs the built echo server dual-era by default and legacy-only with --era=legacy: the probe meets a result, then an error', async () => {
    const answers: Record<string, unknown> = {};
    for (const era of ['dual', 'legacy'] as const) {
      const { host } = fakeHost({ terminal: { seed: 5, escapeRate: 0 } });
      const wire = await host.start({ program: 'echo-server', framing: 'ndjson', faults: [], ...(era === 'dual' ? {} : { era }) });
      const events: TapEvent[] = [];
      wire.onTapEvent((event) => events.push(event));
      const { DualEraClient } = await import('../../src/protocol/era/dual-era-client.ts');
      const client = new DualEraClient({ kind: 'stdio', transport: wire, framing: 'ndjson' }, { requestTimeoutMs: 10_000 });
      const connected = await client.connect();
      const result = await client.callTool('echo', { text: TEXT });
      expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
      client.close();
      expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'echo-server.mjs', '--framing=ndjson', ...(era === 'dual' ? [] : ['--era=legacy'])] });
      const [firstAnswer] = new TextDecoder().decode(s2cBytes(events)).split('\n');
      answers[era] = { era: connected.era, first: JSON.parse(firstAnswer!) };
      wire.kill();
    }
    expect(answers.dual).toMatchObject({ era: 'modern', first: { id: 0, result: { resultType: 'complete' } } });
    expect(answers.legacy).toMatchObject({ era: 'legacy', first: { id: 0, error: { code: expect.any(Number) } } });
  });

  it('runs the SDK 2.4.0 echo server, mounted on its first start: both eras, then modern mode', async () => {
    const { host } = fakeHost({ terminal: { seed: 13 } });
    const wire = await host.start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [] });
    const { initialize, result } = await conversation(wire, 'ndjson');
    expect(initialize.serverInfo.name).toBe('sdk2-echo-server');
    expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
    const modern = await host.start({ program: 'sdk2-echo-server', framing: 'ndjson', faults: [], era: 'modern' });
    const events: TapEvent[] = [];
    modern.onTapEvent((event) => events.push(event));
    await expect(new McpClient(modern, { framing: 'ndjson', requestTimeoutMs: 10_000 }).connect()).rejects.toMatchObject({ code: -32022 });
    expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'sdk2-echo-server.mjs', '--era=modern'] });
    modern.kill();
  });

  it('runs the official SDK echo server (code nobody here wrote) through the same path', async () => {
    const { host } = fakeHost({ terminal: { seed: 11 } });
    const wire = await host.start({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] });
    const { events, received, initialize, result } = await conversation(wire, 'ndjson');
    expect(initialize.serverInfo.name).toBe('sdk-echo-server');
    expect(result.content).toEqual([{ type: 'text', text: TEXT }]);
    expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'sdk-echo-server.mjs'] });
    expect(s2cBytes(events)).toEqual(concat(received.map((message) => getFraming('ndjson').encode(message))));
  });

  it('kill() stops the server through the tap, which reports the signal', async () => {
    const { fake, host } = fakeHost();
    const wire = await host.start({ program: 'echo-server', framing: 'ndjson', faults: [] });
    const closed = new Promise<string>((done) => wire.onClose(done));
    wire.kill();
    expect(await closed).toBe('server was stopped by SIGTERM');
    expect(await fake.instance?.processes[0]?.exit).toBe(143); // the tap passes the signal on: 128 + 15
  });

  it('boots once and mounts once for any number of probes and starts', async () => {
    const { fake, host } = fakeHost();
    await host.probe();
    const spec: ProgramSpec = { program: 'echo-server', framing: 'ndjson', faults: [] };
    const [first, second] = await Promise.all([host.start(spec), host.start(spec)]);
    await host.probe();
    expect(fake.calls).toBe(1);
    expect(fake.instance?.mountCalls).toBe(1);
    expect(fake.instance?.processes).toHaveLength(2);
    const closing = [first, second].map((wire) => new Promise<string>((done) => wire?.onClose(done)));
    first?.kill();
    second?.kill();
    await Promise.all(closing);
  });

  it('reports a boot that never settles as a timeout, within the timeout, naming the likely causes', async () => {
    const { fake, host } = fakeHost({ behaviour: 'never' }, { timeoutMs: 300 });
    // On a fake clock: still waiting at 299 ms, given up at 300 ms.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let availability: unknown;
    try {
      const probing = host.probe().then((result) => (availability = result));
      await vi.advanceTimersByTimeAsync(299);
      expect(availability).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await probing;
    } finally {
      vi.useRealTimers();
    }
    expect(availability).toEqual({ kind: 'webcontainer', status: 'unavailable', reason: bootTimeoutReason(300), why: { code: 'boot-timeout', seconds: 0.3 } });
    expect(bootTimeoutReason(300)).toMatch(/did not boot within 0\.3 s.*offline.*third-party cookies.*tracking protection.*does not support/);
    // Asking again waits on the same pending boot: a second boot() would fail on a real page.
    await expect(host.start({ program: 'echo-server', framing: 'ndjson', faults: [] })).rejects.toThrow('did not boot within 0.3 s');
    expect(fake.calls).toBe(1);
  });

  it('names the missing headers when the page is not cross-origin isolated, without booting', async () => {
    const { fake, host } = fakeHost({}, { isolated: () => false });
    const availability = await host.probe();
    expect(availability).toEqual({ kind: 'webcontainer', status: 'unavailable', reason: NOT_ISOLATED_REASON, why: { code: 'not-isolated' } });
    expect(NOT_ISOLATED_REASON).toContain('Cross-Origin-Opener-Policy: same-origin');
    expect(NOT_ISOLATED_REASON).toContain('Cross-Origin-Embedder-Policy: require-corp');
    expect(fake.calls).toBe(0);
  });

  it('says so when SharedArrayBuffer is missing', async () => {
    const { host } = fakeHost({}, { hasSharedArrayBuffer: () => false });
    expect(await host.probe()).toEqual({ kind: 'webcontainer', status: 'unavailable', reason: NO_SHARED_ARRAY_BUFFER_REASON, why: { code: 'no-shared-array-buffer' } });
  });

  it('passes on the message of a boot that throws', async () => {
    const { host } = fakeHost({ behaviour: { reject: 'Unable to create more instances' } });
    expect(await host.probe()).toEqual({
      kind: 'webcontainer',
      status: 'unavailable',
      reason: 'WebContainer failed to boot: Unable to create more instances',
      why: { code: 'boot-failed', detail: 'Unable to create more instances' },
    });
  });

  it('says which program could not be loaded, and tries again next time', async () => {
    let failures = 1;
    const { host } = fakeHost(
      {},
      {
        fetchProgram: async (name) => {
          if (name === 'echo-server' && failures-- > 0) throw new Error('/generated/echo-server.mjs answered 404');
          return readGenerated(name);
        },
      },
    );
    expect(await host.probe()).toEqual({
      kind: 'webcontainer',
      status: 'unavailable',
      reason: 'could not load the server programs into the WebContainer: /generated/echo-server.mjs answered 404',
      why: { code: 'mount-failed', detail: '/generated/echo-server.mjs answered 404' },
    });
    expect(await host.probe()).toEqual({ kind: 'webcontainer', status: 'available' });
  });

  it('rejects start with what the terminal last said when the tap dies before reporting', async () => {
    const { host } = fakeHost(
      {},
      {
        fetchProgram: async (name) => (name === 'tap' ? "console.error('SyntaxError: boom'); process.exit(3);" : readGenerated(name)),
      },
    );
    await expect(host.start({ program: 'echo-server', framing: 'ndjson', faults: [] })).rejects.toThrow(
      'could not start echo-server in the WebContainer: the tap process in the WebContainer ended with code 3; last output: SyntaxError: boom',
    );
  });
});
