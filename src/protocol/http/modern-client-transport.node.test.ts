// The 2026-07-28 HTTP client transport against SDK 2.4.0's createMcpHandler in-process (its fetch
// face is the exchange, so no socket), with every request recorded: what goes on the wire, and that
// a server which checks headers against bodies (and answers -32020 when they differ) accepts it.
// The failure paths a real server will not produce on demand (a bare 400, a stream cut short)
// use a scripted exchange.

import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DualEraClient } from '../era/dual-era-client.ts';
import { META_PROTOCOL_VERSION } from '../era/meta.ts';
import { readLocalHttpFailure } from '../era/local-failure.ts';
import { McpRpcError } from '../client-errors.ts';
import { ModernHttpClientTransport } from './modern-client-transport.ts';
import type { HttpClientRequest, HttpClientResponse, HttpExchange } from './types.ts';

const URL = 'http://127.0.0.1:1/mcp';
const closers: (() => unknown)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function sdkServer(): McpServer {
  const server = new McpServer({ name: 'sdk2', version: '2.4.0' }, { capabilities: { tools: {}, resources: {}, prompts: {} } });
  server.registerTool(
    'route',
    {
      inputSchema: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), note: z.string() }),
    },
    async ({ region, note }) => ({ content: [{ type: 'text', text: `${region}:${note}` }] }),
  );
  server.registerTool('slow', { inputSchema: z.object({}) }, async () => {
    await new Promise((resolve) => setTimeout(resolve, 10_000));
    return { content: [] };
  });
  server.registerResource('note', 'note://one', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, text: 'hi' }] }));
  server.registerPrompt('grüße', { argsSchema: z.object({ name: z.string() }) }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hallo ${name}` } }] }));
  return server;
}

/** createMcpHandler's fetch as an HttpExchange, recording each request. */
function sdkExchange(seen: HttpClientRequest[]): HttpExchange {
  const handler = createMcpHandler(() => sdkServer(), { legacy: 'reject' });
  closers.push(() => handler.close());
  return async (request) => {
    seen.push(request);
    const abort = new AbortController();
    const response = await handler.fetch(new Request(request.url, { method: request.method, headers: request.headers, body: request.body === undefined ? undefined : new Uint8Array(request.body), signal: abort.signal }));
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, body: chunks(response.body), cancel: () => abort.abort() };
  };
}

async function* chunks(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } catch {
    return; // an aborted read ends the body
  } finally {
    reader.releaseLock();
  }
}

function client(exchange: HttpExchange, onError?: (detail: string) => void): DualEraClient {
  const transport = new ModernHttpClientTransport({ url: URL, exchange, onError });
  const dual = new DualEraClient({ kind: 'http', modern: transport, legacy: () => { throw new Error('no legacy server here'); } }, { era: { pin: '2026-07-28' }, requestTimeoutMs: 500 });
  closers.push(() => dual.close());
  return dual;
}

const bodyOf = (request: HttpClientRequest) => JSON.parse(new TextDecoder().decode(request.body)) as { method: string; params?: Record<string, unknown> };

describe('ModernHttpClientTransport against SDK 2.4.0 createMcpHandler', () => {
  it('POSTs each request with MCP-Protocol-Version from _meta, Mcp-Method, Mcp-Name and Mcp-Param-*, and nothing of the 2025 transport', async () => {
    const seen: HttpClientRequest[] = [];
    const dual = client(sdkExchange(seen));
    await dual.connect();
    await dual.listTools();
    expect(await dual.callTool('route', { region: 'eu-west', note: '你好' })).toMatchObject({ content: [{ text: 'eu-west:你好' }] });
    expect(await dual.request('resources/read', { uri: 'note://one' })).toMatchObject({ contents: [{ text: 'hi' }] });
    expect(await dual.request('prompts/get', { name: 'grüße', arguments: { name: 'Welt' } })).toMatchObject({ messages: [{ content: { text: 'Hallo Welt' } }] });

    expect(seen.map((request) => [request.method, request.headers['mcp-method']])).toEqual([
      ['POST', 'server/discover'],
      ['POST', 'tools/list'],
      ['POST', 'tools/call'],
      ['POST', 'resources/read'],
      ['POST', 'prompts/get'],
    ]);
    for (const request of seen) {
      expect(request.headers['mcp-protocol-version']).toBe(bodyOf(request).params?._meta?.[META_PROTOCOL_VERSION as never]);
      expect(request.headers['mcp-method']).toBe(bodyOf(request).method);
      expect(Object.keys(request.headers)).not.toContain('mcp-session-id');
      expect(Object.keys(request.headers)).not.toContain('last-event-id');
    }
    expect(seen[2]!.headers).toMatchObject({ 'mcp-name': 'route', 'mcp-param-region': 'eu-west' });
    expect(seen[2]!.headers).not.toHaveProperty('mcp-param-note');
    expect(seen[3]!.headers['mcp-name']).toBe('note://one');
    // Not plain ASCII: the Base64 sentinel, which the SDK decodes before comparing with the body.
    expect(seen[4]!.headers['mcp-name']).toBe(`=?base64?${Buffer.from('grüße').toString('base64')}?=`);
  });

  it('a tools/call refused with -32020 (its Mcp-Param-* headers unknown before tools/list) lists the tools and retries once', async () => {
    const seen: HttpClientRequest[] = [];
    const dual = client(sdkExchange(seen));
    await dual.connect();
    expect(await dual.callTool('route', { region: 'ap-south', note: 'first' })).toMatchObject({ content: [{ text: 'ap-south:first' }] });
    expect(seen.map((request) => [bodyOf(request).method, request.headers['mcp-param-region']])).toEqual([
      ['server/discover', undefined],
      ['tools/call', undefined],
      ['tools/list', undefined],
      ['tools/call', 'ap-south'],
    ]);
  });

  it('cancels a request by closing its response, without POSTing notifications/cancelled', async () => {
    const seen: HttpClientRequest[] = [];
    const dual = client(sdkExchange(seen));
    await dual.connect();
    await expect(dual.callTool('slow', {})).rejects.toThrow(/500 ms/);
    expect(seen.map((request) => bodyOf(request).method)).toEqual(['server/discover', 'tools/call']);
  });
});

describe('ModernHttpClientTransport when the server gives no JSON-RPC answer', () => {
  const respond = (status: number, type: string, body: string): HttpClientResponse => ({
    status,
    headers: { 'content-type': type },
    body: (async function* () {
      if (body !== '') yield new TextEncoder().encode(body);
    })(),
    cancel: () => {},
  });

  it('a 400 with a JSON-RPC error body answers the request with that error, id or not', async () => {
    const dual = client(async () => respond(400, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32020, message: 'Header mismatch' } })));
    const error = await dual.connect().catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: 'EraNegotiationError', message: expect.stringMatching(/-32020: Header mismatch/) });
  });

  it('a bare 404 becomes an error marked as local, with its status', async () => {
    const transport = new ModernHttpClientTransport({ url: URL, exchange: async () => respond(404, 'text/html', '<h1>Not Found</h1>') });
    const received: unknown[] = [];
    transport.onData((bytes) => received.push(JSON.parse(new TextDecoder().decode(bytes))));
    transport.write(new TextEncoder().encode(`${JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: {} })}\n`));
    await expect.poll(() => received.length).toBe(1);
    const answer = received[0] as { id: number; error: { code: number; data: unknown } };
    expect(answer.id).toBe(7);
    expect(readLocalHttpFailure(answer.error.data)).toEqual({ status: 404, body: '<h1>Not Found</h1>' });
  });

  it('an SSE stream that ends before the answer fails the request at once: 2026-07-28 never resumes', async () => {
    const exchanged: HttpClientRequest[] = [];
    const dual = client(async (request) => {
      exchanged.push(request);
      if (bodyOf(request).method === 'server/discover') {
        return respond(200, 'application/json', JSON.stringify({ jsonrpc: '2.0', id: 0, result: { resultType: 'complete', supportedVersions: ['2026-07-28'], capabilities: {} } }));
      }
      return respond(200, 'text/event-stream', 'id: 1\nretry: 5\ndata: \n\n');
    });
    await dual.connect();
    const error = await dual.callTool('anything').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpRpcError);
    expect((error as McpRpcError).rpcMessage).toMatch(/not resumed/);
    expect(exchanged.map((request) => request.method)).toEqual(['POST', 'POST']);
  });
});
