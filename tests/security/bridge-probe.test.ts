// The probe of issue 12, replayed against `npm start` (startServer on a loopback port, serving a
// tiny fake dist with the real Node programs): who may connect (Origin and token forms), who gets
// the token (Host header variants), what may be started (program and argument injection), what may
// be read (traversal, dotfiles), what the server answers to broken, oversized, flooding, half-open
// and slow clients, and that every answer, errors and refusals included, carries the isolation
// headers. Each case asserts the refusal and that no process is left. Loopback only; every flood
// is bounded in count and time.

import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildNodePrograms } from '../../scripts/build-node-programs.ts';
import { EVERY_RESPONSE_HEADERS, PAGE_HEADERS } from '../../server/security-headers.ts';
import { startServer, type RunningServer } from '../../server/start.ts';
import { getFraming } from '../../src/protocol/framing/index.ts';
import { childPids, closeOf, collectMessages, isAlive, openSocket, startTestBridge, tryUpgrade, waitUntil, WsTapTransport, type TestBridge } from '../integration/ws-tap-transport.ts';

const ECHO_NDJSON = { type: 'start', program: 'echo-server', framing: 'ndjson', faults: [] };

let dist: string;
let server: RunningServer;
let bridges: TestBridge[] = [];
const sockets: Array<WebSocket | Socket> = [];

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'mcp-probe-dist-'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'assets', 'app.js'), 'export {};\n');
  mkdirSync(join(dist, '.git'));
  writeFileSync(join(dist, '.git', 'config'), '[core]\n');
  writeFileSync(join(dist, '.env'), 'SECRET=1\n');
  writeFileSync(join(dist, 'assets', '.secret'), 'hidden\n');
  symlinkSync('/etc/passwd', join(dist, 'passwd.txt'));
  await buildNodePrograms(join(dist, 'generated'));
  server = await startServer({ port: 0, distDir: dist, skipBuild: true, log: () => {}, httpTimeouts: { headersMs: 300, requestMs: 600, checkIntervalMs: 100 } });
});

afterAll(async () => {
  await server?.close();
  rmSync(dist, { recursive: true, force: true });
});

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket instanceof WebSocket ? socket.terminate() : socket.destroy();
  await Promise.all(bridges.map((b) => b.close()));
  for (const b of bridges) expect(b.bridge.activeProcesses).toBe(0);
  bridges = [];
  await waitUntil(() => server.bridge.activeProcesses === 0, 5_000, 'every probe process to be gone');
});

async function newBridge(options: { maxTotal?: number; startTimeoutMs?: number } = {}): Promise<TestBridge> {
  const b = await startTestBridge({ programsDir: join(dist, 'generated'), ...options });
  bridges.push(b);
  return b;
}

async function startTransport(b: TestBridge, start: Record<string, unknown>): Promise<WsTapTransport> {
  const transport = await WsTapTransport.start(b.url, b.origin, start);
  sockets.push(transport.socket);
  return transport;
}

/** One raw HTTP exchange on loopback: what we write, what the server answers (until it closes). */
function raw(text: string | Buffer, timeoutMs = 5_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(server.port, '127.0.0.1');
    sockets.push(socket);
    let answer = '';
    const timer = setTimeout(() => reject(new Error(`no close within ${timeoutMs} ms; got ${answer.slice(0, 200)}`)), timeoutMs);
    socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(answer);
    });
    socket.write(text);
  });
}

function headersOf(answer: string): Record<string, string> {
  const head = answer.split('\r\n\r\n', 1)[0] ?? '';
  return Object.fromEntries(
    head
      .split('\r\n')
      .slice(1)
      .map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
  );
}

// The isolation headers, and no Referer and the Permissions-Policy: on every response, errors too.
function expectIsolated(headers: Record<string, string | string[] | undefined>): void {
  for (const [name, value] of Object.entries(EVERY_RESPONSE_HEADERS)) expect(headers[name.toLowerCase()], name).toBe(value);
}

function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const wsUrl = (token: string) => `ws://127.0.0.1:${server.port}/bridge?token=${token}`;
const ownOrigin = () => `http://127.0.0.1:${server.port}`;

describe('who may connect: Origin and token forms', () => {
  const origins: Array<[string, (port: number) => string | undefined, string]> = [
    ['no Origin', () => undefined, 'missing Origin'],
    ['Origin null (a sandboxed frame, a file)', () => 'null', 'origin not allowed'],
    ['another site', () => 'http://evil.example', 'origin not allowed'],
    ['our host and port as a subdomain of another site', (port) => `http://127.0.0.1:${port}.evil.example`, 'origin not allowed'],
    ['another local port', (port) => `http://127.0.0.1:${port + 1}`, 'origin not allowed'],
    ['https instead of http', (port) => `https://127.0.0.1:${port}`, 'origin not allowed'],
    ['a trailing slash', (port) => `http://127.0.0.1:${port}/`, 'origin not allowed'],
    ['a trailing dot in the host', (port) => `http://localhost.:${port}`, 'origin not allowed'],
    ['a LAN address of this machine', (port) => `http://192.168.1.10:${port}`, 'origin not allowed'],
  ];

  it.each(origins)('refuses %s with 403 before upgrading', async (_name, origin, reason) => {
    const outcome = await tryUpgrade(wsUrl(server.token), origin(server.port));
    expect(outcome).toMatchObject({ kind: 'rejected', status: 403 });
    if (outcome.kind === 'rejected') expect(outcome.body).toContain(reason);
    expect(server.bridge.activeProcesses).toBe(0);
  });

  const tokens: Array<[string, (token: string) => string, string]> = [
    ['no token', () => '', 'missing token'],
    ['an empty token', () => '?token=', 'missing token'],
    ['a wrong token of the same length', (token) => `?token=${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`, 'wrong token'],
    ['a prefix of the token', (token) => `?token=${token.slice(0, 8)}`, 'wrong token'],
    ['the token with more after it', (token) => `?token=${token}A`, 'wrong token'],
    ['the token in another case', (token) => `?token=${token.toUpperCase() === token ? token.toLowerCase() : token.toUpperCase()}`, 'wrong token'],
    ['a wrong token before the right one', (token) => `?token=wrong&token=${token}`, 'wrong token'],
    ['the token under another name', (token) => `?t=${token}`, 'missing token'],
  ];

  it.each(tokens)('refuses %s with 403 before upgrading', async (_name, query, reason) => {
    const outcome = await tryUpgrade(`ws://127.0.0.1:${server.port}/bridge${query(server.token)}`, ownOrigin());
    expect(outcome).toMatchObject({ kind: 'rejected', status: 403 });
    if (outcome.kind === 'rejected') expect(outcome.body).toContain(reason);
  });

  it('refuses an upgrade on any other path with 404', async () => {
    for (const path of [`/bridge/${server.token}`, `/bridge/?token=${server.token}`, `/BRIDGE?token=${server.token}`, `/ws?token=${server.token}`]) {
      expect(await tryUpgrade(`ws://127.0.0.1:${server.port}${path}`, ownOrigin()), path).toMatchObject({ kind: 'rejected', status: 404 });
    }
  });

  it('answers every refused upgrade with the isolation headers', async () => {
    const upgrade = (path: string, origin: string) =>
      raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nOrigin: ${origin}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n`);
    for (const [path, origin, status] of [
      [`/bridge?token=${server.token}`, 'http://evil.example', '403'],
      ['/bridge?token=wrong', ownOrigin(), '403'],
      ['/elsewhere', ownOrigin(), '404'],
    ] as const) {
      const answer = await upgrade(path, origin);
      expect(answer.startsWith(`HTTP/1.1 ${status} `), answer).toBe(true);
      expectIsolated(headersOf(answer));
    }
  });

  it('lets the page in: our origin with the right token (the control)', async () => {
    const transport = await WsTapTransport.start(wsUrl(server.token), ownOrigin(), ECHO_NDJSON);
    sockets.push(transport.socket);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    transport.close();
  });
});

describe('who gets the token: Host header variants', () => {
  const page = (host: string | null) => raw(`GET / HTTP/1.1\r\n${host === null ? '' : `Host: ${host}\r\n`}Connection: close\r\n\r\n`);
  // The page's own request for the token (src/runtime/bridge-token.ts), under each Host.
  const tokenAnswer = (host: string | null, version = '1.1') =>
    raw(`GET /__bridge/token HTTP/${version}\r\n${host === null ? '' : `Host: ${host}\r\n`}X-MCP-Bridge-Token-Request: 1\r\nConnection: close\r\n\r\n`);

  it.each([
    ['127.0.0.1:PORT', true],
    ['localhost:PORT', true],
    ['[::1]:PORT', true],
    ['evil.example', false],
    ['evil.example:PORT', false],
    ['127.0.0.1.nip.io:PORT', false],
    ['127.0.0.1:OTHER', false],
    ['LOCALHOST:PORT', false],
    ['127.0.0.1:PORT@evil.example', false],
    ['', false],
  ])('Host %s: token %s', async (host, gets) => {
    const hostHeader = host.replace('OTHER', String(server.port + 1)).replace('PORT', String(server.port));
    const answer = await page(hostHeader);
    const headers = headersOf(answer);
    // The page itself never carries the token any more, whoever asks.
    expect(answer).not.toContain(server.token);
    const tokenReply = await tokenAnswer(hostHeader);
    expect(tokenReply.includes(server.token)).toBe(gets);
    expect(tokenReply.startsWith('HTTP/1.1 200')).toBe(gets);
    expect(headersOf(tokenReply)['cache-control']).toBe('no-store');
    // Every variant gets the page headers: no framing, the CSP.
    if (answer.startsWith('HTTP/1.1 200')) for (const [name, value] of Object.entries(PAGE_HEADERS)) expect(headers[name.toLowerCase()]).toBe(value);
    expectIsolated(headers);
  });

  it('no Host at all (HTTP/1.0): no token', async () => {
    const answer = await raw('GET / HTTP/1.0\r\n\r\n');
    expect(answer).not.toContain(server.token);
    expectIsolated(headersOf(answer));
    const tokenReply = await tokenAnswer(null, '1.0');
    expect(tokenReply).not.toContain(server.token);
    expectIsolated(headersOf(tokenReply));
  });

  it.each([
    ['no request header (a plain link, <img>, <script>)', ''],
    ['another site (Sec-Fetch-Site cross-site)', 'Sec-Fetch-Site: cross-site\r\n'],
    ['a sandboxed, opaque-origin context (Origin null)', 'Origin: null\r\n'],
    ['another origin', 'Origin: http://evil.example\r\n'],
    ['a frame or script load (Sec-Fetch-Dest iframe)', 'Sec-Fetch-Dest: iframe\r\n'],
  ])('the token endpoint refuses %s', async (_name, extra) => {
    const header = extra === '' ? '' : `X-MCP-Bridge-Token-Request: 1\r\n${extra}`;
    const answer = await raw(`GET /__bridge/token HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\n${header}Connection: close\r\n\r\n`);
    expect(answer.startsWith('HTTP/1.1 403')).toBe(true);
    expect(answer).not.toContain(server.token);
  });
});

describe('what may be read: traversal and dotfiles', () => {
  it.each([
    '/../../../../etc/passwd',
    '/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    '/..%2f..%2f..%2fetc%2fpasswd',
    '/assets/..%5c..%5c..%5cetc%5cpasswd',
    '/%2e%2e%5c%2e%2e%5cetc%5cpasswd',
    '/passwd.txt',
    '/.env',
    '/.git/config',
    '/assets/.secret',
    '/%2eenv',
    '/assets/%2e%2e/.env',
    '/%00',
    '/%zz',
  ])('%s is refused', async (path) => {
    const answer = await raw(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nConnection: close\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d /);
    expect(answer).not.toMatch(/root:|SECRET=|\[core\]|hidden/);
    expectIsolated(headersOf(answer));
  });
});

describe('broken, oversized, slow and half-open clients', () => {
  it("Node's own 400 for a request it cannot parse carries the isolation headers", async () => {
    const answer = await raw('NOT HTTP AT ALL\r\n\r\n');
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expectIsolated(headersOf(answer));
  });

  it("Node's own 431 for oversized headers carries the isolation headers", async () => {
    const answer = await raw(`GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expectIsolated(headersOf(answer));
  });

  it('slowloris: 20 clients that never finish their headers get a 408 with the isolation headers and are closed; the page is served meanwhile', async () => {
    const slow = Array.from({ length: 20 }, () => raw(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${server.port}\r\nX-Slow: 1\r\n`, 5_000));
    const meanwhile = await get('/');
    expect(meanwhile.status).toBe(200);
    const answers = await Promise.all(slow);
    for (const answer of answers) {
      expect(answer).toMatch(/^HTTP\/1\.1 408 /);
      expectIsolated(headersOf(answer));
    }
  });

  it('half-open: 20 clients that connect and send nothing are closed', async () => {
    const silent = Array.from({ length: 20 }, () => raw('', 5_000));
    expect((await get('/')).status).toBe(200);
    await Promise.all(silent);
  });

  it('a WebSocket message over 16 MiB ends the connection (1009) and its server', async () => {
    const transport = await WsTapTransport.start(wsUrl(server.token), ownOrigin(), ECHO_NDJSON);
    sockets.push(transport.socket);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const pid = transport.serverPid as number;
    transport.socket.send('x'.repeat(17 * 1024 * 1024));
    expect(await transport.closed).toBe(1009);
    await waitUntil(() => !isAlive(pid), 5_000, 'the server to be gone');
  });

  it('a flood of 5000 junk commands is dropped; the server still answers and nothing else starts', async () => {
    const transport = await WsTapTransport.start(wsUrl(server.token), ownOrigin(), ECHO_NDJSON);
    sockets.push(transport.socket);
    await transport.waitForEvent((event) => event.ev === 'spawn');
    const before = childPids();
    for (let i = 0; i < 5000; i++) transport.socket.send(i % 2 === 0 ? '{"cmd":"exec","line":"id"}' : JSON.stringify({ ...ECHO_NDJSON, program: 'sh' }));
    const replies: Buffer[] = [];
    transport.onData((chunk) => replies.push(Buffer.from(chunk)));
    transport.write(getFraming('ndjson').encode({ jsonrpc: '2.0', id: 1, method: 'ping' }));
    await waitUntil(() => Buffer.concat(replies).toString().includes('"id":1'), 10_000, 'the ping reply');
    expect(childPids()).toEqual(before);
    expect(server.bridge.activeProcesses).toBe(1);
    transport.close();
  });
});

describe('what may be started: program and argument injection', () => {
  const marker = `/tmp/mcp-bridge-pwned-${process.pid}`;
  const refusedStarts: Array<[string, string]> = [
    ['a program outside the set', JSON.stringify({ type: 'start', program: 'cat', framing: 'ndjson', faults: [] })],
    ['a path as program', JSON.stringify({ type: 'start', program: '/bin/sh', framing: 'ndjson', faults: [] })],
    ['a relative path as program', JSON.stringify({ type: 'start', program: '../../echo-server', framing: 'ndjson', faults: [] })],
    ['a program with shell metacharacters', JSON.stringify({ type: 'start', program: `echo-server; touch ${marker}`, framing: 'ndjson', faults: [] })],
    ['a framing outside the set', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'xml', faults: [] })],
    ['a framing with shell metacharacters', JSON.stringify({ type: 'start', program: 'echo-server', framing: `ndjson $(touch ${marker})`, faults: [] })],
    ['a fault outside the set', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['rm -rf /'] })],
    ['faults that are not a list', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: 'stdout-log' })],
    ['a fault listed twice', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['stdout-log', 'stdout-log'] })],
    ['a framing-only fault with the other framing', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: ['char-length'] })],
    ['faults for sdk-echo-server', JSON.stringify({ type: 'start', program: 'sdk-echo-server', framing: 'ndjson', faults: ['stdout-log'] })],
    ['content-length for sdk-echo-server', JSON.stringify({ type: 'start', program: 'sdk-echo-server', framing: 'content-length', faults: [] })],
    ['an era outside the set', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: [], era: 'ancient' })],
    ['an era with shell metacharacters', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: [], era: `legacy; touch ${marker}` })],
    ['an era smuggling another option', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: [], era: 'legacy --fault=stdout-log' })],
    ['a legacy era for sdk2-echo-server (it has no legacy-only mode)', JSON.stringify({ type: 'start', program: 'sdk2-echo-server', framing: 'ndjson', faults: [], era: 'legacy' })],
    ['faults for sdk2-echo-server', JSON.stringify({ type: 'start', program: 'sdk2-echo-server', framing: 'ndjson', faults: ['stdout-log'] })],
    ['an era for sdk-echo-server', JSON.stringify({ type: 'start', program: 'sdk-echo-server', framing: 'ndjson', faults: [], era: 'legacy' })],
    ['a tool set outside the set', JSON.stringify({ type: 'start', program: 'mcp-http', framing: 'ndjson', faults: [], tools: 'everything' })],
    ['a tool set smuggling another option', JSON.stringify({ type: 'start', program: 'mcp-http', framing: 'ndjson', faults: [], tools: 'features --port=22' })],
    ['a tool set with shell metacharacters', JSON.stringify({ type: 'start', program: 'mcp-http', framing: 'ndjson', faults: [], tools: `features; touch ${marker}` })],
    ['a tool set for the stdio echo server', JSON.stringify({ type: 'start', program: 'echo-server', framing: 'ndjson', faults: [], tools: 'features' })],
    ['extra fields with shell metacharacters', JSON.stringify({ ...ECHO_NDJSON, args: [`; touch ${marker}`], cwd: '/', env: { X: '`id`' } })],
    ['a start of the wrong type', JSON.stringify({ type: 'run', program: 'echo-server', framing: 'ndjson' })],
    ['a tap command instead of a start', JSON.stringify({ cmd: 'write', b64: '' })],
    ['text that is not JSON', 'start echo-server'],
    ['a JSON array', JSON.stringify([ECHO_NDJSON])],
  ];

  it.each(refusedStarts)('refuses %s, spawning nothing', async (_name, message) => {
    const b = await newBridge();
    const before = childPids();
    const socket = await openSocket(b.url, b.origin);
    sockets.push(socket);
    const messages = collectMessages(socket);
    const closed = closeOf(socket);
    socket.send(message);
    const { code } = await closed;
    expect(code).toBe(1008);
    expect(messages).toHaveLength(1);
    expect(JSON.parse(messages[0] as string)).toMatchObject({ type: 'refused', reason: expect.any(String) });
    expect(b.bridge.activeProcesses).toBe(0);
    expect(childPids().filter((pid) => !before.includes(pid))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
  });

  it('refuses a binary start message', async () => {
    const b = await newBridge();
    const socket = await openSocket(b.url, b.origin);
    sockets.push(socket);
    const messages = collectMessages(socket);
    const closed = closeOf(socket);
    socket.send(Buffer.from(JSON.stringify(ECHO_NDJSON)));
    expect((await closed).code).toBe(1008);
    expect(messages[0]).toContain('refused');
  });

  it('refuses a connection that sends no start in time', async () => {
    const b = await newBridge({ startTimeoutMs: 200 });
    const socket = await openSocket(b.url, b.origin);
    sockets.push(socket);
    const messages = collectMessages(socket);
    expect((await closeOf(socket)).code).toBe(1008);
    expect(messages[0]).toContain('no start message');
  });

  it('refuses a second start on the same connection and keeps one process', async () => {
    const b = await newBridge();
    const transport = await startTransport(b, ECHO_NDJSON);
    const messages = collectMessages(transport.socket);
    transport.socket.send(JSON.stringify({ ...ECHO_NDJSON, framing: 'content-length' }));
    await waitUntil(() => messages.some((m) => m.includes('"refused"')), 3_000, 'the refusal');
    expect(messages.find((m) => m.includes('"refused"'))).toContain('one process per connection');
    expect(b.bridge.activeProcesses).toBe(1);
    expect(transport.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('enforces the total cap, and frees a slot when a connection ends', async () => {
    const b = await newBridge({ maxTotal: 2 });
    const first = await startTransport(b, ECHO_NDJSON);
    await startTransport(b, ECHO_NDJSON);
    await expect(startTransport(b, ECHO_NDJSON)).rejects.toThrow(/limit \(2\)/);
    expect(b.bridge.activeProcesses).toBe(2);
    first.close();
    await waitUntil(() => b.bridge.activeProcesses === 1, 5_000, 'a slot to free');
    await startTransport(b, ECHO_NDJSON);
    expect(b.bridge.activeProcesses).toBe(2);
  });

  it('says so when the programs were never built', async () => {
    const b = await startTestBridge({ programsDir: '/nonexistent-programs' });
    bridges.push(b);
    await expect(startTransport(b, ECHO_NDJSON)).rejects.toThrow(/build the Node programs/);
  });
});
