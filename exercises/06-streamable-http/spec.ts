import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { macrotask, PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import { HttpClientTransport, HTTP_CLIENT_FRAMING, SseReader, type HttpClientTransportOptions, type SseEvent } from '@learner';
// The reference solution: the properties compare your code with it.
import * as reference from '@reference/http/streamable-client';
// The server is the project's own Streamable HTTP handler, called in process: real status codes,
// real headers, real SSE bytes, no socket. (Imported as '@reference' so it is never your code.)
import { createHttpHandler, type HttpHandlerOptions } from '@reference/http/server-handler';
import { inProcessExchange } from '@reference/http/in-process';
import type { HttpServerFactory } from '@reference/http/server-session';
import type { HttpClientRequest, HttpClientResponse, HttpExchange } from '@reference/http/types';
import { McpClient, McpRpcError } from '@protocol/client';
import type { ClientEvent } from '@protocol/client-events';
import { createEchoTools, ECHO_SERVER_INFO } from '@protocol/echo-tools';
import { encodeNotification, isRequest, validateMessage, type JsonRpcRequest } from '@protocol/jsonrpc';
import { McpServer } from '@protocol/server';

const URL_ = 'http://127.0.0.1:3000/mcp';
const utf8 = new TextEncoder();

// ---- the SSE reader ----

const bytes = (text: string) => utf8.encode(text);

/** Every event `reader` dispatches while reading `chunks`, as {type, data, id}. */
function eventsOf(reader: Pick<SseReader, 'push'>, chunks: Array<string | Uint8Array>): SseEvent[] {
  const events: SseEvent[] = [];
  for (const chunk of chunks) {
    for (const item of reader.push(typeof chunk === 'string' ? bytes(chunk) : chunk)) {
      if (item.type === 'event') events.push({ type: item.event.type, data: item.event.data, id: item.event.id });
    }
  }
  return events;
}

describe('The SSE reader', () => {
  it('dispatches an event at the blank line: data lines joined with "\\n", type "message" unless event names one', () => {
    const reader = new SseReader();
    expect(eventsOf(reader, ['data: {"a":1}\n'])).toEqual([]);
    expect(eventsOf(reader, ['\n'])).toEqual([{ type: 'message', data: '{"a":1}', id: '' }]);
    expect(eventsOf(reader, ['event: ping\ndata: one\ndata: two\n\n'])).toEqual([{ type: 'ping', data: 'one\ntwo', id: '' }]);
  });

  it('reads CRLF, LF and CR line ends, a CRLF split across two chunks too', () => {
    expect(eventsOf(new SseReader(), ['data: a\r\n\r\ndata: b\n\ndata: c\r\r'])).toEqual([
      { type: 'message', data: 'a', id: '' },
      { type: 'message', data: 'b', id: '' },
      { type: 'message', data: 'c', id: '' },
    ]);
    // One CRLF, split: the LF in the next chunk ends nothing, so there is still no blank line.
    expect(eventsOf(new SseReader(), ['data: x\r', '\ndata: y\r', '\n\r', '\n'])).toEqual([{ type: 'message', data: 'x\ny', id: '' }]);
  });

  it('drops one space after the colon; a comment or an unknown field changes nothing; a line without a colon is a field with an empty value', () => {
    expect(eventsOf(new SseReader(), ['data:no space\n\ndata:  two spaces\n\n'])).toEqual([
      { type: 'message', data: 'no space', id: '' },
      { type: 'message', data: ' two spaces', id: '' },
    ]);
    expect(eventsOf(new SseReader(), [': keep-alive\nfoo: bar\ndata: x\n: another\n\n'])).toEqual([{ type: 'message', data: 'x', id: '' }]);
    expect(eventsOf(new SseReader(), ['data\ndata\n\n'])).toEqual([{ type: 'message', data: '\n', id: '' }]);
    expect(eventsOf(new SseReader(), [': only a comment\n\n'])).toEqual([]);
  });

  it('id persists across events and moves even on a block without data; an id holding U+0000 is ignored', () => {
    const reader = new SseReader();
    expect(reader.lastEventId).toBe('');
    // The priming event: an id and an empty data line. It is dispatched, with empty data.
    expect(eventsOf(reader, ['id: 1/0\ndata:\n\n'])).toEqual([{ type: 'message', data: '', id: '1/0' }]);
    expect(reader.lastEventId).toBe('1/0');
    expect(eventsOf(reader, ['data: a\n\n'])).toEqual([{ type: 'message', data: 'a', id: '1/0' }]);
    expect(eventsOf(reader, ['id: 1/2\n\n'])).toEqual([]);
    expect(reader.lastEventId).toBe('1/2');
    expect(eventsOf(reader, ['id: bad\u0000id\ndata: b\n\n'])).toEqual([{ type: 'message', data: 'b', id: '1/2' }]);
    expect(eventsOf(reader, ['id\ndata: c\n\n'])).toEqual([{ type: 'message', data: 'c', id: '' }]);
  });

  it('retry: only ASCII digits set it', () => {
    const reader = new SseReader();
    expect(reader.retry).toBeUndefined();
    eventsOf(reader, ['retry: 1500\n\n']);
    expect(reader.retry).toBe(1500);
    eventsOf(reader, ['retry: 2s\nretry: -1\nretry:  30\nretry: 1.5\n\n']);
    expect(reader.retry).toBe(1500);
    eventsOf(reader, ['retry:0\n\n']);
    expect(reader.retry).toBe(0);
  });

  it('an event cut off by the end of the stream is never dispatched, and a chunk may end inside a UTF-8 character', () => {
    const whole = bytes('data: 你好😀\n\n');
    const reader = new SseReader();
    const events = eventsOf(reader, [whole.slice(0, 8), whole.slice(8, 11), whole.slice(11)]);
    expect(events).toEqual([{ type: 'message', data: '你好😀', id: '' }]);
    expect(eventsOf(reader, ['data: never ended\n'])).toEqual([]);
  });

  it('drops one BOM at the very start of the stream', () => {
    expect(eventsOf(new SseReader(), ['\uFEFFdata: a\n\n'])).toEqual([{ type: 'message', data: 'a', id: '' }]);
    // A BOM later on is part of the line: here it makes an unknown field name.
    expect(eventsOf(new SseReader(), ['data: a\n\n\uFEFFdata: b\n\n'])).toEqual([{ type: 'message', data: 'a', id: '' }]);
  });
});

// ---- a real server in process ----

/** Echo tools; `tools/call` with a progress token sends a progress notification first; echo of "poll" also closes the connection (SSE polling) and answers a moment later. */
function echoServer(answerVersion?: string): HttpServerFactory {
  return () => {
    const mcp = new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() });
    return {
      async handle(value, context) {
        const outcome = validateMessage(value);
        if (outcome.ok && isRequest(outcome.message)) {
          const request = outcome.message;
          const params = (request.params ?? {}) as { _meta?: { progressToken?: string | number }; arguments?: { text?: unknown }; protocolVersion?: string };
          // A server that speaks an older version than the one offered: it answers with its own.
          if (request.method === 'initialize' && answerVersion !== undefined) return mcp.handle({ ...request, params: { ...params, protocolVersion: answerVersion } });
          if (request.method === 'tools/call' && params._meta?.progressToken !== undefined) {
            context?.send(encodeNotification('notifications/progress', { progressToken: params._meta.progressToken, progress: 1, total: 2 }));
          }
          if (request.method === 'tools/call' && params.arguments?.text === 'poll') {
            context?.send(encodeNotification('notifications/message', { level: 'info', data: 'closing the connection, not the stream' }));
            context?.closeConnection();
            await Promise.resolve();
          }
        }
        return mcp.handle(value);
      },
    };
  };
}

type TransportClass = new (options: HttpClientTransportOptions) => Pick<HttpClientTransport, 'write' | 'end' | 'onData' | 'onClose' | 'session'>;

interface Rig {
  client: McpClient;
  transport: InstanceType<TransportClass>;
  requests: HttpClientRequest[];
  sleeps: number[];
  events: ClientEvent[];
  handler: ReturnType<typeof createHttpHandler>;
  /** What the transport reported through onError. */
  errors: string[];
}

const clients: McpClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.close();
});

interface RigOptions {
  Transport?: TransportClass;
  handler?: Partial<HttpHandlerOptions>;
  transport?: Partial<HttpClientTransportOptions>;
  wrap?: (exchange: HttpExchange) => HttpExchange;
  answerVersion?: string;
  clientVersion?: string;
}

function rig(options: RigOptions = {}): Rig {
  let sessions = 0;
  const handler = createHttpHandler({ createServer: echoServer(options.answerVersion), retryMs: 7, newSessionId: () => `session-${++sessions}`, ...options.handler });
  const requests: HttpClientRequest[] = [];
  const inner = inProcessExchange(handler);
  const recording: HttpExchange = (request) => {
    requests.push(request);
    return inner(request);
  };
  const sleeps: number[] = [];
  const errors: string[] = [];
  const Transport = options.Transport ?? HttpClientTransport;
  const transport = new Transport({
    url: URL_,
    exchange: options.wrap?.(recording) ?? recording,
    listen: false,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    onError: (detail) => errors.push(detail),
    ...options.transport,
  });
  const client = new McpClient(transport, { framing: HTTP_CLIENT_FRAMING, requestTimeoutMs: 5000, ...(options.clientVersion ? { protocolVersion: options.clientVersion } : {}) });
  clients.push(client);
  const events: ClientEvent[] = [];
  client.on((event) => events.push(event));
  return { client, transport, requests, sleeps, events, handler, errors };
}

/** The headers a request carried, names in lower case. */
const headersOf = (request: HttpClientRequest | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(request?.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
/** The media types a header lists, without parameters, sorted. */
const mediaTypes = (value: string | undefined) => (value ?? '').split(',').map((part) => part.split(';')[0]!.trim().toLowerCase()).filter((part) => part !== '').sort();
const bodyOf = (request: HttpClientRequest | undefined): { method?: string; id?: unknown; params?: Record<string, unknown> } | undefined =>
  request?.body === undefined ? undefined : (JSON.parse(new TextDecoder().decode(request.body)) as { method?: string });
const methodsOf = (requests: HttpClientRequest[]) => requests.map((request) => (request.method === 'POST' ? bodyOf(request)?.method : request.method));
const notifications = (events: ClientEvent[]) => events.flatMap((event) => (event.type === 'notification' ? [event.message.method] : []));

/** Waits for `promise`, failing with a readable message instead of hanging when it never settles. */
async function within<T>(promise: Promise<T>, what: string, ms = 1000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} never settled (waited ${ms} ms)`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The error an operation fails with; a readable failure when it succeeds instead. */
async function rejectionOf(run: () => Promise<unknown>, what: string): Promise<unknown> {
  let outcome: { ok: true; value: unknown } | { ok: false; error: unknown };
  try {
    outcome = await within(
      run().then(
        (value) => ({ ok: true as const, value }),
        (error: unknown) => ({ ok: false as const, error }),
      ),
      what,
    );
  } catch (error) {
    return error;
  }
  if (outcome.ok) throw new Error(`${what} should have failed, but it succeeded with ${JSON.stringify(outcome.value)}`);
  return outcome.error;
}

/**
 * Lets queued work run (a few turns of the event loop); no time is measured. Mostly message turns:
 * a browser clamps a chain of setTimeout(0) to 4 ms a turn after the fifth, which made this wait
 * ~80 ms, eighty times a run (exercise 6 took 7 s in the page). Every tenth turn is a timer, so a
 * transport that defers work with setTimeout(0) still gets it done; between message turns a timer
 * is never nested deep enough to be clamped.
 */
async function settle(turns = 20): Promise<void> {
  for (let turn = 1; turn <= turns; turn++) await (turn % 10 === 0 ? new Promise((resolve) => setTimeout(resolve, 0)) : macrotask());
}

/** The first `count` SSE responses to a POST lose their connection after `afterChunks` chunks. */
function dropStreams(count: number, afterChunks: number) {
  let dropped = 0;
  return (exchange: HttpExchange): HttpExchange =>
    async (request) => {
      const response = await exchange(request);
      if (dropped >= count || request.method !== 'POST' || response.headers['content-type'] !== 'text/event-stream') return response;
      dropped++;
      return cutAfter(response, afterChunks);
    };
}

function cutAfter(response: HttpClientResponse, chunks: number): HttpClientResponse {
  return {
    ...response,
    body: (async function* () {
      let seen = 0;
      for await (const chunk of response.body) {
        yield chunk;
        if (++seen >= chunks) {
          response.cancel();
          return;
        }
      }
    })(),
  };
}

/** Leaves out every `retry:` line of SSE responses: a server that never says how long to wait. */
function withoutRetry(exchange: HttpExchange): HttpExchange {
  return async (request) => {
    const response = await exchange(request);
    if (response.headers['content-type'] !== 'text/event-stream') return response;
    return {
      ...response,
      body: (async function* () {
        for await (const chunk of response.body) yield utf8.encode(new TextDecoder().decode(chunk).replace(/^retry:.*\n/gm, ''));
      })(),
    };
  };
}

const echoText = (result: { content: unknown }) => (result.content as Array<{ text?: string }>)[0]?.text;

describe('The request headers', () => {
  it('initialize: a POST with Accept listing application/json and text/event-stream, Content-Type application/json, and no session headers yet', async () => {
    const { client, requests } = rig();
    await within(client.connect(), 'connect()');
    const initialize = requests[0];
    expect(initialize?.method).toBe('POST');
    expect(bodyOf(initialize)?.method).toBe('initialize');
    const headers = headersOf(initialize);
    expect(mediaTypes(headers.accept)).toEqual(['application/json', 'text/event-stream']);
    expect(mediaTypes(headers['content-type'])).toEqual(['application/json']);
    expect(headers['mcp-session-id']).toBeUndefined();
    expect(headers['mcp-protocol-version']).toBeUndefined();
  });

  it('after initialize: every request carries Mcp-Session-Id and MCP-Protocol-Version', async () => {
    const { client, requests } = rig();
    await within(client.connect(), 'connect()');
    await within(client.listTools(), 'listTools()');
    await within(client.callTool('echo', { text: 'hi' }), 'callTool()');
    expect(methodsOf(requests)).toEqual(['initialize', 'notifications/initialized', 'tools/list', 'tools/call']);
    for (const later of requests.slice(1)) {
      expect(headersOf(later)).toMatchObject({ 'mcp-session-id': 'session-1', 'mcp-protocol-version': '2025-11-25' });
      expect(mediaTypes(headersOf(later).accept)).toEqual(['application/json', 'text/event-stream']);
    }
  });

  it('MCP-Protocol-Version is the version the initialize result chose, not the one offered', async () => {
    const { client, requests } = rig({ answerVersion: '2025-06-18' });
    await within(client.connect(), 'connect()');
    await within(client.ping(), 'ping()');
    expect(bodyOf(requests[0])?.params?.protocolVersion).toBe('2025-11-25');
    expect(headersOf(requests.at(-1))['mcp-protocol-version']).toBe('2025-06-18');
  });
});

describe('Answers: 202, JSON or a stream', () => {
  it('a notification gets 202 Accepted: no body to read, nothing for the client, nothing wrong', async () => {
    const { client, events, requests, errors } = rig();
    await within(client.connect(), 'connect()');
    await within(client.ping(), 'ping()');
    expect(methodsOf(requests)).toEqual(['initialize', 'notifications/initialized', 'ping']);
    // Two answers reached the client (initialize and ping); the 202 added none.
    expect(events.filter((event) => event.type === 'received')).toHaveLength(2);
    expect(events.filter((event) => event.type === 'protocol-error')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('a request answered with application/json: the result reaches the caller', async () => {
    const { client } = rig();
    await within(client.connect(), 'connect()');
    expect(echoText(await within(client.callTool('echo', { text: '你好' }), 'callTool()'))).toBe('你好');
    expect(await within(client.listTools(), 'listTools()')).toHaveLength(createEchoTools().length);
  });

  it('a request answered with text/event-stream: the priming event is skipped, related notifications come first, then the result', async () => {
    const { client, events, errors } = rig({ handler: { streamRequest: (request: JsonRpcRequest) => request.method !== 'initialize' } });
    await within(client.connect(), 'connect()');
    const result = await within(client.sendRequest('tools/call', { name: 'echo', arguments: { text: 'streamed' }, _meta: { progressToken: 'p1' } }), 'tools/call');
    expect(echoText(result as { content: unknown })).toBe('streamed');
    expect(notifications(events)).toEqual(['notifications/progress']);
    expect(events.filter((event) => event.type === 'protocol-error')).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('an HTTP error for a request rejects the caller with McpRpcError instead of leaving it waiting', async () => {
    const { client, requests } = rig({ handler: { endpoint: '/elsewhere' } });
    const error = await rejectionOf(() => client.initialize(), 'initialize() against the wrong endpoint');
    expect(error).toBeInstanceOf(McpRpcError);
    expect(requests).toHaveLength(1); // the POST went out and came back 404: no handshake to retry
  });
});

describe('The session', () => {
  it('keeps the Mcp-Session-Id of the initialize response', async () => {
    const { client, transport } = rig();
    expect(transport.session).toBeUndefined();
    await within(client.connect(), 'connect()');
    expect(transport.session).toBe('session-1');
  });

  it('a 404 for a request that carried the session: initialize again without a session id, send initialized, then the request once more', async () => {
    const { client, handler, transport, requests } = rig();
    await within(client.connect(), 'connect()');
    handler.closeAll(); // the server restarted: it knows no session any more
    expect(echoText(await within(client.callTool('echo', { text: 'again' }), 'callTool() after the server forgot the session'))).toBe('again');
    expect(methodsOf(requests)).toEqual(['initialize', 'notifications/initialized', 'tools/call', 'initialize', 'notifications/initialized', 'tools/call']);
    expect(headersOf(requests[3])['mcp-session-id']).toBeUndefined();
    expect(bodyOf(requests[3])?.params).toEqual(bodyOf(requests[0])?.params);
    expect(headersOf(requests[4])['mcp-session-id']).toBe('session-2');
    expect(headersOf(requests[5])['mcp-session-id']).toBe('session-2');
    expect(transport.session).toBe('session-2');
  });

  it('a second 404 after initializing again is the caller\'s error: one new handshake, no loop', async () => {
    let forget = false;
    let handler: Rig['handler'] | undefined;
    // From now on the server forgets every session right after it is made.
    const wrap = (exchange: HttpExchange): HttpExchange => async (request) => {
      const response = await exchange(request);
      if (forget && bodyOf(request)?.method === 'initialize') handler?.closeAll();
      return response;
    };
    const setup = rig({ wrap });
    handler = setup.handler;
    await within(setup.client.connect(), 'connect()');
    forget = true;
    setup.handler.closeAll();
    expect(await rejectionOf(() => setup.client.callTool('echo', { text: 'lost' }), 'callTool() against a server that keeps forgetting')).toBeInstanceOf(McpRpcError);
    expect(methodsOf(setup.requests).filter((method) => method === 'initialize')).toHaveLength(2);
  });

  it('close() sends DELETE with the session id', async () => {
    const { client, requests, handler } = rig();
    await within(client.connect(), 'connect()');
    expect(handler.sessionCount).toBe(1);
    client.close();
    await settle();
    const last = requests.at(-1);
    expect(last?.method).toBe('DELETE');
    expect(headersOf(last)['mcp-session-id']).toBe('session-1');
    expect(handler.sessionCount).toBe(0);
  });

  it('with listen, opens the server\'s own stream after initialized: GET, Accept text/event-stream, the session headers', async () => {
    const channels: Array<{ send(message: unknown): void }> = [];
    const base = echoServer();
    const { client, requests, events } = rig({
      transport: { listen: true },
      handler: { createServer: (channel) => (channels.push(channel as { send(message: unknown): void }), base(channel)) },
    });
    await within(client.connect(), 'connect()');
    await settle();
    const get = requests.find((request) => request.method === 'GET');
    expect(mediaTypes(headersOf(get).accept)).toEqual(['text/event-stream']);
    expect(headersOf(get)).toMatchObject({ 'mcp-session-id': 'session-1', 'mcp-protocol-version': '2025-11-25' });
    expect(headersOf(get)['last-event-id']).toBeUndefined();
    channels[0]!.send(encodeNotification('notifications/tools/list_changed'));
    await settle();
    expect(notifications(events)).toEqual(['notifications/tools/list_changed']);
  });

  it('a server without that stream answers the GET with 405, and the session goes on', async () => {
    const { client, requests } = rig({ transport: { listen: true }, handler: { standaloneStream: false } });
    await within(client.connect(), 'connect()');
    await settle();
    expect(requests.filter((request) => request.method === 'GET')).toHaveLength(1);
    expect(echoText(await within(client.callTool('echo', { text: 'still here' }), 'callTool()'))).toBe('still here');
  });
});

describe('Resuming a dropped stream', () => {
  const streamed = { streamRequest: (request: JsonRpcRequest) => request.method === 'tools/call' };

  it('a stream that ends before its response: wait the server\'s retry, then GET with Last-Event-ID and the session headers', async () => {
    const { client, requests, sleeps } = rig({ handler: streamed, wrap: dropStreams(1, 1) });
    await within(client.connect(), 'connect()');
    expect(echoText(await within(client.callTool('echo', { text: 'resumed' }), 'callTool()'))).toBe('resumed');
    expect(sleeps).toEqual([7]);
    const resume = requests.at(-1);
    expect(resume?.method).toBe('GET');
    expect(resume?.body).toBeUndefined();
    expect(mediaTypes(headersOf(resume).accept)).toEqual(['text/event-stream']);
    expect(headersOf(resume)).toMatchObject({ 'last-event-id': '1/0', 'mcp-session-id': 'session-1', 'mcp-protocol-version': '2025-11-25' });
  });

  it('resumes from the last event id it saw, so nothing arrives twice (a server that closes the connection to poll)', async () => {
    const { client, requests, sleeps, events } = rig({ handler: streamed });
    await within(client.connect(), 'connect()');
    const result = await within(client.sendRequest('tools/call', { name: 'echo', arguments: { text: 'poll' }, _meta: { progressToken: 3 } }), 'tools/call');
    expect(echoText(result as { content: unknown })).toBe('poll');
    expect(notifications(events)).toEqual(['notifications/progress', 'notifications/message']);
    expect(sleeps).toEqual([7]);
    expect(headersOf(requests.at(-1))['last-event-id']).toBe('1/2');
  });

  it('without a retry from the server, waits defaultRetryMs', async () => {
    const { client, sleeps } = rig({ handler: streamed, wrap: (exchange) => dropStreams(1, 1)(withoutRetry(exchange)), transport: { defaultRetryMs: 250 } });
    await within(client.connect(), 'connect()');
    expect(echoText(await within(client.callTool('echo', { text: 'x' }), 'callTool()'))).toBe('x');
    expect(sleeps).toEqual([250]);
  });

  it('a stream that carried no event id cannot be resumed: the caller gets an error, and no GET is sent', async () => {
    const withoutIds = (exchange: HttpExchange): HttpExchange => async (request) => {
      const response = await exchange(request);
      if (response.headers['content-type'] !== 'text/event-stream') return response;
      return {
        ...response,
        body: (async function* () {
          for await (const chunk of response.body) yield utf8.encode(new TextDecoder().decode(chunk).replace(/^id:.*\n/gm, ''));
        })(),
      };
    };
    const { client, requests } = rig({ handler: streamed, wrap: (exchange) => dropStreams(1, 1)(withoutIds(exchange)) });
    await within(client.connect(), 'connect()');
    expect(await rejectionOf(() => client.callTool('echo', { text: 'lost' }), 'callTool()')).toBeInstanceOf(McpRpcError);
    expect(requests.filter((request) => request.method === 'GET')).toEqual([]);
  });

  it('a 405 on the resume GET means the server will not resume: the caller gets an error at once, with no second GET', async () => {
    // The POST's stream drops; the server answers any GET with 405 Method Not Allowed.
    const gets: HttpClientRequest[] = [];
    const refuseGet = (exchange: HttpExchange): HttpExchange => async (request) => {
      if (request.method !== 'GET') return exchange(request);
      gets.push(request);
      return { status: 405, headers: { allow: 'POST, DELETE' }, body: (async function* () {})(), cancel: () => {} };
    };
    const { client, sleeps } = rig({ handler: streamed, wrap: (exchange) => refuseGet(dropStreams(1, 1)(exchange)), transport: { maxResumeAttempts: 3 } });
    await within(client.connect(), 'connect()');
    expect(await rejectionOf(() => client.callTool('echo', { text: 'refused' }), 'callTool()')).toBeInstanceOf(McpRpcError);
    expect(gets).toHaveLength(1);
    expect(headersOf(gets[0])['last-event-id']).toBe('1/0');
    expect(sleeps).toEqual([7]);
  });

  it('gives up after maxResumeAttempts failed GETs in a row: the caller gets an error', async () => {
    let handler: Rig['handler'] | undefined;
    // The connection drops, and the server restarts before the client comes back: every GET is a 404.
    const wrap = (exchange: HttpExchange): HttpExchange => {
      const dropping = dropStreams(1, 1)(exchange);
      return async (request) => {
        const response = await dropping(request);
        if (request.method === 'POST' && response.headers['content-type'] === 'text/event-stream') handler?.closeAll();
        return response;
      };
    };
    const setup = rig({ handler: streamed, wrap, transport: { maxResumeAttempts: 2 } });
    handler = setup.handler;
    await within(setup.client.connect(), 'connect()');
    expect(await rejectionOf(() => setup.client.callTool('echo', { text: 'gone' }), 'callTool()')).toBeInstanceOf(McpRpcError);
    expect(setup.requests.filter((request) => request.method === 'GET')).toHaveLength(2);
    expect(setup.sleeps).toEqual([7, 7]);
  });
});

// ---- against the reference ----

const chunkSplits = fc.array(fc.integer({ min: 1, max: 7 }), { maxLength: 40 });
const piece = fc.constantFrom('a', 'Z', ' ', ':', '你', '😀', 'é', 'data', '\u0000', '1');
const text = fc.array(piece, { maxLength: 6 }).map((parts) => parts.join(''));
const line = fc.oneof(
  { weight: 5, arbitrary: text.map((value) => `data: ${value}`) },
  { weight: 1, arbitrary: text.map((value) => `data:${value}`) },
  { weight: 1, arbitrary: fc.constant('data') },
  { weight: 2, arbitrary: fc.constantFrom('event: ping', 'event:', 'event: message') },
  { weight: 2, arbitrary: text.map((value) => `id: ${value}`) },
  { weight: 2, arbitrary: fc.constantFrom('retry: 10', 'retry: 2500', 'retry:0', 'retry: x1', 'retry:  5') },
  { weight: 1, arbitrary: text.map((value) => `:${value}`) },
  { weight: 1, arbitrary: text.map((value) => `${value}: field`) },
);
const stream = fc.record({
  bom: fc.boolean(),
  blocks: fc.array(fc.array(line, { maxLength: 4 }), { maxLength: 6 }),
  endings: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 1, maxLength: 8 }),
  unterminated: fc.option(line, { nil: undefined }),
  splits: chunkSplits,
});
type Stream = typeof stream extends fc.Arbitrary<infer T> ? T : never;

function streamBytes(value: Stream): Uint8Array {
  let n = 0;
  const end = () => value.endings[n++ % value.endings.length]!;
  let text = value.bom ? '\uFEFF' : '';
  for (const block of value.blocks) {
    for (const field of block) text += field + end();
    text += end();
  }
  if (value.unterminated !== undefined) text += value.unterminated + end();
  return utf8.encode(text);
}

/** What a reader of class `Reader` reports after each chunk: events, lastEventId, retry. */
function readAll(Reader: new () => Pick<SseReader, 'push' | 'lastEventId' | 'retry'>, value: Stream): unknown[] {
  const all = streamBytes(value);
  const reader = new Reader();
  const log: unknown[] = [];
  let at = 0;
  for (const size of [...value.splits, all.length]) {
    if (at >= all.length) break;
    const chunk = all.slice(at, at + size);
    at += chunk.length;
    log.push({ events: eventsOf(reader, [chunk]), lastEventId: reader.lastEventId, retry: reader.retry });
  }
  return log;
}

type Op = { kind: 'call'; progress: boolean; stream: boolean; poll: boolean; drop: number } | { kind: 'ping' } | { kind: 'list' } | { kind: 'forget' };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('call' as const), progress: fc.boolean(), stream: fc.boolean(), poll: fc.boolean(), drop: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'ping' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'list' as const }) },
  { weight: 2, arbitrary: fc.constant({ kind: 'forget' as const }) },
);
const session = fc.record({
  retryMs: fc.constantFrom(0, 7, 1000, 3000),
  answerVersion: fc.option(fc.constantFrom('2025-06-18', '2025-03-26'), { nil: undefined }),
  ops: fc.array(op, { minLength: 1, maxLength: 6 }),
});
type Session = typeof session extends fc.Arbitrary<infer T> ? T : never;

/** What a request looked like, in terms that do not depend on style: header names in lower case, media types sorted, the transport's own ids left out. */
function shapeOf(request: HttpClientRequest): unknown {
  const headers = headersOf(request);
  const shaped: Record<string, unknown> = { ...headers };
  if ('accept' in headers) shaped.accept = mediaTypes(headers.accept);
  if ('content-type' in headers) shaped['content-type'] = mediaTypes(headers['content-type']);
  const body = bodyOf(request);
  return { method: request.method, headers: shaped, body: body === undefined ? undefined : body.method === 'initialize' ? { method: body.method, params: body.params } : body };
}

/** Plays `value` with a transport of class `Transport`: what it sent, what each call got, what the client heard, how long it waited. */
async function play(Transport: TransportClass, value: Session): Promise<unknown> {
  // Which POST streams lose their connection, and after how many chunks: set per call below.
  let dropNext = 0;
  const wrap = (exchange: HttpExchange): HttpExchange => async (request) => {
    const response = await exchange(request);
    if (dropNext === 0 || request.method !== 'POST' || response.headers['content-type'] !== 'text/event-stream') return response;
    const chunks = dropNext;
    dropNext = 0;
    return cutAfter(response, chunks);
  };
  let streamCalls = false;
  const { client, transport, requests, sleeps, events, handler } = rig({
    Transport,
    wrap,
    answerVersion: value.answerVersion,
    handler: { retryMs: value.retryMs, streamRequest: (request: JsonRpcRequest) => streamCalls && request.method === 'tools/call' },
  });
  const outcomes: unknown[] = [];
  const settleCall = async (what: string, run: () => Promise<unknown>) => {
    try {
      outcomes.push({ what, value: await within(run(), what) });
    } catch (error) {
      outcomes.push({ what, error: error instanceof McpRpcError ? 'McpRpcError' : String(error) });
    }
    outcomes.push({ session: transport.session });
  };
  await settleCall('connect', () => client.connect());
  for (const [index, step] of value.ops.entries()) {
    if (step.kind === 'forget') {
      handler.closeAll();
      continue;
    }
    if (step.kind === 'ping') await settleCall('ping', () => client.ping());
    else if (step.kind === 'list') await settleCall('tools/list', () => client.listTools());
    else {
      streamCalls = step.stream;
      dropNext = step.drop;
      const params = { name: 'echo', arguments: { text: step.poll ? 'poll' : `call ${index}` }, ...(step.progress ? { _meta: { progressToken: index } } : {}) };
      await settleCall(`tools/call ${index}`, () => client.sendRequest('tools/call', params));
      dropNext = 0;
    }
  }
  client.close();
  await settle();
  return { requests: requests.map(shapeOf), outcomes, heard: notifications(events), sleeps };
}

describe('Any exchange', () => {
  it('for any events, line ends and chunking: the same events, lastEventId and retry as the reference', PROPERTY_TEST, async () => {
    const check = (value: Stream) => ({
      expected: readAll(reference.SseReader, value),
      actual: (() => {
        try {
          return readAll(SseReader, value);
        } catch (error) {
          return [{ threw: String(error) }];
        }
      })(),
    });
    // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
    const pace = propertyPacer();
    const details = await fc.check(
      fc.asyncProperty(stream, async (value) => {
        await pace();
        const { expected, actual } = check(value);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 300, seed: 6 },
    );
    if (!details.failed || !details.counterexample) return;
    const [value] = details.counterexample;
    const { expected, actual } = check(value);
    expect(actual, `for the stream ${JSON.stringify(new TextDecoder().decode(streamBytes(value)))} in chunks ${JSON.stringify(value.splits)}`).toEqual(expected);
    throw new Error(`differs from the reference for ${JSON.stringify(value)} (only on some runs)`);
  });

  it('for any session: the same requests and headers, the same answers, notifications and waits as the reference', PROPERTY_TEST, async () => {
    const check = async (value: Session) => ({
      expected: await play(reference.HttpClientTransport, value),
      actual: await play(HttpClientTransport, value).catch((error: unknown) => ({ threw: String(error) })),
    });
    // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
    const pace = propertyPacer();
    const details = await fc.check(
      fc.asyncProperty(session, async (value) => {
        await pace();
        const { expected, actual } = await check(value);
        expect(actual).toEqual(expected);
      }),
      // A failing session is not shrunk: a client that hangs would make every shrinking step wait.
      { numRuns: 40, seed: 6, endOnFailure: true },
    );
    if (!details.failed || !details.counterexample) return;
    const [value] = details.counterexample;
    const { expected, actual } = await check(value);
    expect(actual, `for the session ${JSON.stringify(value)}`).toEqual(expected);
    throw new Error(`differs from the reference for the session ${JSON.stringify(value)} (only on some runs)`);
  });
});
