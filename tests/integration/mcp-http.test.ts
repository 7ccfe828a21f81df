// Streamable HTTP against code nobody here wrote, over real sockets on port 0: the official SDK's
// Client with StreamableHTTPClientTransport drives our handler behind node:http, and our McpClient
// (over HttpClientTransport + fetch) drives an SDK McpServer on StreamableHTTPServerTransport.

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer as SdkMcpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { McpClient, type ClientEvent } from '../../src/protocol/client.ts';
import { createEchoTools, ECHO_SERVER_INFO } from '../../src/protocol/echo-tools.ts';
import { HttpClientTransport, HTTP_CLIENT_FRAMING } from '../../src/protocol/http/client-transport.ts';
import { createHttpHandler, type HttpHandler } from '../../src/protocol/http/server-handler.ts';
import { McpServer } from '../../src/protocol/server.ts';
import { withToolProgress } from '../../src/protocol/tool-progress.ts';
import { answerServerRequests } from '../../src/protocol/server-requests.ts';
import { createConformanceServer } from '../../src/protocol/features/conformance-fixtures.ts';
import { CreateMessageRequestSchema, LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fetchExchange } from '../../server/fetch-exchange.ts';
import { nodeListener } from '../../server/http-node-adapter.ts';

const GREETING = '你好，世界 👋';
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
}

async function startOurServer(): Promise<{ url: string; handler: HttpHandler }> {
  const handler = createHttpHandler({
    createServer: () => withToolProgress(new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() })),
  });
  cleanups.push(() => handler.closeAll());
  return { url: await listen(createServer(nodeListener(handler))), handler };
}

describe('the official SDK client against our Streamable HTTP server', () => {
  it('initializes, lists and calls tools, gets progress on an SSE stream, pings and ends the session', async () => {
    const { url, handler } = await startOurServer();
    const client = new Client({ name: 'sdk-http-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(url));
    await client.connect(transport);
    cleanups.push(() => client.close());
    expect(client.getServerVersion()?.name).toBe(ECHO_SERVER_INFO.name);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(transport.protocolVersion).toBe('2025-11-25');

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'delay_echo', 'delete_file', 'echo', 'fail']);
    expect((await client.callTool({ name: 'echo', arguments: { text: GREETING } })).content).toEqual([{ type: 'text', text: GREETING }]);
    expect((await client.callTool({ name: 'fail', arguments: { message: 'on purpose' } })).isError).toBe(true);

    const progress: { progress: number; total?: number }[] = [];
    const withProgress = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }, undefined, { onprogress: (event) => progress.push(event) });
    expect(withProgress.content).toEqual([{ type: 'text', text: '5' }]);
    expect(progress.map(({ progress, total }) => ({ progress, total }))).toEqual([
      { progress: 0, total: 1 },
      { progress: 1, total: 1 },
    ]);
    await client.ping();

    expect(handler.sessionCount).toBe(1);
    await transport.terminateSession(); // DELETE
    expect(handler.sessionCount).toBe(0);
  });

  it('refuses a foreign Host (DNS rebinding) with 403 over a real socket, and accepts its own', async () => {
    const { url } = await startOurServer();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
    const statusWith = (host: string) =>
      new Promise<number>((resolve, reject) => {
        const target = new URL(url);
        const req = httpRequest(
          { host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    expect(await statusWith('evil.example.com')).toBe(403);
    expect(await statusWith(new URL(url).host)).toBe(200);
    expect(await statusWith(`localhost:${new URL(url).port}`)).toBe(200);
  });

  it('still serves both clients with the split-writes fault: every body arrives in 1-7 byte pieces', async () => {
    const handler = createHttpHandler({
      createServer: () => withToolProgress(new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() })),
    });
    cleanups.push(() => handler.closeAll());
    let seed = 1;
    const random = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    const url = await listen(createServer(nodeListener(handler, { splitWrites: random })));
    const sdk = new Client({ name: 'sdk-http-test', version: '1.0.0' });
    await sdk.connect(new StreamableHTTPClientTransport(new URL(url)));
    cleanups.push(() => sdk.close());
    const progress: number[] = [];
    const viaSdk = await sdk.callTool({ name: 'echo', arguments: { text: GREETING } }, undefined, { onprogress: (event) => progress.push(event.progress) });
    expect(viaSdk.content).toEqual([{ type: 'text', text: GREETING }]);
    expect(progress).toEqual([0, 1]);
    const ours = new McpClient(new HttpClientTransport({ url, exchange: fetchExchange }), { framing: HTTP_CLIENT_FRAMING, requestTimeoutMs: 10_000 });
    cleanups.push(() => ours.close());
    await ours.connect();
    expect((await ours.callTool('echo', { text: GREETING })).content).toEqual([{ type: 'text', text: GREETING }]);
  });

  it('serves the SDK client from the program itself (npm run mcp-http)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', join('server', 'mcp-http.ts'), '--port=0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    cleanups.push(async () => {
      child.kill('SIGTERM');
      await exited;
    });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n')[0]!;
        if (out.includes('\n')) resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`mcp-http exited with ${code} before printing its URL`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = new Client({ name: 'sdk-http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect((await client.callTool({ name: 'echo', arguments: { text: 'hi' } })).content).toEqual([{ type: 'text', text: 'hi' }]);
    await client.close();
  });
});

describe('the official SDK client against our full-feature (conformance fixture) server over HTTP', () => {
  it('reads a resource, gets a prompt, receives log messages and answers a sampling request on the tool call stream', async () => {
    const handler = createHttpHandler({ createServer: (channel) => createConformanceServer(channel) });
    cleanups.push(() => handler.closeAll());
    const url = await listen(createServer(nodeListener(handler)));
    const client = new Client({ name: 'sdk-http-test', version: '1.0.0' }, { capabilities: { sampling: {} } });
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => void logs.push(notification.params.data));
    client.setRequestHandler(CreateMessageRequestSchema, async (request) => ({
      role: 'assistant',
      content: { type: 'text', text: `echo of ${JSON.stringify(request.params.messages[0]?.content)}` },
      model: 'test-model',
    }));
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    cleanups.push(() => client.close());

    expect(client.getServerCapabilities()).toMatchObject({ resources: { subscribe: true }, prompts: {}, logging: {}, completions: {} });
    expect((await client.readResource({ uri: 'test://static-text' })).contents).toEqual([
      { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
    ]);
    expect((await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: '你好', arg2: 'b' } })).messages[0]?.content).toEqual({
      type: 'text',
      text: "Prompt with arguments: arg1='你好', arg2='b'",
    });
    await client.setLoggingLevel('info');
    await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
    expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
    const sampled = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'hi' } });
    expect(sampled.content).toEqual([{ type: 'text', text: 'LLM response: echo of {"type":"text","text":"hi"}' }]);
  });
});

describe('our McpClient against the official SDK server on StreamableHTTPServerTransport', () => {
  // list, call, a resource, a prompt, logging, and a sampling request the client answers
  async function startSdkServer(): Promise<string> {
    const transports = new Map<string, StreamableHTTPServerTransport>();
    const newSession = async (): Promise<StreamableHTTPServerTransport> => {
      const server = new SdkMcpServer({ name: 'sdk-http-server', version: '1.0.0' }, { capabilities: { logging: {} } });
      server.registerTool('echo', { inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: 'text', text }] }));
      server.registerResource('note', 'note://one', { mimeType: 'text/plain' }, async (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'a note' }] }));
      server.registerPrompt('greet', { argsSchema: { name: z.string() } }, ({ name }) => ({ messages: [{ role: 'user', content: { type: 'text', text: `Hello ${name}` } }] }));
      server.registerTool('ask_model', { inputSchema: { question: z.string() } }, async ({ question }) => {
        const answer = await server.server.createMessage({ messages: [{ role: 'user', content: { type: 'text', text: question } }], maxTokens: 10 });
        return { content: [{ type: 'text', text: `model said: ${answer.content.type === 'text' ? answer.content.text : '?'}` }] };
      });
      server.registerTool('chatty', { inputSchema: {} }, async (_args, extra) => {
        await extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: 'working' } });
        return { content: [{ type: 'text', text: 'done' }] };
      });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (id) => void transports.set(id, transport) });
      await server.connect(transport);
      cleanups.push(() => server.close());
      return transport;
    };
    const http = createServer((req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const id = req.headers['mcp-session-id'];
        const transport = typeof id === 'string' ? transports.get(id) : await newSession();
        if (transport === undefined) {
          res.writeHead(404).end();
          return;
        }
        await transport.handleRequest(req, res);
      })();
    });
    return listen(http);
  }

  it('connects, lists, calls (SSE responses with a related notification), pings and closes', async () => {
    const url = await startSdkServer();
    const errors: string[] = [];
    const transport = new HttpClientTransport({ url, exchange: fetchExchange, onError: (detail) => errors.push(detail) });
    // Sampling requests from the server are answered by this layer (McpClient itself answers only ping).
    const sampling = answerServerRequests(transport, {
      framing: HTTP_CLIENT_FRAMING,
      handlers: {
        'sampling/createMessage': {
          capability: 'sampling',
          handle: (params) => ({ role: 'assistant', content: { type: 'text', text: `echo ${JSON.stringify((params.messages as { content: unknown }[])[0]?.content)}` }, model: 'test' }),
        },
      },
    });
    const client = new McpClient(sampling, { framing: HTTP_CLIENT_FRAMING, requestTimeoutMs: 10_000 });
    cleanups.push(() => client.close());
    const events: ClientEvent[] = [];
    client.on((event) => events.push(event));

    const result = await client.connect();
    expect(result.serverInfo.name).toBe('sdk-http-server');
    expect(transport.session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await client.listTools()).map((tool) => tool.name).sort()).toEqual(['ask_model', 'chatty', 'echo']);
    expect(await client.sendRequest('resources/read', { uri: 'note://one' })).toEqual({ contents: [{ uri: 'note://one', mimeType: 'text/plain', text: 'a note' }] });
    expect(await client.sendRequest('prompts/get', { name: 'greet', arguments: { name: '世界' } })).toMatchObject({ messages: [{ role: 'user', content: { type: 'text', text: 'Hello 世界' } }] });
    expect(await client.sendRequest('logging/setLevel', { level: 'info' })).toEqual({});
    expect((await client.callTool('ask_model', { question: 'why?' })).content).toEqual([{ type: 'text', text: 'model said: echo {"type":"text","text":"why?"}' }]);
    expect((await client.callTool('echo', { text: GREETING })).content).toEqual([{ type: 'text', text: GREETING }]);
    expect((await client.callTool('chatty', {})).content).toEqual([{ type: 'text', text: 'done' }]);
    expect(events.some((event) => event.type === 'notification' && event.message.method === 'notifications/message')).toBe(true);
    await client.ping();
    expect(events.filter((event) => event.type === 'protocol-error')).toEqual([]);
    client.close();
    expect(errors).toEqual([]);
  });
});
