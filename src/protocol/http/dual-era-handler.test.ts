import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEchoTools, ECHO_SERVER_INFO } from '../echo-tools.ts';
import { createEchoModernServer } from '../era/echo.ts';
import { ModernServer } from '../era/modern-server.ts';
import { McpServer } from '../server.ts';
import { createDualEraHttpHandler } from './dual-era-handler.ts';
import type { HttpRequest, HttpResponse } from './types.ts';

const META = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} };
const utf8 = new TextEncoder();

function handler() {
  const options = { serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() };
  return createDualEraHttpHandler({ createServer: () => new McpServer(options), modern: createEchoModernServer(options) });
}

function post(body: unknown, headers: Record<string, string> = {}): HttpRequest {
  const method = (body as { method?: string }).method ?? '';
  const name = (body as { params?: { name?: string } }).params?.name;
  return {
    method: 'POST',
    path: '/mcp',
    headers: {
      host: '127.0.0.1:3000',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...(name !== undefined ? { 'mcp-name': name } : {}),
      ...headers,
    },
    body: utf8.encode(JSON.stringify(body)),
  };
}

async function json(response: HttpResponse): Promise<unknown> {
  if (response.body.type !== 'bytes') throw new Error(`expected a JSON body, got ${response.body.type}`);
  return JSON.parse(new TextDecoder().decode(response.body.bytes));
}

describe('the dual-era Streamable HTTP handler, modern requests', () => {
  it('answers JSON with no session id', async () => {
    const response = await handler().handle(post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: META } }));
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(await json(response)).toMatchObject({ id: 1, result: { resultType: 'complete', ttlMs: 60000, cacheScope: 'public' } });
  });

  it('maps errors to statuses: header mismatch 400/-32020, bad version 400/-32022, unknown method 404/-32601', async () => {
    const mismatch = await handler().handle(post({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: META } }, { 'mcp-method': 'prompts/list' }));
    expect(mismatch.status).toBe(400);
    expect(await json(mismatch)).toMatchObject({ id: 2, error: { code: -32020 } });
    const version = { ...META, 'io.modelcontextprotocol/protocolVersion': '1900-01-01' };
    const unsupported = await handler().handle(post({ jsonrpc: '2.0', id: 3, method: 'server/discover', params: { _meta: version } }, { 'mcp-protocol-version': '1900-01-01' }));
    expect(unsupported.status).toBe(400);
    expect(await json(unsupported)).toMatchObject({ error: { code: -32022, data: { requested: '1900-01-01' } } });
    const ping = await handler().handle(post({ jsonrpc: '2.0', id: 4, method: 'ping', params: { _meta: META } }));
    expect(ping.status).toBe(404);
    expect(await json(ping)).toMatchObject({ error: { code: -32601 } });
  });

  it('refuses GET for the modern era (POST only) and leaves GET without a modern header to the sessions', async () => {
    const get = await handler().handle({ method: 'GET', path: '/mcp', headers: { host: '127.0.0.1', accept: 'text/event-stream', 'mcp-protocol-version': '2026-07-28' } });
    expect(get.status).toBe(405);
    const legacyGet = await handler().handle({ method: 'GET', path: '/mcp', headers: { host: '127.0.0.1', accept: 'text/event-stream' } });
    expect(legacyGet.status).toBe(400); // the handshake era's "Mcp-Session-Id header is required"
  });

  it('streams with X-Accel-Buffering: no when the server sends before its result, and a closed stream cancels the call', async () => {
    const call = { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'delay_echo', arguments: { text: 'slow', ms: 5000 }, _meta: { ...META, progressToken: 'p' } } };
    const response = await handler().handle(post(call));
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect(response.headers['x-accel-buffering']).toBe('no');
    if (response.body.type !== 'stream') throw new Error('expected a stream');
    const iterator = response.body.stream[Symbol.asyncIterator]();
    const first = new TextDecoder().decode((await iterator.next()).value);
    expect(first).toContain('notifications/progress');
    expect(first).not.toContain('id:'); // no event ids: nothing to resume in this era
    response.body.stream.cancel();
    expect((await iterator.next()).done).toBe(true);
  });

  it('aborts the tool when the client closes its response stream', async () => {
    let aborted = false;
    const modern = new ModernServer({
      serverInfo: ECHO_SERVER_INFO,
      tools: [
        {
          info: { name: 'wait', inputSchema: { type: 'object', properties: {} } },
          run: (_args, context) =>
            new Promise((resolve) => {
              context.progress(0, 1, 'waiting');
              context.signal.addEventListener('abort', () => ((aborted = true), resolve('stopped')));
            }),
        },
      ],
    });
    const handler = createDualEraHttpHandler({ createServer: () => new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: [] }), modern });
    const response = await handler.handle(post({ jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'wait', _meta: { ...META, progressToken: 1 } } }));
    if (response.body.type !== 'stream') throw new Error('expected a stream');
    expect(aborted).toBe(false);
    response.body.stream.cancel();
    expect(aborted).toBe(true);
  });

  it('keeps initialize in the handshake era: a session id comes back', async () => {
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    const response = await handler().handle(post(init, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'initialize' }));
    expect(response.status).toBe(200);
    expect(response.headers['mcp-session-id']).toMatch(/^[0-9a-f]{32}$/);
    const confused = await handler().handle(post(init, { 'mcp-method': 'initialize' })); // with the modern header
    expect(confused.status).toBe(400);
    expect(await json(confused)).toMatchObject({ id: 0, error: { code: -32020 } });
  });

  it('modern-only (legacy: reject): initialize gets 400 with -32022 and the supported versions; GET gets 405', async () => {
    const options = { serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() };
    const strict = createDualEraHttpHandler({ createServer: () => new McpServer(options), modern: createEchoModernServer({ ...options, supportedVersions: ['2026-07-28'] }), legacy: 'reject' });
    const init = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } };
    const response = await strict.handle(post(init, { 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'initialize' }));
    expect(response.status).toBe(400);
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(await json(response)).toMatchObject({ id: 0, error: { code: -32022, data: { supported: ['2026-07-28'], requested: '2025-11-25' } } });
    expect((await strict.handle({ method: 'GET', path: '/mcp', headers: { host: '127.0.0.1', accept: 'text/event-stream' } })).status).toBe(405);
  });
});

describe('dual-era handler: idle 2026-07-28 streams (issue 22)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('closes a response stream that carried nothing for streamIdleMs (fake clock), and holds no timer after', async () => {
    vi.useFakeTimers();
    const options = { serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() };
    const endpoint = createDualEraHttpHandler({ createServer: () => new McpServer(options), modern: createEchoModernServer(options), streamIdleMs: 1_000 });
    const response = await endpoint.handle(post({ jsonrpc: '2.0', id: 1, method: 'subscriptions/listen', params: { notifications: {}, _meta: META } }));
    if (response.body.type !== 'stream') throw new Error('expected the listen stream');
    const stream = response.body.stream as unknown as { open: boolean };
    vi.advanceTimersByTime(900);
    expect(stream.open).toBe(true);
    vi.advanceTimersByTime(500);
    expect(stream.open).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
