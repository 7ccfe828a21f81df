// The tap's core, run in-process the way the bridge runs it: real programs, real pipes, every
// event checked as the line it is sent as.

import { afterEach, describe, expect, it } from 'vitest';
import { builtProgram } from '../tests/integration/child-transport.ts';
import { waitUntil, isAlive } from '../tests/integration/ws-tap-transport.ts';
import { bytesToBase64, parseTapEvent, tapEventBytes, type TapEvent, type TapStream } from '../src/runtime/tap-protocol.ts';
import { startTap, type TapCore, type TapCoreOptions, type TapEnd } from './tap-core.ts';

const utf8 = new TextEncoder();
const ndjson = (message: unknown) => utf8.encode(`${JSON.stringify(message)}\n`);
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tap-core-test', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const ECHO_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: '你好 👋' } } };

/** One tap under test: every line it emitted, the event it came with, and how it ended. */
class TapRecorder {
  readonly lines: string[] = [];
  readonly events: TapEvent[] = [];
  end: TapEnd | null = null;
  endCalls = 0;
  readonly tap: TapCore;

  constructor(argv: readonly string[], options: Partial<TapCoreOptions> = {}) {
    this.tap = startTap({
      argv,
      onLine: (line, event) => {
        this.lines.push(line);
        this.events.push(event);
      },
      onEnd: (end) => {
        this.end = end;
        this.endCalls++;
      },
      ...options,
    });
    running.add(this);
  }

  bytes(stream: TapStream): Buffer {
    return Buffer.concat(this.events.flatMap((event) => (event.ev === stream ? [Buffer.from(tapEventBytes(event))] : [])));
  }

  waitFor(condition: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
    return waitUntil(condition, timeoutMs, what);
  }

  finished(): Promise<void> {
    return this.waitFor(() => this.end !== null, 'the tap to end');
  }
}

const running = new Set<TapRecorder>();
afterEach(async () => {
  for (const recorder of running) if (!recorder.tap.ended) recorder.tap.killGroup('SIGKILL');
  await Promise.all([...running].map((recorder) => recorder.finished().catch(() => {})));
  running.clear();
});

const echoServer = (...args: string[]) => [process.execPath, builtProgram('echo-server'), ...args];
const nodeEval = (code: string) => [process.execPath, '-e', code];

describe('startTap around the echo server', () => {
  it('emits spawn, c2s, s2c, stderr and exit as ASCII lines that parse back to the events they came with', async () => {
    const recorder = new TapRecorder(echoServer('--framing=ndjson'));
    await recorder.waitFor(() => recorder.events.some((event) => event.ev === 'spawn'), 'the spawn event');
    const sent = [ndjson(INITIALIZE), ndjson(INITIALIZED), ndjson(ECHO_CALL)];
    for (const frame of sent) recorder.tap.run({ cmd: 'write', b64: bytesToBase64(frame) });
    await recorder.waitFor(() => recorder.bytes('s2c').toString('utf8').includes('你好 👋'), 'the echo reply');
    recorder.tap.run({ cmd: 'eof' });
    await recorder.finished();

    expect(recorder.events[0]).toMatchObject({ tap: 1, ev: 'spawn', argv: echoServer('--framing=ndjson'), pid: recorder.tap.pid });
    expect(recorder.events.at(-1)).toMatchObject({ ev: 'exit', code: 0, signal: null });
    expect(recorder.end).toEqual({ kind: 'exited', code: 0, signal: null, exitCode: 0 });
    expect(recorder.endCalls).toBe(1);
    expect(recorder.tap.ended).toBe(true);
    expect(recorder.bytes('c2s').equals(Buffer.concat(sent))).toBe(true);
    expect(recorder.bytes('stderr').toString('utf8')).toContain('tools/call');
    const replies = recorder.bytes('s2c').toString('utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(replies.map((reply) => reply.id)).toEqual([0, 1]);
    // Each line is exactly the encoding of its event, pure ASCII, one line.
    recorder.lines.forEach((line, i) => {
      expect(parseTapEvent(line)).toEqual(recorder.events[i]);
      expect(/^[\x20-\x7e]+$/.test(line)).toBe(true);
    });
  });

  it('stamps t from the tap start by default, and from `now` when given', async () => {
    const defaultClock = new TapRecorder(echoServer());
    await defaultClock.waitFor(() => defaultClock.events.length > 0, 'the first event');
    const firstT = defaultClock.events[0]?.t ?? -1;
    expect(firstT).toBeGreaterThanOrEqual(0);
    expect(firstT).toBeLessThan(5_000);

    let ms = 1_000;
    const fixedClock = new TapRecorder(echoServer(), { now: () => (ms += 0.25) });
    await fixedClock.waitFor(() => fixedClock.events.length > 0, 'the first event');
    expect(fixedClock.events[0]?.t).toBe(1000.3); // rounded to one decimal
  });

  it('reports an unknown signal as an error event; a known one stops the server with 128+n', async () => {
    const recorder = new TapRecorder(echoServer());
    await recorder.waitFor(() => recorder.events.some((event) => event.ev === 'stderr'), 'the start log');
    recorder.tap.kill('SIGNOPE');
    expect(recorder.events.at(-1)).toMatchObject({ ev: 'error', message: 'unknown signal SIGNOPE' });
    recorder.tap.run({ cmd: 'kill' });
    await recorder.finished();
    expect(recorder.events.at(-1)).toMatchObject({ ev: 'exit', code: null, signal: 'SIGTERM' });
    expect(recorder.end).toMatchObject({ kind: 'exited', exitCode: 128 + 15 });
  });

  it('handleLine obeys commands, reports broken ones and ignores noise', async () => {
    const recorder = new TapRecorder(echoServer('--framing=ndjson'));
    recorder.tap.handleLine('\x1b[?2004h just terminal noise');
    recorder.tap.handleLine('{"cmd":"explode"}');
    expect(recorder.events.filter((event) => event.ev === 'error')).toEqual([expect.objectContaining({ message: 'malformed command: {"cmd":"explode"}' })]);
    recorder.tap.handleLine(`junk ${JSON.stringify({ cmd: 'write', b64: bytesToBase64(ndjson(INITIALIZE)) })} junk`);
    await recorder.waitFor(() => recorder.bytes('s2c').includes('"id":0'), 'the initialize answer');
    recorder.tap.handleLine('{"cmd":"eof"}');
    await recorder.finished();
    expect(recorder.end).toMatchObject({ kind: 'exited', exitCode: 0 });
  });

  it('reports a write after eof instead of throwing', async () => {
    const recorder = new TapRecorder(echoServer());
    recorder.tap.run({ cmd: 'eof' });
    recorder.tap.run({ cmd: 'write', b64: bytesToBase64(ndjson(INITIALIZE)) });
    expect(recorder.events.at(-1)).toMatchObject({ ev: 'error', message: 'write after eof: the server stdin is closed' });
    await recorder.finished();
    expect(recorder.bytes('c2s').length).toBe(0);
  });
});

describe('startTap when the program cannot start', () => {
  it('reports a missing program as one error event and ends with 127, with no exit event', async () => {
    const recorder = new TapRecorder(['/definitely/not/a/program']);
    await recorder.finished();
    expect(recorder.events).toEqual([expect.objectContaining({ ev: 'error', message: expect.stringContaining('ENOENT') })]);
    expect(recorder.end).toEqual({ kind: 'spawn-failed', exitCode: 127, message: expect.stringContaining('ENOENT') });
    // Whatever comes after is accepted and does nothing.
    recorder.tap.run({ cmd: 'write', b64: 'AA==' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(recorder.endCalls).toBe(1);
    expect(recorder.events).toHaveLength(1);
  });

  it('reports a spawn that throws only after startTap returned', async () => {
    let returned = false;
    const lines: string[] = [];
    let end: TapEnd | null = null;
    const tap = startTap({
      argv: ['bad\0program'],
      onLine: (line) => {
        expect(returned).toBe(true);
        lines.push(line);
      },
      onEnd: (result) => (end = result),
    });
    returned = true;
    expect(lines).toEqual([]);
    expect(tap.ended).toBe(false);
    await Promise.resolve();
    expect(parseTapEvent(lines[0] ?? '')).toMatchObject({ ev: 'error', message: expect.stringContaining('cannot spawn') });
    expect(end).toEqual({ kind: 'spawn-failed', exitCode: 127, message: expect.stringContaining('cannot spawn') });
    expect(tap.ended).toBe(true);
  });
});

describe('startTap controls', () => {
  it('with ownProcessGroup, killGroup reaches what the program spawned as well', async () => {
    const grandchild = "require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' })";
    const recorder = new TapRecorder(nodeEval(`const c = ${grandchild}; process.stdout.write(String(c.pid)); setInterval(() => {}, 1000);`), {
      ownProcessGroup: true,
    });
    await recorder.waitFor(() => recorder.bytes('s2c').length > 0, 'the grandchild pid');
    const serverPid = recorder.tap.pid as number;
    const grandchildPid = Number(recorder.bytes('s2c').toString('utf8'));
    expect(isAlive(serverPid) && isAlive(grandchildPid)).toBe(true);
    recorder.tap.killGroup('SIGKILL');
    await recorder.finished();
    await waitUntil(() => !isAlive(grandchildPid), 2_000, 'the grandchild to be gone');
    expect(recorder.end).toMatchObject({ kind: 'exited', signal: 'SIGKILL' });
  });

  it('pauseOutput holds the program output back until resumeOutput', async () => {
    const recorder = new TapRecorder(nodeEval("setInterval(() => process.stdout.write('x'.repeat(100)), 2)"));
    await recorder.waitFor(() => recorder.bytes('s2c').length > 0, 'some output');
    recorder.tap.pauseOutput();
    const heldAt = recorder.events.length;
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(recorder.events.length).toBe(heldAt);
    recorder.tap.resumeOutput();
    await recorder.waitFor(() => recorder.events.length > heldAt + 3, 'output to flow again');
    recorder.tap.kill('SIGTERM');
    await recorder.finished();
  });

  it('tracks the stdin backlog of a program that is not reading, and says when it drained', async () => {
    // Node reads stdin only once something listens: for 300 ms this program reads nothing.
    const recorder = new TapRecorder(nodeEval("setTimeout(() => process.stdin.on('data', () => {}), 300)"));
    await recorder.waitFor(() => recorder.events.some((event) => event.ev === 'spawn'), 'the spawn event');
    const payload = Buffer.alloc(1024 * 1024, 0x61);
    recorder.tap.run({ cmd: 'write', b64: payload.toString('base64') });
    // A pipe holds 64 KiB; the rest waits in the tap.
    expect(recorder.tap.inputBacklogBytes).toBeGreaterThan(512 * 1024);
    let drained = false;
    recorder.tap.onInputDrained(() => (drained = true));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(drained).toBe(false);
    await recorder.waitFor(() => drained, 'the backlog to drain');
    expect(recorder.tap.inputBacklogBytes).toBe(0);
    await recorder.waitFor(() => recorder.bytes('c2s').length === payload.length, 'the c2s event');
    recorder.tap.run({ cmd: 'eof' });
    await recorder.finished();
  });
});
