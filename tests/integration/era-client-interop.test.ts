// The project's dual-era client (src/protocol/era/dual-era-client.ts) against servers nobody here
// wrote, over real pipes and sockets:
//   * SDK 2.4.0 (@modelcontextprotocol/server) in modern mode — serveStdio and createMcpHandler with
//     `legacy: 'reject'`: the probe finds 2026-07-28, the client stays modern (list, call, an error,
//     an MRTR round), -32022 is retried with a mutual version, the era cache skips the probe;
//   * SDK 1.32.2 (@modelcontextprotocol/sdk) — the built sdk-echo-server on stdio, and
//     StreamableHTTPServerTransport over HTTP: the probe gets a non-modern error and the client
//     falls back to the handshake; pinned to 2026-07-28 it refuses instead.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer as Sdk1McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpRpcError } from '../../src/protocol/client-errors.ts';
import type { JsonRpcRequest } from '../../src/protocol/jsonrpc.ts';
import { DualEraClient, type DualEraClientOptions, type DualEraEvent } from '../../src/protocol/era/dual-era-client.ts';
import { MemoryEraCache } from '../../src/protocol/era/era-cache.ts';
import { EraNegotiationError } from '../../src/protocol/era/era-errors.ts';
import { META_CLIENT_CAPABILITIES, META_CLIENT_INFO, META_PROTOCOL_VERSION } from '../../src/protocol/era/meta.ts';
import { HttpClientTransport } from '../../src/protocol/http/client-transport.ts';
import { ModernHttpClientTransport } from '../../src/protocol/http/modern-client-transport.ts';
import { fetchExchange } from '../../server/fetch-exchange.ts';
import { PROJECT_ROOT } from '../../tools/project-root.ts';
import { builtProgram, ChildTransport, killAllPrograms, RunningProgram } from './child-transport.ts';

const GREETING = '你好，世界 👋';
const SDK2_FIXTURE = join(PROJECT_ROOT, 'tests', 'fixtures', 'sdk2-era-server.ts');

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  await killAllPrograms();
});

function startSdk2(mode: 'stdio' | 'http', legacy: string): RunningProgram {
  return new RunningProgram(process.execPath, ['--import', 'tsx', SDK2_FIXTURE, mode, `--legacy=${legacy}`]);
}

/** A stdio client on a spawned server, with every event kept. */
function stdioClient(program: RunningProgram, options: DualEraClientOptions = {}) {
  const client = new DualEraClient({ kind: 'stdio', transport: new ChildTransport(program.child), framing: 'ndjson' }, { inputHandlers: { 'elicitation/create': () => ({ action: 'accept', content: { confirm: true } }) }, ...options });
  const events: DualEraEvent[] = [];
  client.on((event) => events.push(event));
  cleanups.push(() => client.close());
  return { client, events };
}

function httpClient(url: string, options: DualEraClientOptions = {}) {
  const client = new DualEraClient(
    { kind: 'http', modern: new ModernHttpClientTransport({ url, exchange: fetchExchange }), legacy: () => new HttpClientTransport({ url, exchange: fetchExchange, listen: false }) },
    { inputHandlers: { 'elicitation/create': () => ({ action: 'accept', content: { confirm: true } }) }, ...options },
  );
  const events: DualEraEvent[] = [];
  client.on((event) => events.push(event));
  cleanups.push(() => client.close());
  return { client, events };
}

const sentRequests = (events: DualEraEvent[]): JsonRpcRequest[] =>
  events.flatMap((event) => (event.type === 'sent' && 'id' in event.message && 'method' in event.message ? [event.message as JsonRpcRequest] : []));

/** What a modern client must show on any server: list, call, a tool error, a protocol error, an MRTR round. */
async function exerciseModernServer(client: DualEraClient, events: DualEraEvent[]): Promise<void> {
  expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(['confirm', 'echo', 'fail']);
  expect(await client.callTool('echo', { text: GREETING })).toMatchObject({ content: [{ type: 'text', text: GREETING }] });
  expect(await client.callTool('fail', {})).toMatchObject({ isError: true });
  await expect(client.request('no/such/method')).rejects.toBeInstanceOf(McpRpcError);

  const before = sentRequests(events).length;
  expect(await client.callTool('confirm', { action: 'deploy' })).toMatchObject({ content: [{ type: 'text', text: 'deploy: done' }] });
  const rounds = sentRequests(events).slice(before).filter((request) => request.method === 'tools/call');
  expect(rounds).toHaveLength(2);
  expect(rounds[0]!.id).not.toEqual(rounds[1]!.id);
  expect(rounds[1]!.params).toMatchObject({ name: 'confirm', requestState: 'asked:deploy', inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
  expect(rounds[0]!.params).not.toHaveProperty('requestState');

  // The envelope on every request the client sent, the probe included.
  for (const request of sentRequests(events)) {
    expect(request.params, request.method).toMatchObject({ _meta: { [META_PROTOCOL_VERSION]: '2026-07-28', [META_CLIENT_CAPABILITIES]: { elicitation: {} }, [META_CLIENT_INFO]: { name: expect.any(String) } } });
  }
  expect(client.serverInfo?.name).toBe('sdk2-era-server');
}

describe('the dual-era client against an SDK 2.4.0 server in modern mode', () => {
  it('stdio: the probe finds 2026-07-28, then list, call, an error and an MRTR round', async () => {
    const program = startSdk2('stdio', 'reject');
    const { client, events } = stdioClient(program);
    expect(await client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'sdk2-era-server' } });
    expect(sentRequests(events)[0]!.method).toBe('server/discover');
    await exerciseModernServer(client, events);
  });

  it('stdio: pinned to 2026-07-28 it is modern at once; the handshake alone is refused by this server', async () => {
    const pinned = stdioClient(startSdk2('stdio', 'reject'), { era: { pin: '2026-07-28' } });
    expect(await pinned.client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });

    const legacy = stdioClient(startSdk2('stdio', 'reject'), { era: 'legacy' });
    const refusal = await legacy.client.connect().catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(McpRpcError);
    expect(sentRequests(legacy.events).map((request) => request.method)).toEqual(['initialize']);
  });

  it('stdio: -32022 names a mutual version and the probe asks again with it', async () => {
    const { client, events } = stdioClient(startSdk2('stdio', 'reject'), { modernVersions: ['2099-01-01', '2026-07-28'] });
    expect(await client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    const probes = events.flatMap((event) => (event.type === 'probe' ? [event] : []));
    expect(probes.map((probe) => [probe.version, probe.verdict.kind])).toEqual([
      ['2099-01-01', 'retry'],
      ['2026-07-28', 'modern'],
    ]);
    expect(probes[0]!.outcome).toMatchObject({ kind: 'error', code: -32022, data: { supported: expect.arrayContaining(['2026-07-28']) } });
  });

  it('stdio: a cached verdict skips the probe; a request refused with -32022 is retried and the cache learns the version', async () => {
    const store = new MemoryEraCache();
    const cache = { store, serverKey: `node ${SDK2_FIXTURE} stdio` };
    store.set(cache.serverKey, { era: 'modern', version: '2099-01-01' });
    const { client, events } = stdioClient(startSdk2('stdio', 'reject'), { cache, modernVersions: ['2099-01-01', '2026-07-28'] });
    expect(await client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2099-01-01' });
    expect(await client.callTool('echo', { text: 'cached' })).toMatchObject({ content: [{ text: 'cached' }] });
    expect(sentRequests(events).map((request) => [request.method, (request.params as { _meta: Record<string, unknown> })._meta[META_PROTOCOL_VERSION]])).toEqual([
      ['tools/call', '2099-01-01'],
      ['tools/call', '2026-07-28'],
    ]);
    expect(store.get(cache.serverKey)).toEqual({ era: 'modern', version: '2026-07-28' });
    expect(client.protocolVersion).toBe('2026-07-28');
  });

  it('stdio, SDK 2.4.0 serving both eras: one input handler answers an MRTR round (auto) and a server request (legacy)', async () => {
    for (const era of ['auto', 'legacy'] as const) {
      const asked: unknown[] = [];
      const client = new DualEraClient(
        { kind: 'stdio', transport: new ChildTransport(startSdk2('stdio', 'serve').child), framing: 'ndjson' },
        { era, inputHandlers: { 'elicitation/create': (params) => (asked.push(params.message), { action: 'accept', content: { confirm: true } }) } },
      );
      cleanups.push(() => client.close());
      expect((await client.connect()).era).toBe(era === 'auto' ? 'modern' : 'legacy');
      expect(await client.callTool('confirm', { action: 'ship' })).toMatchObject({ content: [{ text: 'ship: done' }] });
      expect(asked, era).toEqual(['Really ship?']);
    }
  });

  it('HTTP: the first modern request succeeds, then list, call, an error and an MRTR round', async () => {
    const program = startSdk2('http', 'reject');
    await program.waitFor(() => program.stdout.toString().includes('listening'), 'the SDK 2.4.0 HTTP server', 15_000);
    const url = /listening (\S+)/.exec(program.stdout.toString())![1]!;
    cleanups.push(() => program.end());
    const { client, events } = httpClient(url);
    expect(await client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28' });
    await exerciseModernServer(client, events);
  });
});

describe('the dual-era client against an SDK 1.32.2 server (handshake era)', () => {
  it('stdio: the probe is answered with a non-modern error and the client falls back to initialize on the same pipe', async () => {
    const program = new RunningProgram(process.execPath, [builtProgram('sdk-echo-server')]);
    const { client, events } = stdioClient(program);
    const connected = await client.connect();
    expect(connected).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'sdk-echo-server' } });
    expect(connected.cause).toMatch(/fell back/);
    expect(sentRequests(events).map((request) => request.method)).toEqual(['server/discover', 'initialize']);
    expect(events.find((event) => event.type === 'probe')).toMatchObject({ outcome: { kind: 'error', code: -32601 }, verdict: { kind: 'legacy' } });
    expect(await client.callTool('echo', { text: GREETING })).toMatchObject({ content: [{ type: 'text', text: GREETING }] });
    // Legacy requests carry no envelope: exactly what a 2025 client sends.
    expect(sentRequests(events).at(-1)!.params).not.toHaveProperty('_meta');
  });

  it('stdio: pinned to 2026-07-28 the client refuses instead of falling back', async () => {
    const { client, events } = stdioClient(new RunningProgram(process.execPath, [builtProgram('sdk-echo-server')]), { era: { pin: '2026-07-28' } });
    await expect(client.connect()).rejects.toBeInstanceOf(EraNegotiationError);
    expect(sentRequests(events).map((request) => request.method)).toEqual(['server/discover']);
  });

  it('HTTP: the modern request gets a 400 without a modern error body and the client falls back to the 2025-11-25 transport', async () => {
    const url = await startSdk1Http();
    const { client, events } = httpClient(url);
    const connected = await client.connect();
    expect(connected).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'sdk1-http-server' } });
    expect(events.find((event) => event.type === 'probe')).toMatchObject({ verdict: { kind: 'legacy' } });
    expect(await client.listTools()).toEqual([expect.objectContaining({ name: 'echo' })]);
    expect(await client.callTool('echo', { text: GREETING })).toMatchObject({ content: [{ type: 'text', text: GREETING }] });
  });
});

describe("the dual-era client against the project's own dual-era echo server", () => {
  const greet = { 'elicitation/create': () => ({ action: 'accept', content: { name: 'Ada' } }) };

  it('stdio: auto finds the modern era (with an MRTR round); legacy runs the handshake on the same program', async () => {
    const modern = stdioClient(new RunningProgram(process.execPath, [builtProgram('echo-server'), '--framing=ndjson']), { inputHandlers: greet });
    expect(await modern.client.connect()).toMatchObject({ era: 'modern', protocolVersion: '2026-07-28', serverInfo: { name: 'mcp-echo-server' } });
    expect(await modern.client.callTool('echo', { text: GREETING })).toMatchObject({ content: [{ type: 'text', text: GREETING }] });
    expect(await modern.client.callTool('greet', {})).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });

    const legacy = stdioClient(new RunningProgram(process.execPath, [builtProgram('echo-server'), '--framing=ndjson']), { era: 'legacy' });
    expect(await legacy.client.connect()).toMatchObject({ era: 'legacy', protocolVersion: '2025-11-25', serverInfo: { name: 'mcp-echo-server' } });
    expect(await legacy.client.callTool('add', { a: 2, b: 3 })).toMatchObject({ content: [{ type: 'text', text: '5' }] });
  });

  it('HTTP: one endpoint serves a modern and a legacy client at the same time', async () => {
    const program = new RunningProgram(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'server', 'mcp-http.ts')]);
    await program.waitFor(() => /http:\/\/\S+\/mcp/.test(program.stdout.toString()), 'the echo server over HTTP', 15_000);
    const url = /(http:\/\/\S+\/mcp)/.exec(program.stdout.toString())![1]!;
    const modern = httpClient(url, { inputHandlers: greet });
    const legacy = httpClient(url, { era: 'legacy' });
    const [modernEra, legacyEra] = await Promise.all([modern.client.connect(), legacy.client.connect()]);
    expect([modernEra.era, legacyEra.era]).toEqual(['modern', 'legacy']);
    const [fromModern, fromLegacy, greeted] = await Promise.all([
      modern.client.callTool('echo', { text: 'modern' }),
      legacy.client.callTool('echo', { text: 'legacy' }),
      modern.client.callTool('greet', {}),
    ]);
    expect([fromModern.content, fromLegacy.content, greeted.content]).toEqual([
      [{ type: 'text', text: 'modern' }],
      [{ type: 'text', text: 'legacy' }],
      [{ type: 'text', text: 'Hello, Ada!' }],
    ]);
  });
});

/** An SDK 1.32.2 McpServer on its stateful StreamableHTTPServerTransport, one session per initialize. */
async function startSdk1Http(): Promise<string> {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const id = req.headers['mcp-session-id'];
      let transport = typeof id === 'string' ? transports.get(id) : undefined;
      if (transport === undefined) {
        const server = new Sdk1McpServer({ name: 'sdk1-http-server', version: '1.32.2' });
        server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
        const created = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (session) => void transports.set(session, created) });
        await server.connect(created);
        cleanups.push(() => server.close());
        transport = created;
      }
      await transport.handleRequest(req, res);
    })();
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => {
    http.closeAllConnections();
    http.close(() => resolve());
  }));
  return `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
}
