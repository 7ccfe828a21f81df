// The dual-era echo server against clients nobody here wrote, over real pipes and real sockets:
//   * SDK 2.4.0's Client, in auto mode (server/discover probe, fallback on anything not modern) and
//     pinned to 2026-07-28, over stdio (the built echo-server.mjs) and Streamable HTTP (the dual-era
//     handler behind node:http): discover, list, call, an error, an MRTR round (greet asks for a
//     name with elicitation/create inside an InputRequiredResult; the SDK answers and retries);
//   * SDK 1.32.2's Client (handshake era only) against the same servers: it must still work, and
//     over HTTP at the same time as a modern client on the same endpoint.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttpTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport as LegacyStdioTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createEchoModernServer } from '../../src/protocol/era/echo.ts';
import { createEchoTools, ECHO_SERVER_INFO, ECHO_SERVER_INSTRUCTIONS } from '../../src/protocol/echo-tools.ts';
import { createDualEraHttpHandler } from '../../src/protocol/http/dual-era-handler.ts';
import { createHttpHandler } from '../../src/protocol/http/server-handler.ts';
import type { HttpRequest } from '../../src/protocol/http/types.ts';
import { McpServer } from '../../src/protocol/server.ts';
import { withToolProgress } from '../../src/protocol/tool-progress.ts';
import { nodeListener } from '../../server/http-node-adapter.ts';
import { builtProgram } from './child-transport.ts';

const GREETING = '你好，世界 👋';
const MODES = [
  ['auto', 'auto'],
  ['pinned to 2026-07-28', { pin: '2026-07-28' }],
] as const;

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Our echo endpoint on 127.0.0.1:0 in one era (default both), recording what each POST carried. */
async function startHttpEcho(era: 'dual' | 'legacy' | 'modern' = 'dual'): Promise<{ url: string; seen: { method: string | undefined; session: string | undefined; era: string | undefined }[] }> {
  const createLegacy = () => withToolProgress(new McpServer({ serverInfo: ECHO_SERVER_INFO, instructions: ECHO_SERVER_INSTRUCTIONS, tools: createEchoTools() }));
  const dual = createDualEraHttpHandler({
    createServer: createLegacy,
    modern: createEchoModernServer({ serverInfo: ECHO_SERVER_INFO, instructions: ECHO_SERVER_INSTRUCTIONS, tools: createEchoTools(), supportedVersions: era === 'modern' ? ['2026-07-28'] : undefined }),
    legacy: era === 'modern' ? 'reject' : 'serve',
  });
  // --era=legacy is the handshake-era handler alone, exactly as server/mcp-http.ts builds it.
  const handler = era === 'legacy' ? Object.assign(createHttpHandler({ createServer: createLegacy }), { lastEra: 'legacy' as const }) : dual;
  const seen: { method: string | undefined; session: string | undefined; era: string | undefined }[] = [];
  const recording = {
    async handle(request: HttpRequest) {
      const response = await handler.handle(request);
      if (request.method === 'POST') {
        let method: string | undefined;
        try {
          method = (JSON.parse(new TextDecoder().decode(request.body)) as { method?: string }).method;
        } catch {
          method = undefined;
        }
        seen.push({ method, session: request.headers['mcp-session-id'], era: handler.lastEra });
      }
      return response;
    },
  };
  const server: Server = createServer(nodeListener(recording));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => {
    handler.closeAll();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, seen };
}

function modernClient(mode: 'auto' | { pin: string }) {
  const client = new Client({ name: 'era-interop', version: '1.0.0' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode } });
  const asked: string[] = [];
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(String(request.params.message));
    return { action: 'accept', content: { name: 'Ada' } };
  });
  cleanups.push(() => client.close());
  return { client, asked };
}

/** discover, list, call, an error, an MRTR round: the same walk on every transport. */
async function walkModern(client: Client, asked: string[]) {
  expect(client.getProtocolEra()).toBe('modern');
  const discovered = await client.discover();
  expect(discovered.supportedVersions).toContain('2026-07-28');
  expect(discovered.capabilities.tools).toBeDefined();

  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail', 'greet']);

  const echoed = await client.callTool({ name: 'echo', arguments: { text: GREETING } });
  expect(echoed.content).toEqual([{ type: 'text', text: GREETING }]);

  const failed = await client.callTool({ name: 'fail', arguments: { message: 'on purpose' } });
  expect(failed.isError).toBe(true);
  await expect(client.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toMatchObject({ code: -32602 });

  const greeted = await client.callTool({ name: 'greet', arguments: {} });
  expect(greeted.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
  expect(asked).toEqual(['What is your name?']);
}

describe('SDK 2.4.0 Client against our dual-era echo server over stdio', () => {
  it.each(MODES)('%s: discover, list, call, an error and an MRTR round, never a handshake', async (_label, mode) => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [builtProgram('echo-server'), '--framing=ndjson'], stderr: 'pipe' });
    const stderr: Buffer[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    const { client, asked } = modernClient(mode);
    await client.connect(transport);
    await walkModern(client, asked);
    // The session child's own log: modern requests only, not one initialize.
    const log = Buffer.concat(stderr).toString('utf8');
    expect(log).toContain('tools/call');
    expect(log).not.toContain('initialize');
  });
});

describe('SDK 2.4.0 Client against our dual-era echo server over Streamable HTTP', () => {
  it.each(MODES)('%s: discover, list, call, an error and an MRTR round, stateless', async (_label, mode) => {
    const { url, seen } = await startHttpEcho();
    const { client, asked } = modernClient(mode);
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await walkModern(client, asked);
    expect(seen.length).toBeGreaterThan(5);
    expect(seen.every((post) => post.era === 'modern' && post.session === undefined)).toBe(true);
    expect(seen.map((post) => post.method)).not.toContain('initialize');
    // The MRTR round is two tools/call requests: the first answered input_required, the retry complete.
    expect(seen.filter((post) => post.method === 'tools/call').length).toBe(5);
  });
});

describe('SDK 1.32.2 Client (handshake era) against the same dual-era servers', () => {
  it('over stdio: handshakes and calls as before; greet is not offered in the handshake era', async () => {
    const transport = new LegacyStdioTransport({ command: process.execPath, args: [builtProgram('echo-server'), '--framing=ndjson'], stderr: 'pipe' });
    const client = new LegacyClient({ name: 'legacy-interop', version: '1.0.0' });
    cleanups.push(() => client.close());
    await client.connect(transport);
    expect(client.getServerVersion()?.name).toBe('mcp-echo-server');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    const echoed = await client.callTool({ name: 'echo', arguments: { text: GREETING } });
    expect(echoed.content).toEqual([{ type: 'text', text: GREETING }]);
  });

  it('over HTTP: a legacy session and a modern client on one endpoint at the same time', async () => {
    const { url, seen } = await startHttpEcho();
    const legacy = new LegacyClient({ name: 'legacy-interop', version: '1.0.0' });
    cleanups.push(() => legacy.close());
    const { client: modern, asked } = modernClient('auto');
    await Promise.all([legacy.connect(new LegacyHttpTransport(new URL(url))), modern.connect(new StreamableHTTPClientTransport(new URL(url)))]);

    const [legacyEcho, modernGreet] = await Promise.all([
      legacy.callTool({ name: 'echo', arguments: { text: 'legacy' } }),
      modern.callTool({ name: 'greet', arguments: {} }),
    ]);
    expect(legacyEcho.content).toEqual([{ type: 'text', text: 'legacy' }]);
    expect(modernGreet.content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    expect(asked).toHaveLength(1);
    expect(modern.getProtocolEra()).toBe('modern');

    const initialize = seen.find((post) => post.method === 'initialize');
    expect(initialize?.era).toBe('legacy');
    // Every legacy request after initialize carries its session id; no modern one carries any.
    expect(seen.filter((post) => post.era === 'legacy' && post.method !== 'initialize').every((post) => post.session !== undefined)).toBe(true);
    expect(seen.filter((post) => post.era === 'modern').every((post) => post.session === undefined)).toBe(true);
  });
});

describe('the other eras of the echo server (--era), as the compatibility matrix says', () => {
  it('--era=legacy: SDK 2.4.0 in auto mode probes, falls back to initialize and works', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [builtProgram('echo-server'), '--framing=ndjson', '--era=legacy'], stderr: 'pipe' });
    const { client } = modernClient('auto');
    await client.connect(transport);
    expect(client.getProtocolEra()).toBe('legacy');
    const echoed = await client.callTool({ name: 'echo', arguments: { text: GREETING } });
    expect(echoed.content).toEqual([{ type: 'text', text: GREETING }]);
  });

  it('--era=legacy: SDK 2.4.0 pinned to 2026-07-28 fails to connect (no fallback when pinned)', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [builtProgram('echo-server'), '--framing=ndjson', '--era=legacy'], stderr: 'pipe' });
    const { client } = modernClient({ pin: '2026-07-28' });
    await expect(client.connect(transport)).rejects.toThrow();
  });

  it('--era=modern: SDK 1.32.2 cannot initialize; the error names the versions the server speaks', async () => {
    const transport = new LegacyStdioTransport({ command: process.execPath, args: [builtProgram('echo-server'), '--framing=ndjson', '--era=modern'], stderr: 'pipe' });
    const client = new LegacyClient({ name: 'legacy-interop', version: '1.0.0' });
    cleanups.push(() => client.close());
    const connecting = client.connect(transport);
    await expect(connecting).rejects.toMatchObject({ code: -32022 });
    await expect(connecting).rejects.toThrow(/2026-07-28/);
  });

  it('HTTP, legacy only: SDK 2.4.0 in auto mode reads the 400 of its modern attempt, falls back and works', async () => {
    const { url } = await startHttpEcho('legacy');
    const { client } = modernClient('auto');
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(client.getProtocolEra()).toBe('legacy');
    const echoed = await client.callTool({ name: 'echo', arguments: { text: GREETING } });
    expect(echoed.content).toEqual([{ type: 'text', text: GREETING }]);
  });

  it('HTTP, modern only: SDK 1.32.2 cannot initialize (400 with -32022); SDK 2.4.0 auto works', async () => {
    const { url } = await startHttpEcho('modern');
    const legacy = new LegacyClient({ name: 'legacy-interop', version: '1.0.0' });
    cleanups.push(() => legacy.close());
    await expect(legacy.connect(new LegacyHttpTransport(new URL(url)))).rejects.toThrow(/400|2026-07-28/);
    const { client, asked } = modernClient('auto');
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    await walkModern(client, asked);
  });
});
