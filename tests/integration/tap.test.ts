// The real tap (public/generated/tap.mjs) spawning real programs, driven through its own stdio the
// way the local bridge drives it.

import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  TapLineSplitter,
  bytesToBase64,
  encodeTapCommand,
  encodeTapEvent,
  parseTapEvent,
  tapEventBytes,
  type TapBytesEvent,
  type TapCommand,
  type TapEvent,
  type TapStream,
} from '../../src/runtime/tap-protocol.ts';
import { builtProgram, killAllPrograms, RunningProgram, startNode } from './child-transport.ts';

const utf8 = new TextEncoder();
const ndjson = (message: unknown) => utf8.encode(`${JSON.stringify(message)}\n`);
const contentLength = (message: unknown) => {
  const body = utf8.encode(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
};

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tap-test', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const ECHO_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: '你好 👋' } } };

const shellQuote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

/** The tap as the bridge sees it: its stdout parsed into events, commands written as lines. */
class TapDriver {
  readonly program: RunningProgram;
  private readonly lines = new TapLineSplitter();
  private readonly decoder = new TextDecoder();
  readonly events: TapEvent[] = [];
  /** Lines on the tap's stdout that were not events: must stay empty. */
  readonly strayLines: string[] = [];
  private parsedChunks = 0;

  constructor(programAndArgs: readonly string[], { terminal = false } = {}) {
    const tapArgs = [builtProgram('tap'), '--', ...programAndArgs];
    this.program = terminal
      ? // util-linux `script` puts the tap on a pseudo-terminal, as a WebContainer does.
        new RunningProgram('script', ['-qfec', [process.execPath, ...tapArgs].map(shellQuote).join(' '), '/dev/null'])
      : startNode(tapArgs[0]!, tapArgs.slice(1));
  }

  private parse(): void {
    const chunks = this.program.stdoutChunks;
    for (; this.parsedChunks < chunks.length; this.parsedChunks++) {
      for (const line of this.lines.push(this.decoder.decode(chunks[this.parsedChunks], { stream: true }))) {
        const event = parseTapEvent(line);
        if (event) this.events.push(event);
        else this.strayLines.push(line);
      }
    }
  }

  send(command: TapCommand): Promise<void> {
    return this.program.write(`${encodeTapCommand(command)}\n`);
  }

  write(bytes: Uint8Array): Promise<void> {
    return this.send({ cmd: 'write', b64: bytesToBase64(bytes) });
  }

  async waitForEvent(predicate: (event: TapEvent) => boolean, what: string, timeoutMs = 5000): Promise<TapEvent> {
    await this.program.waitFor(
      () => {
        this.parse();
        return this.events.some(predicate);
      },
      what,
      timeoutMs,
    );
    return this.events.find(predicate)!;
  }

  /** Concatenated bytes of every event on one stream. */
  bytes(stream: TapStream): Buffer {
    this.parse();
    return Buffer.concat(this.events.filter((e): e is TapBytesEvent => e.ev === stream).map((e) => tapEventBytes(e)));
  }

  waitForBytes(stream: TapStream, predicate: (bytes: Buffer) => boolean, what: string): Promise<void> {
    return this.program.waitFor(() => predicate(this.bytes(stream)), what);
  }

  async finished(): Promise<{ code: number | null; exit: TapEvent }> {
    const status = await this.program.exit();
    this.parse();
    const exit = this.events.at(-1)!;
    return { code: status.code, exit };
  }
}

afterEach(killAllPrograms);

describe('tap around the echo server', () => {
  it('reports spawn, c2s, s2c, stderr and exit, with every byte exact and exit last', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server'), '--framing=ndjson']);
    const spawned = await tap.waitForEvent((e) => e.ev === 'spawn', 'spawn event');
    expect(spawned).toMatchObject({ ev: 'spawn', argv: [process.execPath, builtProgram('echo-server'), '--framing=ndjson'] });
    expect(spawned.ev === 'spawn' && spawned.pid > 0).toBe(true);
    expect(tap.events[0]).toBe(spawned);

    const sent = [ndjson(INITIALIZE), ndjson(INITIALIZED), ndjson(ECHO_CALL)];
    for (const frame of sent) await tap.write(frame);
    await tap.waitForBytes('s2c', (bytes) => bytes.toString('utf8').includes('你好 👋'), 'the echo reply');
    await tap.waitForEvent((e) => e.ev === 'stderr', 'a stderr event');
    await tap.send({ cmd: 'eof' });
    const { code, exit } = await tap.finished();

    expect(code).toBe(0);
    expect(exit).toMatchObject({ ev: 'exit', code: 0, signal: null });
    expect(tap.events.filter((e) => e.ev === 'exit')).toHaveLength(1);
    expect(tap.strayLines).toEqual([]);
    // c2s is exactly what we asked the tap to write, in order.
    expect(tap.bytes('c2s').equals(Buffer.concat(sent))).toBe(true);
    const replies = tap
      .bytes('s2c')
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line));
    expect(replies.map((reply) => reply.id)).toEqual([0, 1]);
    expect(replies[1].result.content[0].text).toBe('你好 👋');
    // The server's logs came through stderr, not stdout.
    expect(tap.bytes('stderr').toString('utf8').length).toBeGreaterThan(0);
    // Time only moves forward.
    const times = tap.events.map((e) => e.t);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('s2c bytes concatenated equal what the server writes when run without the tap', async () => {
    const input = Buffer.concat([contentLength(INITIALIZE), contentLength(INITIALIZED), contentLength(ECHO_CALL)]);

    const direct = startNode(builtProgram('echo-server'), ['--framing=content-length']);
    await direct.write(input);
    direct.end();
    expect((await direct.exit()).code).toBe(0);

    const tap = new TapDriver([process.execPath, builtProgram('echo-server'), '--framing=content-length']);
    await tap.write(input);
    await tap.send({ cmd: 'eof' });
    expect((await tap.finished()).code).toBe(0);

    expect(direct.stdout.length).toBeGreaterThan(0);
    expect(tap.bytes('s2c').equals(direct.stdout)).toBe(true);
    expect(tap.bytes('c2s').equals(input)).toBe(true);
  });

  it('ignores echoed lines, junk, ANSI noise and \\n\\n line ends, and still obeys commands among them', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server'), '--framing=ndjson']);
    await tap.waitForEvent((e) => e.ev === 'spawn', 'spawn event');
    const write = encodeTapCommand({ cmd: 'write', b64: bytesToBase64(ndjson(INITIALIZE)) });
    const noise = [
      'hello there',
      encodeTapEvent({ tap: 1, ev: 'exit', t: 1, code: 9, signal: null }), // our own output, echoed back
      '\x1b[?2004h\x1b[1G',
      '',
      `\x1b[32m${write}\x1b[0m`, // a real command wrapped in ANSI: obeyed
      write, // the same command twice is obeyed twice (echo happens on the output side, not here)
      '{"tap":1,"ev":"c2s","t":0,"b64":""}',
      '{ not json',
    ].join('\n\n');
    await tap.program.write(`${noise}\n\n`);
    await tap.waitForBytes('s2c', (bytes) => bytes.toString('utf8').split('\n').filter(Boolean).length === 2, 'two initialize answers');
    expect(tap.events.filter((e) => e.ev === 'error')).toEqual([]);
    expect(tap.program.isClosed).toBe(false);
    await tap.send({ cmd: 'eof' });
    expect((await tap.finished()).code).toBe(0);
  });

  it('reports a malformed command as an error event and keeps going', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server'), '--framing=ndjson']);
    await tap.program.write('{"cmd":"write","b64":"not base64!"}\n{"cmd":"explode"}\n{"cmd":"kill","signal":"SIGNOPE"}\n');
    await tap.waitForEvent((e) => e.ev === 'error' && e.message.includes('SIGNOPE'), 'three error events');
    expect(tap.events.filter((e) => e.ev === 'error')).toHaveLength(3);
    await tap.write(ndjson(INITIALIZE));
    await tap.waitForBytes('s2c', (bytes) => bytes.includes('"id":0'), 'the initialize answer');
    await tap.send({ cmd: 'eof' });
    expect((await tap.finished()).code).toBe(0);
  });

  it('survives arbitrary garbage bytes on its stdin', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server'), '--framing=ndjson']);
    await tap.program.write(Buffer.concat([randomBytes(64 * 1024), Buffer.from('\n{"cmd"\xff\xfe\n\r\r\n{"cmd":{"cmd":1}}\n\x03\x04\x00\n')]));
    await tap.write(ndjson(INITIALIZE));
    await tap.waitForBytes('s2c', (bytes) => bytes.includes('"id":0'), 'the initialize answer');
    expect(tap.program.isClosed).toBe(false);
    await tap.send({ cmd: 'eof' });
    expect((await tap.finished()).code).toBe(0);
    expect(tap.strayLines).toEqual([]);
  });

  it('kill stops the server; the exit event carries the signal and the tap exits 128+n', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server')]);
    await tap.waitForEvent((e) => e.ev === 'stderr', 'the server start log');
    await tap.send({ cmd: 'kill', signal: 'SIGTERM' });
    const { code, exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', code: null, signal: 'SIGTERM' });
    expect(code).toBe(128 + 15);
  });

  it('closing the tap stdin closes the server stdin, so the server exits 0', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server')]);
    await tap.waitForEvent((e) => e.ev === 'spawn', 'spawn event');
    tap.program.end();
    const { code, exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', code: 0 });
    expect(code).toBe(0);
  });

  it('SIGTERM to the tap is passed on to the server and reported', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server')]);
    await tap.waitForEvent((e) => e.ev === 'stderr', 'the server start log');
    tap.program.child.kill('SIGTERM');
    const { exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', signal: 'SIGTERM' });
  });

  it('propagates a usage error of the server: exit code 2, usage in stderr events, nothing in s2c', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server'), '--framing=xml']);
    const { code, exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', code: 2 });
    expect(code).toBe(2);
    expect(tap.bytes('stderr').toString('utf8')).toMatch(/usage/i);
    expect(tap.bytes('s2c').length).toBe(0);
  });
});

describe('tap around other programs', () => {
  it('propagates any exit code', async () => {
    const tap = new TapDriver([process.execPath, '-e', 'process.exit(7)']);
    const { code, exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', code: 7, signal: null });
    expect(code).toBe(7);
  });

  it('carries a megabyte of binary bytes through both pipes unchanged', async () => {
    const payload = randomBytes(1024 * 1024);
    const tap = new TapDriver([process.execPath, '-e', 'process.stdin.pipe(process.stdout)']);
    // Several writes, so c2s events and write order matter.
    for (let i = 0; i < payload.length; i += 256 * 1024) await tap.write(payload.subarray(i, i + 256 * 1024));
    await tap.send({ cmd: 'eof' });
    expect((await tap.finished()).code).toBe(0);
    expect(tap.bytes('c2s').equals(payload)).toBe(true);
    expect(tap.bytes('s2c').equals(payload)).toBe(true);
    // Every line the tap printed was pure ASCII.
    expect(tap.program.stdout.every((byte) => byte < 0x80)).toBe(true);
  });

  it('reports a program that cannot be spawned as an error event and exits non-zero', async () => {
    const tap = new TapDriver(['/definitely/not/a/program']);
    const status = await tap.program.exit();
    await tap.waitForEvent((e) => e.ev === 'error', 'an error event');
    expect(tap.events.find((e) => e.ev === 'error')).toMatchObject({ message: expect.stringContaining('ENOENT') });
    expect(status.code).not.toBe(0);
  });

  it('refuses a command line without `-- program`: exit 2 and an error event', async () => {
    const tap = startNode(builtProgram('tap'), ['node']);
    const status = await tap.exit();
    expect(status.code).toBe(2);
    expect(tap.stderr).toMatch(/usage/);
    expect(parseTapEvent(tap.stdout.toString('ascii'))).toMatchObject({ ev: 'error' });
  });
});

describe('tap on a pseudo-terminal', () => {
  it('switches its terminal to raw mode: no echo, and a 12 KB command line arrives whole', async () => {
    const payload = randomBytes(9000);
    const tap = new TapDriver([process.execPath, '-e', 'process.stdin.pipe(process.stdout)'], { terminal: true });
    await tap.waitForEvent((e) => e.ev === 'spawn', 'spawn event');
    // Enter in a terminal sends \r. A cooked terminal would echo this line and cut it at 4095 bytes.
    await tap.program.write(`${encodeTapCommand({ cmd: 'write', b64: bytesToBase64(payload) })}\r`);
    await tap.waitForBytes('s2c', (bytes) => bytes.length >= payload.length, 'the payload echoed back');
    await tap.program.write(`${encodeTapCommand({ cmd: 'eof' })}\r`);
    const { exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', code: 0 });
    expect(tap.bytes('c2s').equals(payload)).toBe(true);
    expect(tap.bytes('s2c').equals(payload)).toBe(true);
    expect(tap.strayLines).toEqual([]);
    expect(tap.events.filter((e) => e.ev === 'error')).toEqual([]);
  });

  it('treats a Ctrl-C byte as SIGINT for the server, as a terminal would', async () => {
    const tap = new TapDriver([process.execPath, builtProgram('echo-server')], { terminal: true });
    await tap.waitForEvent((e) => e.ev === 'stderr', 'the server start log');
    await tap.program.write('\x03');
    const { exit } = await tap.finished();
    expect(exit).toMatchObject({ ev: 'exit', code: null, signal: 'SIGINT' });
  });
});
