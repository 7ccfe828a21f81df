import { describe, expect, it } from 'vitest';
import { McpClient, McpRpcError, type ClientEvent } from '../client.ts';
import { createEchoTools, ECHO_SERVER_INFO } from '../echo-tools.ts';
import { encodeNotification, isRequest, validateMessage } from '../jsonrpc.ts';
import { McpServer } from '../server.ts';
import { HttpClientTransport, HTTP_CLIENT_FRAMING } from './client-transport.ts';
import { inProcessExchange } from './in-process.ts';
import { createHttpHandler, type HttpHandlerOptions } from './server-handler.ts';
import type { HttpServerFactory, ServerChannel } from './server-session.ts';
import type { HttpClientRequest, HttpClientResponse, HttpExchange } from './types.ts';
import { createConformanceServer } from '../features/conformance-fixtures.ts';

const URL_ = 'http://127.0.0.1:3000/mcp';

/** Echo tools; tools/call first sends a related progress notification and one on the server's own stream. */
function chattyServer(channels: ServerChannel[], poll = false): HttpServerFactory {
  return (channel) => {
    channels.push(channel);
    const mcp = new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() });
    return {
      handle(value, context) {
        const outcome = validateMessage(value);
        if (outcome.ok && isRequest(outcome.message) && outcome.message.method === 'tools/call') {
          context?.send(encodeNotification('notifications/progress', { progressToken: 'x', progress: 1, total: 2 }));
          // Polling: the server drops the connection and answers a moment later, on the same stream.
          if (poll) {
            context?.closeConnection();
            return new Promise((resolve) => setTimeout(resolve, 0)).then(() => mcp.handle(value));
          }
        }
        return mcp.handle(value);
      },
    };
  };
}

interface Setup {
  client: McpClient;
  transport: HttpClientTransport;
  requests: HttpClientRequest[];
  sleeps: number[];
  events: ClientEvent[];
  handler: ReturnType<typeof createHttpHandler>;
  channels: ServerChannel[];
}

function setup(options: { handler?: Partial<HttpHandlerOptions>; wrap?: (exchange: HttpExchange) => HttpExchange; listen?: boolean; poll?: boolean } = {}): Setup {
  const channels: ServerChannel[] = [];
  const handler = createHttpHandler({ createServer: chattyServer(channels, options.poll), retryMs: 7, ...options.handler });
  const requests: HttpClientRequest[] = [];
  const inner = inProcessExchange(handler);
  const recording: HttpExchange = (request) => {
    requests.push(request);
    return inner(request);
  };
  const sleeps: number[] = [];
  const transport = new HttpClientTransport({
    url: URL_,
    exchange: options.wrap?.(recording) ?? recording,
    listen: options.listen ?? false,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
  });
  const client = new McpClient(transport, { framing: HTTP_CLIENT_FRAMING, requestTimeoutMs: 5000 });
  const events: ClientEvent[] = [];
  client.on((event) => events.push(event));
  return { client, transport, requests, sleeps, events, handler, channels };
}

const bodyOf = (request: HttpClientRequest) => (request.body === undefined ? undefined : JSON.parse(new TextDecoder().decode(request.body)));
const notifications = (events: ClientEvent[]) => events.flatMap((event) => (event.type === 'notification' ? [event.message.method] : []));

describe('HttpClientTransport under McpClient', () => {
  it('runs the handshake, lists and calls tools over JSON responses, with the headers the spec asks for', async () => {
    const { client, requests, transport } = setup();
    await client.connect();
    expect(await client.listTools()).toEqual(createEchoTools().map((tool) => tool.info));
    const result = await client.callTool('echo', { text: '你好' });
    expect(result.content).toEqual([{ type: 'text', text: '你好' }]);

    const [initialize, initialized, list] = requests;
    expect(initialize!.method).toBe('POST');
    expect(initialize!.headers).toEqual({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    expect(bodyOf(initialize!)).toMatchObject({ method: 'initialize' });
    expect(transport.session).toMatch(/^[\x21-\x7e]+$/);
    for (const later of [initialized!, list!]) {
      expect(later.headers).toMatchObject({ 'mcp-session-id': transport.session, 'mcp-protocol-version': '2025-11-25' });
    }
  });

  it('reads SSE responses, handing related notifications to the client before the result', async () => {
    const { client, events } = setup({ handler: { streamRequest: () => true } });
    await client.connect();
    const result = await client.callTool('echo', { text: 'streamed' });
    expect(result.content).toEqual([{ type: 'text', text: 'streamed' }]);
    expect(notifications(events)).toEqual(['notifications/progress']);
  });

  it('switches a response to SSE only when the server has something to say first', async () => {
    const { client, events, requests } = setup();
    await client.connect();
    await client.callTool('echo', { text: 'x' });
    await client.ping();
    expect(notifications(events)).toEqual(['notifications/progress']);
    expect(requests).toHaveLength(4);
  });

  it('initializes again after a 404 and sends the message once more', async () => {
    const { client, handler, transport, requests } = setup();
    await client.connect();
    const first = transport.session;
    handler.closeAll(); // the server forgot every session
    const result = await client.callTool('echo', { text: 'again' });
    expect(result.content).toEqual([{ type: 'text', text: 'again' }]);
    expect(transport.session).not.toBe(first);
    const methods = requests.map((request) => bodyOf(request)?.method);
    expect(methods.slice(2)).toEqual(['tools/call', 'initialize', 'notifications/initialized', 'tools/call']);
    expect(requests[3]!.headers['mcp-session-id']).toBeUndefined(); // the new initialize names no session
  });

  it('resumes a dropped SSE stream with Last-Event-ID after the server retry', async () => {
    let dropped = false;
    // The first streamed POST loses its connection right after the first chunk (the priming event).
    const wrap =
      (exchange: HttpExchange): HttpExchange =>
      async (request) => {
        const response = await exchange(request);
        if (dropped || request.method !== 'POST' || response.headers['content-type'] !== 'text/event-stream') return response;
        dropped = true;
        return cutAfterFirstChunk(response);
      };
    const { client, requests, sleeps } = setup({ handler: { streamRequest: (request) => request.method === 'tools/call' }, wrap });
    await client.connect();
    const result = await client.callTool('echo', { text: 'resumed' });
    expect(result.content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(sleeps).toEqual([7]);
    const resume = requests.at(-1)!;
    expect(resume.method).toBe('GET');
    expect(resume.headers['last-event-id']).toMatch(/\/0$/);
  });

  it('follows a server that closes the connection mid-request (polling): waits retry, resumes, gets the result', async () => {
    const { client, requests, sleeps, events } = setup({ poll: true });
    await client.connect();
    const result = await client.callTool('echo', { text: 'polled' });
    expect(result.content).toEqual([{ type: 'text', text: 'polled' }]);
    expect(notifications(events)).toEqual(['notifications/progress']); // once: the replay starts after it
    expect(sleeps).toEqual([7]);
    expect(requests.at(-1)!.headers['last-event-id']).toMatch(/\/1$/);
  });

  it('listens on the standalone stream after the handshake for what the server sends on its own', async () => {
    const { client, channels, events } = setup({ listen: true });
    await client.connect();
    await client.ping(); // by now the GET stream is open
    await waitFor(() => channels.length === 1);
    channels[0]!.send(encodeNotification('notifications/tools/list_changed'));
    await waitFor(() => notifications(events).includes('notifications/tools/list_changed'));
    client.close();
  });

  it('sends DELETE for the session when closed', async () => {
    const { client, requests, transport, handler } = setup();
    await client.connect();
    const session = transport.session;
    client.close();
    await waitFor(() => requests.some((request) => request.method === 'DELETE'));
    expect(requests.at(-1)!.headers['mcp-session-id']).toBe(session);
    await waitFor(() => handler.sessionCount === 0);
  });

  it('carries any other request with sendRequest: a resource, a prompt, a log level (full-feature server)', async () => {
    const handler = createHttpHandler({ createServer: (channel) => createConformanceServer(channel) });
    const transport = new HttpClientTransport({ url: URL_, exchange: inProcessExchange(handler), listen: false });
    const client = new McpClient(transport, { framing: HTTP_CLIENT_FRAMING, requestTimeoutMs: 5000 });
    await expect(client.sendRequest('resources/list')).rejects.toThrow(/resources\/list/); // not before the handshake
    await client.connect();
    expect(await client.sendRequest('resources/read', { uri: 'test://static-text' })).toEqual({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    });
    expect(await client.sendRequest('prompts/get', { name: 'test_simple_prompt' })).toMatchObject({ messages: [{ role: 'user' }] });
    expect(await client.sendRequest('logging/setLevel', { level: 'error' })).toEqual({});
    await expect(client.sendRequest('resources/read', { uri: 'test://missing' })).rejects.toMatchObject({ code: -32002 });
    client.close();
  });

  it('turns an HTTP failure into a rejected request, not a hang', async () => {
    const { client } = setup({ handler: { endpoint: '/elsewhere' } });
    await expect(client.initialize()).rejects.toBeInstanceOf(McpRpcError);
    await expect(client.initialize()).rejects.toThrow(/HTTP 404/);
  });
});

function cutAfterFirstChunk(response: HttpClientResponse): HttpClientResponse {
  return {
    ...response,
    body: (async function* () {
      for await (const chunk of response.body) {
        yield chunk;
        response.cancel();
        return;
      }
    })(),
  };
}

/** Polls a condition across event-loop turns; bounded, so a broken promise fails instead of hanging. */
async function waitFor(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 1000; turn++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  throw new Error('condition never became true');
}
