import { describe, expect, it } from 'vitest';
import { splitIntoWrites } from '../protocol/faults.ts';
import { getFraming } from '../protocol/framing/index.ts';
import type { FramingName } from '../protocol/framing/types.ts';
import { createEchoWorkerCore, wrongWorkerRefusal, type PageToWorker } from './echo-worker-core.ts';
import type { ProgramSpec } from './host.ts';
import { base64ToBytes, bytesToBase64, type TapEvent } from './tap-protocol.ts';

/** A seeded PRNG (mulberry32), so split-writes cuts can be predicted. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const decoder = new TextDecoder();
const text = (event: TapEvent): string => ('b64' in event ? decoder.decode(base64ToBytes(event.b64)) : '');
const write = (value: unknown, framing: FramingName): PageToWorker => ({ cmd: 'write', b64: bytesToBase64(getFraming(framing).encode(value)) });
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

function startCore(spec: ProgramSpec, random?: () => number) {
  const events: TapEvent[] = [];
  let clock = 0;
  const core = createEchoWorkerCore({ post: (event) => events.push(event), now: () => (clock += 1.25), random });
  core.handle({ type: 'start', spec });
  return { core, events };
}

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const ECHO = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: '你好 👋' } } };

describe('createEchoWorkerCore', () => {
  it('reports spawn like the real tap, with the program argv, then the server log on stderr', () => {
    const { events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: ['no-gate'] });
    expect(events[0]).toEqual({ tap: 1, ev: 'spawn', t: 1.3, pid: 0, argv: ['node', 'echo-server.mjs', '--framing=ndjson', '--fault=no-gate'] });
    expect(events[1]?.ev).toBe('stderr');
    expect(text(events[1] as TapEvent)).toBe('[echo-server] pid 0 (in-browser worker), framing ndjson, era dual, faults: no-gate\n');
  });

  it('answers a handshake: c2s for each write, s2c with the exact frame bytes', async () => {
    const { core, events } = startCore({ program: 'echo-server', framing: 'content-length', faults: [] });
    const initialize = write(INITIALIZE, 'content-length');
    core.handle(initialize);
    await flush();
    const afterStart = events.slice(2);
    expect(afterStart[0]).toMatchObject({ ev: 'c2s', b64: (initialize as { b64: string }).b64 });
    const s2c = afterStart.filter((event) => event.ev === 's2c');
    expect(s2c).toHaveLength(1);
    const frame = base64ToBytes((s2c[0] as { b64: string }).b64);
    const [message] = getFraming('content-length')
      .createReader()
      .push(frame)
      .map((item) => (item.type === 'message' ? item.value : item));
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 0, result: { protocolVersion: '2025-11-25', serverInfo: { name: 'mcp-echo-server' } } });
    // Re-encoding what was read gives back the very bytes: the server wrote one compact frame.
    expect(getFraming('content-length').encode(message)).toEqual(frame);
    const times = events.map((event) => event.t);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('reproduces split-writes exactly: one s2c event per write the server made', async () => {
    const { core, events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: ['split-writes'] }, seeded(7));
    core.handle(write(INITIALIZE, 'ndjson'));
    await flush();
    core.handle(write(INITIALIZED, 'ndjson'));
    core.handle(write(ECHO, 'ndjson'));
    await flush();
    const s2c = events.filter((event) => event.ev === 's2c').map((event) => base64ToBytes((event as { b64: string }).b64));
    const messages = getFraming('ndjson')
      .createReader()
      .push(concat(s2c))
      .map((item) => (item.type === 'message' ? item.value : item));
    expect(messages).toHaveLength(2);
    expect(messages[1]).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: '你好 👋' }] } });
    // The same seed cuts the same frames the same way: the events are those pieces, one for one.
    const random = seeded(7);
    const expected = messages.flatMap((message) => splitIntoWrites(getFraming('ndjson').encode(message), random));
    expect(s2c).toEqual(expected);
    expect(s2c.length).toBeGreaterThan(messages.length * 5);
    expect(Math.max(...s2c.map((piece) => piece.length))).toBeLessThanOrEqual(7);
  });

  it('exits with code 0 after eof once in-flight requests are answered, and refuses later writes', async () => {
    const { core, events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: [] });
    core.handle(write(INITIALIZE, 'ndjson'));
    core.handle({ cmd: 'eof' });
    core.handle(write(INITIALIZED, 'ndjson'));
    await flush();
    const tail = events.slice(2).map((event) => (event.ev === 'stderr' ? `stderr:${text(event).trim()}` : event.ev));
    expect(tail).toEqual([
      'c2s',
      'stderr:[echo-server] request initialize #0',
      'stderr:[echo-server] stdin closed; finishing in-flight requests',
      'error',
      's2c',
      'stderr:[echo-server] done, exiting',
      'exit',
    ]);
    expect(events.find((event) => event.ev === 'error')).toMatchObject({ message: 'write after eof: the server stdin is closed' });
    expect(events.at(-1)).toMatchObject({ ev: 'exit', code: 0, signal: null });
  });

  it('reports a kill as the real tap does (stopped by SIGTERM) and stays silent afterwards', async () => {
    const { core, events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: [] });
    core.handle(write(INITIALIZE, 'ndjson'));
    core.handle({ cmd: 'kill' });
    core.handle(write(INITIALIZED, 'ndjson'));
    core.handle({ cmd: 'kill', signal: 'SIGKILL' });
    await flush();
    const last = events.at(-1);
    expect(last).toMatchObject({ ev: 'exit', code: null, signal: 'SIGTERM' });
    // The initialize answer was still in flight when the kill came: it never reaches stdout.
    expect(events.filter((event) => event.ev === 's2c')).toEqual([]);
    expect(events.filter((event) => event.ev === 'exit')).toHaveLength(1);
  });

  it('refuses a program it does not run (the SDK server has a worker of its own), before any spawn', () => {
    const { events } = startCore({ program: 'sdk-echo-server', framing: 'ndjson', faults: [] });
    expect(events).toEqual([{ tap: 1, ev: 'error', t: 1.3, message: wrongWorkerRefusal('sdk-echo-server', 'echo-server') }]);
    expect(wrongWorkerRefusal('sdk-echo-server', 'echo-server')).toBe('cannot spawn sdk-echo-server: this in-browser worker runs only echo-server');
  });

  it('refuses options the echo server itself would refuse', () => {
    const { events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: ['char-length'] });
    expect(events).toEqual([
      { tap: 1, ev: 'error', t: 1.3, message: 'cannot start echo-server: --fault=char-length only applies to --framing=content-length' },
    ]);
  });

  it('answers malformed messages with an error event, never a throw', () => {
    const { core, events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: [] });
    const before = events.length;
    for (const message of [null, 42, 'eof', { cmd: 'write', b64: '!!' }, { cmd: 'kill', signal: 'rm -rf' }, { type: 'start' }]) {
      core.handle(message);
    }
    const errors = events.slice(before);
    expect(errors).toHaveLength(6);
    expect(errors.every((event) => event.ev === 'error' && event.message.startsWith('malformed command: '))).toBe(true);
  });

  it('runs the era it is asked for: legacy answers server/discover as the handshake-era server, dual as 2026-07-28', async () => {
    const discover = { jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const answers: Record<string, unknown> = {};
    for (const era of ['legacy', 'dual'] as const) {
      const { core, events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: [], ...(era === 'dual' ? {} : { era }) });
      expect(events[0]).toMatchObject({ ev: 'spawn', argv: ['node', 'echo-server.mjs', '--framing=ndjson', ...(era === 'dual' ? [] : ['--era=legacy'])] });
      core.handle(write(discover, 'ndjson'));
      await flush();
      const s2c = events.find((event) => event.ev === 's2c');
      answers[era] = JSON.parse(text(s2c as TapEvent));
    }
    expect(answers.legacy).toMatchObject({ id: 7, error: { code: expect.any(Number) } });
    expect(answers.dual).toMatchObject({ id: 7, result: { resultType: 'complete', supportedVersions: expect.arrayContaining(['2026-07-28']) } });
  });

  it('refuses an era it does not know, and an era for the learner server', () => {
    const { events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: [], era: 'ancient' as never });
    expect(events).toEqual([{ tap: 1, ev: 'error', t: 1.3, message: expect.stringMatching(/^cannot start echo-server: era goes only with echo-server/) }]);
  });

  it('runs one server per worker', () => {
    const { core, events } = startCore({ program: 'echo-server', framing: 'ndjson', faults: [] });
    core.handle({ type: 'start', spec: { program: 'echo-server', framing: 'ndjson', faults: [] } });
    expect(events.at(-1)).toMatchObject({ ev: 'error', message: 'already started: one worker runs one server' });
  });
});
