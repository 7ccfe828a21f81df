// `tap --record`: the real tap (public/generated/tap.mjs) records real programs to a trace file,
// which the format's own reader (src/runtime/trace) must accept, with every byte as it crossed:
// the echo server driven through the tap's line protocol, the official SDK client and the echo
// server with the tap between them, and a Streamable HTTP session through the loopback relay.

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { McpClient } from '../../src/protocol/client.ts';
import { HttpClientTransport, HTTP_CLIENT_FRAMING } from '../../src/protocol/http/client-transport.ts';
import { bytesToBase64, encodeTapCommand, parseTapEvent, TapLineSplitter } from '../../src/runtime/tap-protocol.ts';
import { parseTrace, type Trace, type TraceEvent } from '../../src/runtime/trace/index.ts';
import { readTrace as openInPageWorker } from '../../src/app/trace/trace-worker-core.ts';
import { TraceLogDecoder } from '../../src/app/trace/trace-log.ts';
import { fetchExchange } from '../../server/fetch-exchange.ts';
import { SHUTDOWN_GRACE_MS } from '../../server/tap-between.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { builtProgram, killAllPrograms, RunningProgram, startNode } from './child-transport.ts';

const SDK_CLIENT = resolve(PROJECT_ROOT, 'tests/fixtures/trace/sdk-stdio-client.mjs');
const MCP_HTTP = resolve(PROJECT_ROOT, 'server/mcp-http.ts');

const utf8 = new TextEncoder();
const ndjson = (message: unknown) => utf8.encode(`${JSON.stringify(message)}\n`);
const INITIALIZE = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'tap-record-test', version: '1' } },
};
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
const ECHO_CALL = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: '你好 👋' } } };

let dir: string | undefined;
afterEach(async () => {
  await killAllPrograms();
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
function tempFile(name: string): string {
  dir ??= mkdtempSync(join(tmpdir(), 'tap-record-'));
  return join(dir, name);
}

function readTrace(file: string): Trace {
  const result = parseTrace(readFileSync(file));
  if ('error' in result) throw new Error(`${file}: ${result.error.message}`);
  return result;
}

/** What the page's trace worker makes of the file (src/app/trace): it must open, every event read. */
async function pageOpens(file: string): Promise<{ done: boolean; events: number; failed: unknown }> {
  const bytes = readFileSync(file);
  const outcome = { done: false, events: -1, failed: null as unknown };
  await openInPageWorker(
    (async function* () {
      for (let i = 0; i < bytes.length; i += 4096) yield new Uint8Array(bytes.subarray(i, i + 4096));
    })(),
    bytes.length,
    (message) => {
      if (message.type === 'done') Object.assign(outcome, { done: true, events: message.events });
      if (message.type === 'failed') outcome.failed = message.error;
    },
  );
  return outcome;
}

/** The bytes of every c2s or s2c event (of one connection, if given), concatenated. */
function bytesOf(events: TraceEvent[], ev: 'c2s' | 's2c' | 'stderr', conn?: number): Buffer {
  return Buffer.concat(
    events.flatMap((event) => (event.ev === ev && (conn === undefined || ('conn' in event && event.conn === conn)) ? [Buffer.from(event.b64, 'base64')] : [])),
  );
}

function tapLines(program: RunningProgram): string[] {
  const splitter = new TapLineSplitter();
  return [...splitter.push(program.stdout.toString('ascii')), ...splitter.flush()];
}

/** The tap's stdout as events (its line protocol). */
function printedEvents(program: RunningProgram) {
  return tapLines(program).map((line) => parseTapEvent(line));
}

function printedBytes(program: RunningProgram, ev: 'c2s' | 's2c'): string {
  return Buffer.concat(printedEvents(program).flatMap((event) => (event?.ev === ev ? [Buffer.from(event.b64, 'base64')] : []))).toString('utf8');
}

const writeCommand = (bytes: Uint8Array): string => `${encodeTapCommand({ cmd: 'write', b64: bytesToBase64(bytes) })}\n`;

describe('tap --record=FILE -- <server>: the tap as always, and a trace file', () => {
  it('records the echo server: header, every event the tap printed, the bytes exact', async () => {
    const file = tempFile('stdio.jsonl');
    const server = [process.execPath, builtProgram('echo-server'), '--framing=ndjson'];
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--', ...server]);
    const sent = [ndjson(INITIALIZE), ndjson(INITIALIZED), ndjson(ECHO_CALL)];
    for (const bytes of sent) await tap.write(writeCommand(bytes));
    await tap.waitFor(() => printedBytes(tap, 's2c').includes('"id":1'), 'the echo reply');
    await tap.write(`${encodeTapCommand({ cmd: 'eof' })}\n`);
    expect((await tap.exit()).code).toBe(0);

    const trace = readTrace(file);
    expect(trace.header).toMatchObject({ mode: 'stdio', framing: 'ndjson', framingSource: 'guessed', program: server, recorder: 'mcp-playground tap' });
    expect(Number.isNaN(Date.parse(trace.header.started))).toBe(false);
    // The line protocol is unchanged, and the file holds exactly the events the tap printed.
    expect(trace.events).toEqual(printedEvents(tap));
    expect(new Set(trace.events.map((e) => e.ev))).toEqual(new Set(['spawn', 'c2s', 's2c', 'stderr', 'exit']));
    expect(trace.events.at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    expect(bytesOf(trace.events, 'c2s').equals(Buffer.concat(sent))).toBe(true);
    const replies = bytesOf(trace.events, 's2c').toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as { id: number; result: unknown });
    expect(replies.map((reply) => reply.id)).toEqual([0, 1]);
    expect(replies[1]!.result).toMatchObject({ content: [{ type: 'text', text: '你好 👋' }] });
    expect(await pageOpens(file)).toEqual({ done: true, events: trace.events.length, failed: null });
  });

  it('writes the framing it is given, and keeps everything when the tap is stopped by SIGTERM', async () => {
    const file = tempFile('signal.jsonl');
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--framing=content-length', '--', process.execPath, builtProgram('echo-server'), '--framing=content-length']);
    const body = utf8.encode(JSON.stringify(INITIALIZE));
    const framed = Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
    await tap.write(writeCommand(framed));
    await tap.waitFor(() => printedBytes(tap, 's2c').includes('"result"'), 'the initialize reply');
    tap.child.kill('SIGTERM');
    await tap.exit();

    const trace = readTrace(file);
    expect(trace.header).toMatchObject({ framing: 'content-length', framingSource: 'given' });
    expect(bytesOf(trace.events, 'c2s').equals(framed)).toBe(true);
    expect(bytesOf(trace.events, 's2c').toString('utf8')).toMatch(/^Content-Length: \d+\r\n\r\n\{"jsonrpc":"2.0","id":0,"result"/);
    // The signal reached the server through the tap, and its exit is the last line on disk.
    expect(trace.events.at(-1)).toMatchObject({ ev: 'exit', signal: 'SIGTERM' });
    expect(trace.events).toEqual(printedEvents(tap));
  });

  it('guesses content-length framing from the first bytes, however few arrive at a time', async () => {
    const file = tempFile('guess.jsonl');
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--', process.execPath, builtProgram('echo-server'), '--framing=content-length']);
    // "Content-Length: 1" one byte at a time: no guess can be made before the colon.
    for (const byte of Buffer.from('Content-Length: 1')) {
      await tap.write(writeCommand(Uint8Array.of(byte)));
      await tap.waitFor(() => printedEvents(tap).filter((e) => e?.ev === 'c2s').length > 0 && printedBytes(tap, 'c2s').endsWith(String.fromCharCode(byte)), 'the byte to cross');
    }
    await tap.write(`${encodeTapCommand({ cmd: 'eof' })}\n`);
    await tap.exit();
    const trace = readTrace(file);
    expect(trace.header).toMatchObject({ framing: 'content-length', framingSource: 'guessed' });
    expect(bytesOf(trace.events, 'c2s').toString()).toBe('Content-Length: 1');
    expect(trace.events.filter((e) => e.ev === 'c2s')).toHaveLength('Content-Length: 1'.length);
  });

  it('refuses bad arguments with a clear error, before running anything', async () => {
    // Exit 2 for a command line that is wrong, 1 for one that is right but cannot be carried out.
    const cases: Array<[string[], number, RegExp]> = [
      [['--record=', '--', 'node'], 2, /--record needs a file/],
      [['--record=x.jsonl'], 2, /no server to run/],
      [['--record=x.jsonl', '--framing=xml', '--', 'node'], 2, /--framing must be content-length or ndjson/],
      [['--record=x.jsonl', '--listen', '--target=https://example.com/mcp'], 2, /TLS/],
      [['--record=x.jsonl', '--listen'], 2, /--listen needs --target/],
      [['--record=x.jsonl', '--between', 'node "unclosed', '--', 'node'], 2, /unbalanced " quote/],
      [['--between', 'node c.js', '--', 'node'], 2, /add --record=FILE/],
      [['--record=/definitely/not/a/dir/x.jsonl', '--', 'node'], 1, /ENOENT/],
    ];
    for (const [args, code, message] of cases) {
      const tap = startNode(builtProgram('tap'), args);
      const status = await tap.exit();
      expect({ args, code: status.code, stderr: tap.stderr }).toEqual({ args, code, stderr: expect.stringMatching(message) });
    }
  });
});

describe('tap --record=FILE --transparent -- <server>: an invisible stdio server', () => {
  it('is spawned by the official SDK client in place of the server; the session works and is recorded exactly', async () => {
    const file = tempFile('transparent.jsonl');
    const server = [process.execPath, builtProgram('echo-server'), '--framing=ndjson'];
    const transport = new StdioClientTransport({ command: process.execPath, args: [builtProgram('tap'), `--record=${file}`, '--transparent', '--', ...server], stderr: 'pipe' });
    const stderr: Buffer[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const client = new Client({ name: 'transparent-test', version: '1' });
    await client.connect(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'invisible 你好' } });
    expect(result.content).toEqual([{ type: 'text', text: 'invisible 你好' }]);
    // close() ends the tap's stdin; the tap passes the EOF on and ends with the server.
    await client.close();
    await vi.waitFor(() => expect(Buffer.concat(stderr).toString()).toContain('[tap] recorded'), { timeout: 5_000 });

    const trace = readTrace(file);
    expect(trace.header).toMatchObject({ mode: 'stdio', framing: 'ndjson', program: server });
    const sent = bytesOf(trace.events, 'c2s').toString('utf8').trim().split('\n').map((line) => (JSON.parse(line) as { method?: string }).method);
    expect(sent).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    expect(bytesOf(trace.events, 's2c').toString('utf8')).toContain('invisible 你好');
    // The server's log went to the tap's stderr as it was, and into the trace.
    expect(Buffer.concat(stderr).toString()).toContain('[echo-server] request tools/call');
    expect(bytesOf(trace.events, 'stderr').toString()).toContain('[echo-server] request tools/call');
    expect(trace.events.at(-1)).toMatchObject({ ev: 'exit', code: 0 });
    expect(await pageOpens(file)).toEqual({ done: true, events: trace.events.length, failed: null });
  });
});

describe('tap --record=FILE --between "<client>" -- <server>', () => {
  it('sits between the official SDK client and the echo server and records both directions exactly', async () => {
    const file = tempFile('between.jsonl');
    const wire = tempFile('client-wire');
    const client = `'${process.execPath}' '${SDK_CLIENT}' --wire='${wire}' echo '{"text":"between 你好"}'`;
    const server = [process.execPath, builtProgram('echo-server'), '--framing=ndjson'];
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--between', client, '--', ...server]);
    expect((await tap.exit(15_000)).code).toBe(0);

    const trace = readTrace(file);
    expect(trace.header).toMatchObject({ mode: 'between', framing: 'ndjson', program: server });
    expect(trace.header.mode === 'between' && trace.header.client).toEqual([process.execPath, SDK_CLIENT, `--wire=${wire}`, 'echo', '{"text":"between 你好"}']);
    // What the client wrote is exactly what was recorded c2s; what it read, exactly s2c.
    const wrote = readFileSync(`${wire}.out`);
    const read = readFileSync(`${wire}.in`);
    expect(wrote.length).toBeGreaterThan(0);
    expect(bytesOf(trace.events, 'c2s').equals(wrote)).toBe(true);
    expect(bytesOf(trace.events, 's2c').equals(read)).toBe(true);
    const methods = wrote.toString('utf8').trim().split('\n').map((line) => (JSON.parse(line) as { method?: string }).method);
    expect(methods).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    expect(read.toString('utf8')).toContain('between 你好');
    // Both lives are there, the client's marked as such; the client's stderr too.
    expect(trace.events.filter((e) => e.ev === 'spawn').map((e) => ('proc' in e ? e.proc : 'server'))).toEqual(expect.arrayContaining(['client', 'server']));
    expect(trace.events.filter((e) => e.ev === 'exit')).toEqual(
      expect.arrayContaining([expect.objectContaining({ proc: 'client', code: 0 }), expect.not.objectContaining({ proc: 'client' })]),
    );
    const clientLog = Buffer.concat(trace.events.flatMap((e) => (e.ev === 'stderr' && e.proc === 'client' ? [Buffer.from(e.b64, 'base64')] : []))).toString('utf8');
    expect(clientLog).toContain('[sdk-stdio-client] tools: echo');
    expect(tap.stderr).toContain('[tap] recorded');
    expect(await pageOpens(file)).toEqual({ done: true, events: trace.events.length, failed: null });
  });

  it('exits with the client\'s code and stops a server that outlives it', async () => {
    const file = tempFile('between-fail.jsonl');
    // A "server" that ignores EOF and SIGTERM-less waits: it only ends when the tap kills it.
    const server = [process.execPath, '-e', 'process.stdin.resume(); process.stdin.on("end", () => {}); setInterval(() => {}, 1000)'];
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--between', `'${process.execPath}' -e 'process.exit(3)'`, '--', ...server]);
    expect((await tap.exit(15_000)).code).toBe(3);
    const exits = readTrace(file).events.filter((e) => e.ev === 'exit');
    expect(exits).toEqual(expect.arrayContaining([expect.objectContaining({ proc: 'client', code: 3 }), expect.objectContaining({ signal: 'SIGTERM' })]));
  });
});

describe('tap --record=FILE --between, under load', () => {
  it('carries 4 MiB of arbitrary bytes through `cat` and back, unchanged, and records every byte', async () => {
    const file = tempFile('between-load.jsonl');
    // The client writes 4 MiB of bytes (a fixed pseudo-random pattern), reads back as many, and
    // exits 0 only if they came back unchanged. More than the tap's 1 MiB backlog limit, so the
    // tap may pause and resume a side on the way.
    const client = [
      "const n = 4 * 1024 * 1024; const out = Buffer.alloc(n); let x = 7;",
      "for (let i = 0; i < n; i++) { x = (x * 1103515245 + 12345) & 0x7fffffff; out[i] = x >> 16; }",
      "const back = []; let got = 0;",
      "process.stdin.on('data', (c) => { back.push(c); got += c.length; if (got >= n) process.exit(Buffer.concat(back).equals(out) ? 0 : 1); });",
      "process.stdout.write(out);",
    ].join(' ');
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--between', `'${process.execPath}' -e "${client}"`, '--', 'cat']);
    expect((await tap.exit(30_000)).code).toBe(0);
    const trace = readTrace(file);
    const c2s = bytesOf(trace.events, 'c2s');
    expect(c2s.length).toBe(4 * 1024 * 1024);
    expect(bytesOf(trace.events, 's2c').equals(c2s)).toBe(true);
    // The recorded bytes are the client's pattern (its first byte, recomputed here), not anything else.
    let x = 7;
    const first = ((x = (x * 1103515245 + 12345) & 0x7fffffff), x >> 16) & 0xff;
    expect(c2s[0]).toBe(first);
  });
});

describe('tap --record=FILE --between, stopped', () => {
  it('on SIGTERM passes the signal to both and keeps every byte recorded so far', async () => {
    const file = tempFile('between-sigterm.jsonl');
    // A client that sends one request and then waits for ever; the echo server answers it.
    const client = `'${process.execPath}' -e 'process.stdout.write(JSON.stringify(${JSON.stringify(INITIALIZE).replace(/'/g, "'\\''")})+"\\n"); setInterval(() => {}, 1000)'`;
    const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--between', client, '--', process.execPath, builtProgram('echo-server'), '--framing=ndjson']);
    await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toContain('"ev":"s2c"'), { timeout: 10_000 });
    tap.child.kill('SIGTERM');
    const status = await tap.exit(10_000);
    expect(status.code).toBe(128 + 15);
    const events = readTrace(file).events;
    expect(JSON.parse(bytesOf(events, 'c2s').toString('utf8'))).toEqual(INITIALIZE);
    expect(bytesOf(events, 's2c').toString('utf8')).toContain('"id":0,"result"');
    expect(events.filter((e) => e.ev === 'exit')).toEqual(
      expect.arrayContaining([expect.objectContaining({ proc: 'client', signal: 'SIGTERM' }), expect.objectContaining({ ev: 'exit' })]),
    );
    expect(events.filter((e) => e.ev === 'exit')).toHaveLength(2);
  });

  // The stdio shutdown once the client has gone: the server's stdin closed, then SIGTERM, then
  // SIGKILL, each after SHUTDOWN_GRACE_MS; the server's exit event names the step it ended after.
  describe.each([
    ['eof', "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));", { code: 0, signal: null }],
    ['SIGTERM', 'process.stdin.resume(); setInterval(() => {}, 1000);', { code: null, signal: 'SIGTERM' }],
    ['SIGKILL', "process.stdin.resume(); process.on('SIGTERM', () => {}); setInterval(() => {}, 1000);", { code: null, signal: 'SIGKILL' }],
  ] as const)('a server that ends at the %s step', (step, serverCode, exit) => {
    it(`records shutdown: '${step}' on its exit, and the client's exit without one`, async () => {
      const file = tempFile(`between-${step}.jsonl`);
      const serverScript = tempFile(`server-${step}.cjs`);
      writeFileSync(serverScript, serverCode);
      const client = `'${process.execPath}' -e 'process.exit(0)'`;
      const tap = startNode(builtProgram('tap'), [`--record=${file}`, '--between', client, '--', process.execPath, serverScript]);
      const status = await tap.exit(4 * SHUTDOWN_GRACE_MS + 60_000);
      expect(status.code).toBe(0);
      const exits = readTrace(file).events.filter((e) => e.ev === 'exit');
      expect(exits).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ proc: 'client', code: 0 }),
          expect.objectContaining({ ...exit, shutdown: step }),
        ]),
      );
      expect(exits.find((e) => 'proc' in e && e.proc === 'client')).not.toHaveProperty('shutdown');
    }, 4 * SHUTDOWN_GRACE_MS + 120_000);
  });
});

describe('tap --record=FILE --listen --target=URL: a Streamable HTTP session through the relay', () => {
  async function startTarget(): Promise<{ program: RunningProgram; url: string }> {
    const program = new RunningProgram(process.execPath, ['--import', 'tsx', MCP_HTTP]);
    await program.waitFor(() => program.stdout.includes('\n'), 'mcp-http to print its URL', 15_000);
    return { program, url: program.stdout.toString().trim() };
  }

  async function startRelay(file: string, target: string): Promise<{ program: RunningProgram; url: string }> {
    const program = startNode(builtProgram('tap'), [`--record=${file}`, '--listen', `--target=${target}`]);
    await program.waitFor(() => program.stdout.includes('\n'), 'the relay to print its URL');
    return { program, url: program.stdout.toString().trim() };
  }

  it('records each TCP connection\'s exact bytes, and the project client\'s session works through it', async () => {
    const target = await startTarget();
    const file = tempFile('http.jsonl');
    const relay = await startRelay(file, target.url);
    expect(relay.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(relay.url).not.toBe(target.url);

    // 1. Bytes we write by hand on a raw socket: the trace must hold them exactly, and the reply.
    const body = JSON.stringify(INITIALIZE);
    const { port } = new URL(relay.url);
    const request = Buffer.from(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    const received = await new Promise<Buffer>((resolveReply, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => resolveReply(Buffer.concat(chunks)));
      socket.on('error', reject);
      socket.end(request);
    });
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 200 /);

    // 2. A whole session with the project's own client over fetch: handshake, list, call.
    const transport = new HttpClientTransport({ url: relay.url, exchange: fetchExchange });
    const client = new McpClient(transport, { framing: HTTP_CLIENT_FRAMING, clientInfo: { name: 'relay-test', version: '1' } });
    await client.connect();
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    const result = await client.callTool('echo', { text: 'through the relay 你好' });
    expect(JSON.stringify(result)).toContain('through the relay 你好');
    await client.close();

    relay.program.child.kill('SIGINT');
    expect((await relay.program.exit()).code).toBe(0);

    const trace = readTrace(file);
    expect(trace.header).toMatchObject({ mode: 'http', framing: 'http', target: target.url, listen: relay.url.replace(/\/mcp$/, '') });
    // Connection 1 is the raw socket: exactly our bytes one way, exactly what we received the other.
    expect(bytesOf(trace.events, 'c2s', 1).equals(request)).toBe(true);
    expect(bytesOf(trace.events, 's2c', 1).equals(received)).toBe(true);
    expect(trace.events.find((e) => e.ev === 'close' && e.conn === 1)).toMatchObject({ by: 'client' });
    // The session's requests are all in the trace, as HTTP requests on some connection.
    const conns = [...new Set(trace.events.flatMap((e) => (e.ev === 'open' ? [e.conn] : [])))];
    expect(conns.length).toBeGreaterThan(1);
    const allRequests = conns.map((conn) => bytesOf(trace.events, 'c2s', conn).toString('utf8')).join('');
    for (const method of ['"initialize"', 'notifications/initialized', 'tools/list', 'tools/call']) expect(allRequests).toContain(method);
    for (const conn of conns) {
      const requestText = bytesOf(trace.events, 'c2s', conn).toString('latin1');
      if (requestText !== '') expect(requestText).toMatch(/^(POST|GET|DELETE) \/mcp HTTP\/1\.1\r\n/);
    }
    expect(conns.map((conn) => bytesOf(trace.events, 's2c', conn).toString('utf8')).join('')).toContain('through the relay 你好');
    expect(await pageOpens(file)).toEqual({ done: true, events: trace.events.length, failed: null });
    // The page reads the recording as HTTP: the JSON-RPC messages each connection's bodies and event streams carried.
    const decoder = new TraceLogDecoder(trace.header);
    const messages = trace.events.flatMap((event) => {
      const entry = decoder.decode(event);
      return entry?.type === 'bytes' ? entry.frames.map((frame) => (frame.type === 'message' ? `${entry.direction} ${frame.kind} ${frame.method ?? ''} ${String(frame.id)}` : `${entry.direction} ${frame.kind}`)) : [];
    });
    expect(messages).toEqual([
      // Connection 1: the raw socket's initialize; then the client's session, one request per connection.
      'c2s request initialize 0',
      's2c response initialize 0',
      'c2s request initialize 0',
      's2c response initialize 0',
      'c2s notification notifications/initialized null',
      'c2s request tools/list 1',
      's2c response tools/list 1',
      'c2s request tools/call 2',
      's2c response tools/call 2',
    ]);
  });

  it('keeps a connection still open at Ctrl-C: its bytes, an error saying so, and its close', async () => {
    const target = await startTarget();
    const file = tempFile('open-at-stop.jsonl');
    const relay = await startRelay(file, target.url);
    const { port } = new URL(relay.url);
    const partial = Buffer.from(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Length: 100\r\n\r\n{"json`);
    const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
    socket.on('error', () => {});
    socket.write(partial);
    // The relay has read the bytes once the file shows them (it flushes each event-loop turn).
    await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toContain('"ev":"c2s"'), { timeout: 5_000 });
    relay.program.child.kill('SIGINT');
    expect((await relay.program.exit()).code).toBe(0);
    socket.destroy();
    const events = readTrace(file).events;
    expect(bytesOf(events, 'c2s', 1).equals(partial)).toBe(true);
    expect(events.slice(-2)).toEqual([
      expect.objectContaining({ ev: 'error', conn: 1, message: 'the relay stopped with this connection open' }),
      expect.objectContaining({ ev: 'close', conn: 1 }),
    ]);
  });

  it('refuses a request whose Host is not loopback (DNS rebinding): the relay answers 403, the server sees nothing', async () => {
    // The target is a bare TCP listener that keeps every byte it is sent.
    const seenByTarget: Buffer[] = [];
    const target = createServer((socket) => socket.on('data', (chunk: Buffer) => seenByTarget.push(chunk)));
    await new Promise<void>((resolveListen) => target.listen(0, '127.0.0.1', resolveListen));
    const targetPort = (target.address() as AddressInfo).port;
    const file = tempFile('rebinding.jsonl');
    const relay = await startRelay(file, `http://127.0.0.1:${targetPort}/mcp`);
    const { port } = new URL(relay.url);
    const body = JSON.stringify(INITIALIZE);
    const request = Buffer.from(`POST /mcp HTTP/1.1\r\nHost: evil.example:${port}\r\nOrigin: http://evil.example:${port}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const received = await new Promise<Buffer>((resolveReply, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port: Number(port) });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk) => chunks.push(chunk));
      socket.on('end', () => {
        socket.end();
        resolveReply(Buffer.concat(chunks));
      });
      socket.on('error', reject);
      socket.write(request);
    });
    expect(received.toString('latin1')).toMatch(/^HTTP\/1\.1 403 Forbidden\r\n[\s\S]*Host "evil\.example:\d+" is not a loopback name/);
    relay.program.child.kill('SIGINT');
    await relay.program.exit();
    const events = readTrace(file).events;
    expect(bytesOf(events, 'c2s', 1).equals(request)).toBe(true);
    expect(bytesOf(events, 's2c', 1).length).toBe(0);
    expect(events.find((e) => e.ev === 'error')).toMatchObject({ conn: 1, message: expect.stringContaining('refused by the relay (403)') });
    expect(Buffer.concat(seenByTarget).length).toBe(0);
    target.close();
  });

  it('records a refused connection to a target that is not there as an error on that connection', async () => {
    // Port 1 on loopback: nothing listens there (and nothing may, without root).
    const file = tempFile('refused.jsonl');
    const relay = await startRelay(file, 'http://127.0.0.1:1/mcp');
    const response = await fetch(relay.url, { method: 'POST', body: '{}' }).then(
      () => 'answered',
      () => 'failed',
    );
    expect(response).toBe('failed');
    relay.program.child.kill('SIGTERM');
    await relay.program.exit();
    const events = readTrace(file).events;
    expect(events.find((e) => e.ev === 'error')).toMatchObject({ conn: 1, message: expect.stringContaining('ECONNREFUSED') });
    expect(events.at(-1)).toMatchObject({ ev: 'close', conn: 1 });
  });
});
