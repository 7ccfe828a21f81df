import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ClientClosedError,
  ClientStateError,
  McpClient,
  McpRpcError,
  ProtocolViolationError,
  RequestTimeoutError,
  ServerRequestRefused,
  UnsupportedVersionError,
  type ClientEvent,
  type McpClientOptions,
} from './client.ts';
import { getFraming } from './framing/index.ts';
import { FRAMING_NAMES, type FramingName } from './framing/types.ts';
import { encodeError, encodeNotification, encodeRequest, encodeResult, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from './jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from './mcp.ts';
import type { ByteTransport } from './transport.ts';

// ---- test doubles: a byte pipe whose far end the test plays by hand ----

class FakeTransport implements ByteTransport {
  readonly written: Uint8Array[] = [];
  /** Every message the client wrote, decoded with the same framing as the client's. */
  readonly messages: JsonRpcMessage[] = [];
  ended = false;
  failWrites = false;
  private readonly reader;
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();

  constructor(framing: FramingName) {
    this.reader = getFraming(framing).createReader();
  }
  write(bytes: Uint8Array): void {
    if (this.failWrites) throw new Error('EPIPE: the pipe is broken');
    this.written.push(bytes);
    for (const item of this.reader.push(bytes)) {
      if (item.type !== 'message') throw new Error(`client wrote an unreadable frame: ${item.detail}`);
      this.messages.push(item.value as JsonRpcMessage);
    }
  }
  end(): void {
    this.ended = true;
  }
  onData(listener: (chunk: Uint8Array) => void) {
    this.dataListeners.add(listener);
    return () => void this.dataListeners.delete(listener);
  }
  onClose(listener: (reason: string) => void) {
    this.closeListeners.add(listener);
    return () => void this.closeListeners.delete(listener);
  }
  /** Bytes from the server's stdout. */
  push(bytes: Uint8Array): void {
    for (const listener of [...this.dataListeners]) listener(bytes);
  }
  /** The server process went away. */
  close(reason: string): void {
    for (const listener of [...this.closeListeners]) listener(reason);
  }
  get listenerCount(): number {
    return this.dataListeners.size + this.closeListeners.size;
  }
}

const SERVER_INFO = { name: 'mcp-echo-server', version: '1.0.0' };
const initializeResult = (protocolVersion: string = LATEST_PROTOCOL_VERSION) => ({
  protocolVersion,
  capabilities: { tools: {} },
  serverInfo: SERVER_INFO,
  instructions: 'Call echo with { text }.',
});

/**
 * A request the test never answers: its 60 s timeout rejects it long after the test, in whichever
 * file the worker runs then (files share workers), so its rejection is handled here.
 */
function unanswered(request: Promise<unknown>): void {
  request.catch(() => {});
}

function setup(options: Partial<McpClientOptions> = {}, framing: FramingName = 'ndjson') {
  const transport = new FakeTransport(framing);
  const client = new McpClient(transport, { framing, ...options });
  const events: ClientEvent[] = [];
  client.on((event) => events.push(event));
  const encode = getFraming(framing).encode;

  const requests = () => transport.messages.filter((message): message is JsonRpcRequest => 'id' in message && 'method' in message);
  /** The latest request the client sent with this method. */
  const lastRequest = (method: string): JsonRpcRequest => {
    const found = requests().filter((request) => request.method === method).at(-1);
    if (found === undefined) throw new Error(`the client sent no ${method} request`);
    return found;
  };
  const serverSends = (message: unknown) => transport.push(encode(message));
  const reply = (method: string, result: unknown) => serverSends(encodeResult(lastRequest(method).id, result));
  const protocolErrors = () => events.filter((event) => event.type === 'protocol-error').map((event) => event.detail);

  /** Drive the whole handshake, leaving the client 'ready'. */
  async function connect() {
    const connected = client.connect();
    reply('initialize', initializeResult());
    await connected;
    expect(client.state).toBe('ready');
  }
  return { transport, client, events, requests, lastRequest, serverSends, reply, protocolErrors, connect, encode };
}

/** Let every queued promise callback run. */
async function flush(): Promise<void> {
  for (let round = 0; round < 20; round++) await Promise.resolve();
}

/** A window onto a promise's fate without awaiting it. */
function track<T>(promise: Promise<T>) {
  const state: { settled: boolean; value?: T; error?: unknown } = { settled: false };
  promise.then(
    (value) => Object.assign(state, { settled: true, value }),
    (error: unknown) => Object.assign(state, { settled: true, error }),
  );
  return state;
}

afterEach(() => {
  vi.useRealTimers();
});

// ---- the handshake ----

describe.each(FRAMING_NAMES)('McpClient handshake over %s', (framing) => {
  it('runs new → initialized → ready with the chapter’s four steps', async () => {
    const { client, transport, events, reply } = setup({ clientInfo: { name: 'agent', version: '8.0.0' } }, framing);
    expect(client.state).toBe('new');

    const initialized = client.initialize();
    expect(transport.messages).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'agent', version: '8.0.0' } } },
    ]);
    reply('initialize', initializeResult());
    expect(await initialized).toEqual(initializeResult());
    expect(client.state).toBe('initialized');
    expect(client.serverInfo).toEqual(SERVER_INFO);
    expect(client.negotiatedVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(client.instructions).toBe('Call echo with { text }.');

    client.notifyInitialized();
    expect(transport.messages.at(-1)).toEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(client.state).toBe('ready');

    const list = client.listToolsPage();
    expect(transport.messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    reply('tools/list', { tools: [{ name: 'echo', inputSchema: { type: 'object' } }] });
    expect((await list).tools.map((tool) => tool.name)).toEqual(['echo']);

    const states = events.filter((event) => event.type === 'state').map((event) => `${event.from}→${event.to}`);
    expect(states).toEqual(['new→initialized', 'initialized→ready']);
  });

  it('pairs a response that arrives one byte at a time', async () => {
    const { client, transport, encode, lastRequest } = setup({}, framing);
    const initialized = client.initialize();
    const bytes = encode(encodeResult(lastRequest('initialize').id, initializeResult()));
    for (const byte of bytes) transport.push(Uint8Array.of(byte));
    await expect(initialized).resolves.toEqual(initializeResult());
  });
});

describe('McpClient lifecycle', () => {
  it('connect() does initialize then notifications/initialized', async () => {
    const { client, transport, connect } = setup();
    await connect();
    expect(transport.messages.map((message) => ('method' in message ? message.method : 'response'))).toEqual(['initialize', 'notifications/initialized']);
    expect(client.state).toBe('ready');
  });

  it('gives the first request id 0 and pairs its response (0 is an id, not "missing")', async () => {
    const { client, serverSends } = setup();
    const initialized = client.initialize();
    serverSends(encodeResult(0, initializeResult()));
    await expect(initialized).resolves.toMatchObject({ serverInfo: SERVER_INFO });
  });

  it('starts counting at firstId when given', async () => {
    const { client, lastRequest } = setup({ firstId: 1 });
    unanswered(client.initialize());
    expect(lastRequest('initialize').id).toBe(1);
  });

  it('rejects every request before ready with ClientStateError, and sends nothing', async () => {
    const { client, transport, reply } = setup();
    for (const call of [() => client.listTools(), () => client.listToolsPage(), () => client.callTool('echo', { text: 'hi' }), () => client.ping()]) {
      const error = await call().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ClientStateError);
      expect(error).toMatchObject({ state: 'new' });
      expect((error as Error).message).toMatch(/while the client is "new".*connect\(\)/);
    }
    expect(transport.written).toEqual([]);

    // Still not allowed after initialize but before notifications/initialized.
    const initialized = client.initialize();
    reply('initialize', initializeResult());
    await initialized;
    const sentSoFar = transport.written.length;
    const error = await client.callTool('echo').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ClientStateError);
    expect((error as Error).message).toMatch(/"initialized".*notifyInitialized\(\)/);
    expect(transport.written).toHaveLength(sentSoFar);
  });

  it('refuses notifyInitialized before the initialize answer, and initialize once ready', async () => {
    const { client, transport, connect } = setup();
    expect(() => client.notifyInitialized()).toThrow(ClientStateError);
    expect(transport.written).toEqual([]);
    await connect();
    await expect(client.initialize()).rejects.toBeInstanceOf(ClientStateError);
    expect(() => client.notifyInitialized()).toThrow(/"ready"/);
    expect(transport.messages).toHaveLength(2);
  });

  it('rejects a second initialize while one is in flight, sending only one', async () => {
    const { client, requests, reply } = setup();
    const first = client.initialize();
    const second = client.initialize();
    await expect(second).rejects.toBeInstanceOf(ClientStateError);
    await expect(second).rejects.toThrow(/already in flight/);
    expect(requests().filter((request) => request.method === 'initialize')).toHaveLength(1);
    reply('initialize', initializeResult());
    await expect(first).resolves.toMatchObject({ protocolVersion: LATEST_PROTOCOL_VERSION });
  });

  it('lets initialize be retried after an error response', async () => {
    const { client, requests, serverSends, reply, lastRequest } = setup();
    const first = client.initialize();
    serverSends(encodeError(lastRequest('initialize').id, -32603, 'warming up', { retryAfterMs: 10 }));
    const error = await first.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpRpcError);
    expect(error).toMatchObject({ method: 'initialize', code: -32603, rpcMessage: 'warming up', data: { retryAfterMs: 10 } });
    expect(client.state).toBe('new');

    const second = client.initialize();
    expect(requests().map((request) => request.id)).toEqual([0, 1]);
    reply('initialize', initializeResult());
    await second;
    expect(client.state).toBe('initialized');
  });

  it('accepts an older version the client supports', async () => {
    const { client, reply } = setup();
    const initialized = client.initialize();
    reply('initialize', initializeResult('2024-11-05'));
    await initialized;
    expect(client.negotiatedVersion).toBe('2024-11-05');
  });

  it('disconnects when the server answers a version the client does not support', async () => {
    const { client, transport, reply } = setup({ supportedVersions: ['2025-06-18'], protocolVersion: '2025-06-18' });
    const initialized = client.initialize();
    expect(transport.messages[0]).toMatchObject({ params: { protocolVersion: '2025-06-18' } });
    reply('initialize', initializeResult('2024-11-05'));
    const error = await initialized.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnsupportedVersionError);
    expect(error).toMatchObject({ received: '2024-11-05', supported: ['2025-06-18'] });
    expect(client.state).toBe('closed');
    expect(transport.ended).toBe(true);
    expect(client.serverInfo).toBeUndefined();
    await expect(client.initialize()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('disconnects on an initialize result without the required fields', async () => {
    const { client, transport, reply } = setup();
    const initialized = client.initialize();
    reply('initialize', { capabilities: {}, serverInfo: SERVER_INFO });
    await expect(initialized).rejects.toBeInstanceOf(ProtocolViolationError);
    expect(client.state).toBe('closed');
    expect(transport.ended).toBe(true);
  });

  it('leaves instructions undefined when the server gives none', async () => {
    const { client, reply } = setup();
    const initialized = client.initialize();
    reply('initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, serverInfo: SERVER_INFO });
    await initialized;
    expect(client.instructions).toBeUndefined();
  });
});

// ---- pairing responses: the chapter's "id mismatch" failure mode ----

describe('McpClient pairing', () => {
  it('pairs responses that arrive out of order by id, not by arrival order', async () => {
    const { client, connect, requests, serverSends } = setup();
    await connect();
    const first = client.callTool('echo', { text: 'first' });
    const second = client.callTool('echo', { text: 'second' });
    const list = client.listToolsPage();
    const [idFirst, idSecond, idList] = requests().slice(1).map((request) => request.id);
    expect([idFirst, idSecond, idList]).toEqual([1, 2, 3]);

    serverSends(encodeResult(idList!, { tools: [] }));
    serverSends(encodeResult(idSecond!, { content: [{ type: 'text', text: 'second' }] }));
    serverSends(encodeResult(idFirst!, { content: [{ type: 'text', text: 'first' }] }));
    expect(await first).toEqual({ content: [{ type: 'text', text: 'first' }] });
    expect(await second).toEqual({ content: [{ type: 'text', text: 'second' }] });
    expect(await list).toEqual({ tools: [] });
  });

  it('reports a response with an unknown id and still pairs the real one', async () => {
    const { client, connect, serverSends, lastRequest, protocolErrors } = setup();
    await connect();
    const call = track(client.callTool('echo', { text: 'mine' }));
    const id = lastRequest('tools/call').id;
    expect(id).toBe(1);

    serverSends(encodeResult(99, { content: [{ type: 'text', text: 'stray' }] }));
    serverSends(encodeResult('1', { content: [{ type: 'text', text: 'string id is another id' }] }));
    await flush();
    expect(call.settled).toBe(false);
    expect(protocolErrors()).toEqual([expect.stringMatching(/unknown id 99/), expect.stringMatching(/unknown id "1"/)]);

    serverSends(encodeResult(id, { content: [{ type: 'text', text: 'mine' }] }));
    await flush();
    expect(call.value).toEqual({ content: [{ type: 'text', text: 'mine' }] });
    expect(client.state).toBe('ready');
  });

  it('reports a second response to the same id instead of handing it to another waiter', async () => {
    const { client, connect, serverSends, protocolErrors } = setup();
    await connect();
    const one = client.ping();
    const two = track(client.ping());
    serverSends(encodeResult(1, {}));
    serverSends(encodeResult(1, {}));
    await one;
    await flush();
    expect(two.settled).toBe(false);
    expect(protocolErrors()).toEqual([expect.stringMatching(/unknown id 1/)]);
  });

  it('never lets a server notification resolve a waiter', async () => {
    const { client, connect, serverSends, reply, events } = setup();
    await connect();
    const call = track(client.callTool('echo', { text: 'x' }));
    serverSends(encodeNotification('notifications/message', { level: 'info', data: 'working' }));
    serverSends(encodeNotification('notifications/tools/list_changed'));
    await flush();
    expect(call.settled).toBe(false);
    expect(events.filter((event) => event.type === 'notification').map((event) => event.message.method)).toEqual([
      'notifications/message',
      'notifications/tools/list_changed',
    ]);
    reply('tools/call', { content: [] });
    await flush();
    expect(call.value).toEqual({ content: [] });
  });

  it('reports invalid messages and unreadable frames (a log line on stdout) without crashing', async () => {
    const { client, connect, transport, serverSends, reply, protocolErrors } = setup();
    await connect();
    const call = track(client.callTool('echo', { text: 'x' }));
    transport.push(new TextEncoder().encode('listening on stdio...\n'));
    serverSends({ jsonrpc: '1.0', id: 1, result: {} });
    // Both forms of "I could not read your request": JSON-RPC's null id and MCP's missing id.
    serverSends({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    serverSends({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request' } });
    await flush();
    expect(call.settled).toBe(false);
    expect(protocolErrors()).toEqual([
      expect.stringMatching(/unreadable frame at byte \d+/),
      expect.stringMatching(/invalid JSON-RPC message.*"jsonrpc"/),
      expect.stringMatching(/without a request id.*Parse error/),
      expect.stringMatching(/without a request id.*Invalid Request/),
    ]);
    reply('tools/call', { content: [{ type: 'text', text: 'x' }] });
    await flush();
    expect(call.value).toEqual({ content: [{ type: 'text', text: 'x' }] });
  });

  it('rejects with McpRpcError carrying code, message and data', async () => {
    const { client, connect, serverSends, lastRequest } = setup();
    await connect();
    const call = client.callTool('nope', {});
    serverSends(encodeError(lastRequest('tools/call').id, -32602, 'Unknown tool: nope', { name: 'nope' }));
    const error = await call.catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpRpcError);
    expect(error).toMatchObject({ method: 'tools/call', code: -32602, rpcMessage: 'Unknown tool: nope', data: { name: 'nope' } });
    expect((error as Error).message).toBe('tools/call failed with JSON-RPC error -32602: Unknown tool: nope');
  });

  it('sends tools/call with name and arguments ({} when none) and returns an isError result as a result', async () => {
    const { client, connect, lastRequest, reply } = setup();
    await connect();
    const call = client.callTool('echo');
    expect(lastRequest('tools/call').params).toEqual({ name: 'echo', arguments: {} });
    reply('tools/call', { content: [{ type: 'text', text: 'text is required' }], isError: true });
    await expect(call).resolves.toEqual({ content: [{ type: 'text', text: 'text is required' }], isError: true });
  });

  it('refuses results in the wrong shape, and reads a missing content as empty', async () => {
    const { client, connect, reply } = setup();
    await connect();
    const list = client.listToolsPage();
    reply('tools/list', { tool: [] });
    await expect(list).rejects.toBeInstanceOf(ProtocolViolationError);
    const call = client.callTool('echo');
    reply('tools/call', { content: 'hello' });
    await expect(call).rejects.toThrow(/"content" is not an array/);
    const bare = client.callTool('echo');
    reply('tools/call', { structuredContent: { n: 1 } });
    await expect(bare).resolves.toEqual({ structuredContent: { n: 1 }, content: [] });
    expect(client.state).toBe('ready');
  });

  it('lists the requests still pending', async () => {
    const { client, connect, reply } = setup();
    await connect();
    void client.callTool('echo', { text: 'a' });
    unanswered(client.ping());
    expect(client.pendingRequests().map(({ id, method }) => ({ id, method }))).toEqual([
      { id: 1, method: 'tools/call' },
      { id: 2, method: 'ping' },
    ]);
    reply('tools/call', { content: [] });
    await flush();
    expect(client.pendingRequests().map((request) => request.id)).toEqual([2]);
  });
});

// ---- timeouts and cancellation ----

describe('McpClient timeouts', () => {
  it('rejects a slow call with RequestTimeoutError and sends notifications/cancelled', async () => {
    vi.useFakeTimers();
    const { client, connect, transport, serverSends, protocolErrors, events } = setup({ requestTimeoutMs: 1000 });
    await connect();
    const call = client.callTool('slow', {}).catch((caught: unknown) => caught);
    vi.advanceTimersByTime(1000);
    const error = await call;
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: 'tools/call', id: 1, timeoutMs: 1000 });
    expect(transport.messages.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, reason: 'No response within 1000 ms' },
    });
    expect(client.pendingRequests()).toEqual([]);

    // The answer that comes too late is the race the spec expects: ignored quietly, not blamed on
    // the server. Only a second answer to the same id is the server's mistake.
    serverSends(encodeResult(1, { content: [] }));
    expect(protocolErrors()).toEqual([]);
    expect(events.filter((event) => event.type === 'late-response')).toEqual([{ type: 'late-response', id: 1, method: 'tools/call' }]);
    serverSends(encodeResult(1, { content: [] }));
    expect(protocolErrors()).toEqual([expect.stringMatching(/unknown id 1/)]);
    expect(client.state).toBe('ready');
  });

  it('uses the per-call timeout over the default (60 s, like the SDK)', async () => {
    vi.useFakeTimers();
    const { client, connect } = setup();
    await connect();
    const quick = track(client.callTool('a', {}, { timeoutMs: 50 }));
    const normal = track(client.callTool('b', {}));
    vi.advanceTimersByTime(50);
    await flush();
    expect(quick.error).toBeInstanceOf(RequestTimeoutError);
    vi.advanceTimersByTime(59_949);
    await flush();
    expect(normal.settled).toBe(false);
    vi.advanceTimersByTime(1);
    await flush();
    expect(normal.error).toBeInstanceOf(RequestTimeoutError);
  });

  it('times out initialize without cancelling it, and allows a retry', async () => {
    vi.useFakeTimers();
    const { client, transport, reply, protocolErrors } = setup({ requestTimeoutMs: 500 });
    const first = client.initialize().catch((caught: unknown) => caught);
    vi.advanceTimersByTime(500);
    expect(await first).toBeInstanceOf(RequestTimeoutError);
    expect(transport.messages.filter((message) => 'method' in message && message.method === 'notifications/cancelled')).toEqual([]);
    expect(client.state).toBe('new');

    const second = client.initialize();
    reply('initialize', initializeResult());
    await second;
    expect(client.state).toBe('initialized');
    expect(protocolErrors()).toEqual([]);
  });
});

// ---- closing ----

describe('McpClient closing', () => {
  it('close() ends stdin, rejects everything pending, and refuses later calls without sending', async () => {
    const { client, connect, transport, events } = setup();
    await connect();
    const call = client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
    const ping = client.ping().catch((caught: unknown) => caught);
    client.close();
    expect(transport.ended).toBe(true);
    expect(client.state).toBe('closed');
    expect(await call).toBeInstanceOf(ClientClosedError);
    expect(await ping).toBeInstanceOf(ClientClosedError);
    expect((await call as Error).message).toMatch(/tools\/call \(id 1\).*closed by the client/);
    expect(client.pendingRequests()).toEqual([]);

    const written = transport.written.length;
    await expect(client.listTools()).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.callTool('echo')).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.ping()).rejects.toBeInstanceOf(ClientClosedError);
    expect(transport.written).toHaveLength(written);

    client.close();
    expect(events.filter((event) => event.type === 'state' && event.to === 'closed')).toHaveLength(1);
    expect(transport.listenerCount).toBe(0);
  });

  it('close() during initialize rejects it with ClientClosedError', async () => {
    const { client } = setup();
    const initialized = client.initialize();
    client.close();
    await expect(initialized).rejects.toBeInstanceOf(ClientClosedError);
    await expect(client.initialize()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('stays closed when the initialize answer and the server exit arrive together', async () => {
    const { client, transport, reply } = setup();
    const initialized = client.initialize();
    reply('initialize', initializeResult());
    transport.close('exited right after answering');
    await expect(initialized).rejects.toBeInstanceOf(ClientClosedError);
    expect(client.state).toBe('closed');
  });

  it('the server exiting closes the client and rejects what is pending', async () => {
    const { client, connect, transport, events } = setup();
    await connect();
    const call = client.callTool('echo', { text: 'x' }).catch((caught: unknown) => caught);
    transport.close('process exited with code 1');
    const error = await call;
    expect(error).toBeInstanceOf(ClientClosedError);
    expect((error as Error).message).toMatch(/process exited with code 1/);
    expect(client.state).toBe('closed');
    expect(transport.ended).toBe(false); // nothing left to end
    expect(events.at(-1)).toMatchObject({ type: 'state', from: 'ready', to: 'closed' });
    await expect(client.ping()).rejects.toThrow(/process exited with code 1/);
  });

  it('a write that throws rejects that request and leaves no waiter behind', async () => {
    const { client, connect, transport } = setup();
    await connect();
    transport.failWrites = true;
    await expect(client.ping()).rejects.toThrow(/EPIPE/);
    expect(client.pendingRequests()).toEqual([]);
  });
});

// ---- pagination, server requests, events ----

describe('McpClient listTools', () => {
  const tool = (name: string) => ({ name, inputSchema: { type: 'object' } });

  it('follows nextCursor to the last page', async () => {
    const { client, connect, serverSends, requests } = setup();
    await connect();
    const all = client.listTools();
    const pages: Record<string, { tools: unknown[]; nextCursor?: string }> = {
      first: { tools: [tool('a'), tool('b')], nextCursor: 'page-2' },
      'page-2': { tools: [tool('c')], nextCursor: 'page-3' },
      'page-3': { tools: [tool('d')] },
    };
    for (let page = 0; page < 3; page++) {
      await flush();
      const request = requests().at(-1)!;
      const cursor = (request.params as { cursor?: string } | undefined)?.cursor ?? 'first';
      serverSends(encodeResult(request.id, pages[cursor]));
    }
    expect((await all).map((info) => info.name)).toEqual(['a', 'b', 'c', 'd']);
    expect(requests().slice(1).map((request) => request.params)).toEqual([undefined, { cursor: 'page-2' }, { cursor: 'page-3' }]);
  });

  it('stops a cursor loop with ProtocolViolationError', async () => {
    const { client, connect, serverSends, requests } = setup();
    await connect();
    const all = client.listTools().catch((caught: unknown) => caught);
    const answers = [{ tools: [], nextCursor: 'A' }, { tools: [], nextCursor: 'B' }, { tools: [], nextCursor: 'A' }];
    for (const answer of answers) {
      await flush();
      serverSends(encodeResult(requests().at(-1)!.id as JsonRpcId, answer));
    }
    const error = await all;
    expect(error).toBeInstanceOf(ProtocolViolationError);
    expect((error as Error).message).toMatch(/"A" came back twice/);
    expect(requests().filter((request) => request.method === 'tools/list')).toHaveLength(3);
  });

  it('treats nextCursor: null as the last page', async () => {
    const { client, connect, reply } = setup();
    await connect();
    const all = client.listTools();
    reply('tools/list', { tools: [tool('only')], nextCursor: null });
    expect((await all).map((info) => info.name)).toEqual(['only']);
  });
});

describe('McpClient and server requests', () => {
  it('answers the server’s ping with {} and anything else with -32601, even before ready', async () => {
    const { client, transport, serverSends } = setup();
    serverSends(encodeRequest('srv-1', 'ping'));
    serverSends(encodeRequest(7, 'sampling/createMessage', { messages: [] }));
    expect(transport.messages).toEqual([
      { jsonrpc: '2.0', id: 'srv-1', result: {} },
      { jsonrpc: '2.0', id: 7, error: { code: -32601, message: expect.stringMatching(/sampling\/createMessage/) } },
    ]);
    expect(client.state).toBe('new');
  });

  it('declares the capabilities it was given in initialize (none by default)', async () => {
    const plain = setup();
    unanswered(plain.client.initialize());
    expect(plain.lastRequest('initialize').params).toMatchObject({ capabilities: {} });
    const sampling = setup({ capabilities: { sampling: {} } });
    unanswered(sampling.client.initialize());
    expect(sampling.lastRequest('initialize').params).toMatchObject({ capabilities: { sampling: {} } });
  });

  it('answers a server request with its handler: the result once it settles, a refusal as that error, a throw as -32603', async () => {
    const decide: ((yes: boolean) => void)[] = [];
    const { transport, serverSends, connect } = setup({
      capabilities: { sampling: {} },
      serverRequests: {
        'sampling/createMessage': (params) =>
          new Promise((resolve, reject) =>
            decide.push((yes) => (yes ? resolve({ role: 'assistant', content: { type: 'text', text: `re: ${JSON.stringify(params)}` } }) : reject(new ServerRequestRefused(-1, 'User rejected sampling request')))),
          ),
        'roots/list': () => {
          throw new Error('no roots here');
        },
      },
    });
    await connect();
    const before = transport.messages.length;
    serverSends(encodeRequest(10, 'sampling/createMessage', { n: 1 }));
    serverSends(encodeRequest(11, 'sampling/createMessage', { n: 2 }));
    serverSends(encodeRequest(12, 'roots/list'));
    await flush();
    // Nothing for the sampling requests yet: a person is deciding. roots/list failed at once.
    expect(transport.messages.slice(before)).toEqual([{ jsonrpc: '2.0', id: 12, error: { code: -32603, message: expect.stringMatching(/roots\/list.*no roots here/) } }]);
    decide[1]!(false);
    decide[0]!(true);
    await flush();
    expect(transport.messages.slice(before + 1)).toEqual([
      { jsonrpc: '2.0', id: 11, error: { code: -1, message: 'User rejected sampling request' } },
      { jsonrpc: '2.0', id: 10, result: { role: 'assistant', content: { type: 'text', text: 're: {"n":1}' } } },
    ]);
  });

  it('sends nothing for a server request whose handler settles after the client closed', async () => {
    let answer: (value: unknown) => void = () => {};
    const { client, transport, serverSends, connect } = setup({ serverRequests: { 'sampling/createMessage': () => new Promise((resolve) => (answer = resolve)) } });
    await connect();
    serverSends(encodeRequest(3, 'sampling/createMessage', {}));
    client.close();
    const before = transport.messages.length;
    answer({});
    await flush();
    expect(transport.messages.length).toBe(before);
  });
});

describe('McpClient construction', () => {
  it('refuses an unknown framing name with a clear error', () => {
    expect(() => new McpClient(new FakeTransport('ndjson'), { framing: 'lsp' as FramingName })).toThrow(/Unknown framing "lsp"/);
  });
});

describe('McpClient events', () => {
  it('emits every frame sent (with its exact bytes) and received (with its offset and length)', async () => {
    const { client, transport, events, encode, serverSends } = setup();
    void client.initialize();
    const response = encodeResult(0, initializeResult());
    serverSends(encodeNotification('notifications/message', { level: 'info', data: 'hi' }));
    serverSends(response);
    await flush();

    const sent = events.filter((event) => event.type === 'sent');
    expect(sent).toHaveLength(1);
    expect(sent[0]!.bytes).toEqual(transport.written[0]);
    expect(sent[0]!.message).toMatchObject({ method: 'initialize', id: 0 });

    const received = events.filter((event) => event.type === 'received');
    const firstLength = encode(encodeNotification('notifications/message', { level: 'info', data: 'hi' })).length;
    expect(received.map(({ offset, length }) => [offset, length])).toEqual([
      [0, firstLength],
      [firstLength, encode(response).length],
    ]);
    expect(received[1]!.message).toEqual(response);
  });

  it('stops delivering events to an unsubscribed listener', async () => {
    const { client, reply } = setup();
    const seen: string[] = [];
    const unsubscribe = client.on((event) => seen.push(event.type));
    void client.initialize();
    unsubscribe();
    reply('initialize', initializeResult());
    await flush();
    expect(seen).toEqual(['sent']);
  });
});
