import { describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import { McpServer, type ServerTool } from '@learner';
// The reference solution: the property at the end compares your server with it.
import { McpServer as ReferenceServer } from '@reference/server';
import { encodeNotification, encodeRequest, encodeResult, type JsonRpcId, type JsonRpcResponse } from '@protocol/jsonrpc';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from '@protocol/mcp';

// ---- tools, built the way a real server declares them ----

const echo: ServerTool = {
  info: {
    name: 'echo',
    description: 'Echo the given text back verbatim.',
    inputSchema: {
      type: 'object',
      properties: { text: { type: 'string', description: 'The text to send back, unchanged.' } },
      required: ['text'],
      additionalProperties: false,
    },
  },
  run: (args) => args.text as string,
};

const fail: ServerTool = {
  info: {
    name: 'fail',
    description: 'Always fails, to show a tool failure reported as data.',
    inputSchema: { type: 'object', properties: {} },
  },
  run: () => {
    throw new Error('the disk is on fire');
  },
};

const failLater: ServerTool = {
  info: {
    name: 'fail_later',
    description: 'Fails after an await, the way a tool calling a slow service fails.',
    inputSchema: { type: 'object', properties: {} },
  },
  run: async () => {
    await new Promise((resolve) => setTimeout(resolve, 1));
    throw new Error('the service timed out');
  },
};

const weather: ServerTool = {
  info: {
    name: 'weather',
    description: 'Today\'s weather for a city, as text plus structured data.',
    inputSchema: { type: 'object', properties: { city: { type: 'string', description: 'City name.' } }, required: ['city'] },
  },
  run: (args): CallToolResult => ({
    content: [{ type: 'text', text: `Sunny in ${String(args.city)}` }],
    structuredContent: { city: args.city, sky: 'sunny' },
  }),
};

const SERVER_INFO = { name: 'spec-echo-server', version: '1.0.0' };
const CLIENT_INFO = { name: 'spec-client', version: '1.0.0' };

// ---- helpers ----

function newServer(options: { requireInitialized?: boolean; tools?: ServerTool[] } = {}) {
  return new McpServer({ serverInfo: SERVER_INFO, tools: options.tools ?? [echo, fail, failLater, weather], ...options });
}

const initialize = (id: JsonRpcId = 1, protocolVersion: string = LATEST_PROTOCOL_VERSION) =>
  encodeRequest(id, 'initialize', { protocolVersion, capabilities: {}, clientInfo: CLIENT_INFO });
const initialized = () => encodeNotification('notifications/initialized');
const callTool = (id: JsonRpcId, name: string, args?: Record<string, unknown>) =>
  encodeRequest(id, 'tools/call', args === undefined ? { name } : { name, arguments: args });

/**
 * A server that has been through the handshake: initialize, then notifications/initialized.
 * (What the notification returns is checked in its own tests, so one bug fails one step.)
 */
async function readyServer(options: { requireInitialized?: boolean; tools?: ServerTool[] } = {}) {
  const server = newServer(options);
  resultOf(await server.handle(initialize(1)), 1);
  await server.handle(initialized());
  return server;
}

/** The `result` of a success response with this id (fails the test on anything else). */
function resultOf(response: JsonRpcResponse | null, id: JsonRpcId): Record<string, unknown> {
  expect(response, 'expected a response, got null (nothing would be written)').not.toBeNull();
  expect(response, 'expected a result, got an error response').not.toHaveProperty('error');
  expect(response).toMatchObject({ jsonrpc: '2.0', id });
  return (response as { result: Record<string, unknown> }).result;
}

/** Checks an error response: right id, right code, a message, and no result. */
function expectError(response: JsonRpcResponse | null, id: JsonRpcId | null, code: number): void {
  expect(response, 'expected an error response, got null (nothing would be written)').not.toBeNull();
  expect(response, 'expected an error response, got a result').not.toHaveProperty('result');
  expect(response).toMatchObject({ jsonrpc: '2.0', id, error: { code } });
  expect(typeof (response as { error: { message: unknown } }).error.message).toBe('string');
}

/** The text of the first content block of a tools/call result. */
const firstText = (result: Record<string, unknown>) => (result.content as Array<{ text?: string }>)[0]?.text;

// ---- the spec ----

describe('initialize and version negotiation', () => {
  it('answers initialize with protocolVersion, capabilities.tools and serverInfo', async () => {
    const result = resultOf(await newServer().handle(initialize(1)), 1);
    expect(result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    expect(result.capabilities).toMatchObject({ tools: {} });
    expect(result.serverInfo).toEqual(SERVER_INFO);
  });

  it.each([...SUPPORTED_PROTOCOL_VERSIONS])('agrees to %s when the client asks for it', async (version) => {
    const result = resultOf(await newServer().handle(initialize(1, version)), 1);
    expect(result.protocolVersion).toBe(version);
  });

  it('answers a version it does not know with its own latest (2025-11-25), and lets the client decide', async () => {
    const result = resultOf(await newServer().handle(initialize(1, '2099-01-01')), 1);
    expect(result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });
});

describe('Notifications are never answered', () => {
  it('notifications/initialized gets no response: handle() resolves to null', async () => {
    const server = newServer();
    resultOf(await server.handle(initialize(1)), 1);
    expect(await server.handle(initialized()), 'a notification must not be answered').toBeNull();
  });

  it.each(['notifications/cancelled', 'notifications/progress', 'notifications/roots/list_changed', 'no/such/notification'])(
    '%s gets no response either, not even "method not found"',
    async (method) => {
      const server = await readyServer();
      expect(await server.handle(encodeNotification(method, { requestId: 99 })), 'a notification must not be answered').toBeNull();
    },
  );

  it('a notification before initialize is not answered either', async () => {
    expect(await newServer().handle(initialized()), 'a notification must not be answered').toBeNull();
  });

  it('a response sent to the server is not answered (that would start an endless echo)', async () => {
    const server = await readyServer();
    expect(await server.handle(encodeResult(7, {})), 'a response must not be answered').toBeNull();
  });
});

describe('The initialized gate', () => {
  it('tools/list and tools/call before initialize are refused with -32600', async () => {
    const server = newServer();
    expectError(await server.handle(encodeRequest(1, 'tools/list')), 1, -32600);
    expectError(await server.handle(callTool(2, 'echo', { text: 'hi' })), 2, -32600);
  });

  it('after initialize but before notifications/initialized, tools/list and tools/call are refused with -32600', async () => {
    const server = newServer();
    resultOf(await server.handle(initialize(1)), 1);
    expectError(await server.handle(encodeRequest(2, 'tools/list')), 2, -32600);
    expectError(await server.handle(callTool(3, 'echo', { text: 'hi' })), 3, -32600);
  });

  it('once notifications/initialized has arrived, the same requests work', async () => {
    const server = newServer();
    resultOf(await server.handle(initialize(1)), 1);
    expectError(await server.handle(encodeRequest(2, 'tools/list')), 2, -32600);
    await server.handle(initialized());
    resultOf(await server.handle(encodeRequest(3, 'tools/list')), 3);
    resultOf(await server.handle(callTool(4, 'echo', { text: 'hi' })), 4);
  });

  it('with requireInitialized: false (the official SDK\'s lenient way), tools/list works right after initialize', async () => {
    const server = newServer({ requireInitialized: false });
    resultOf(await server.handle(initialize(1)), 1);
    resultOf(await server.handle(encodeRequest(2, 'tools/list')), 2);
  });

  it('initialize is answered once per session: a second one is refused with -32600', async () => {
    const server = await readyServer();
    expectError(await server.handle(initialize(5)), 5, -32600);
  });
});

describe('tools/list and tools/call', () => {
  it('tools/list reports every tool with its name, description and inputSchema', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(encodeRequest(1, 'tools/list')), 1);
    expect(result.tools).toEqual([echo.info, fail.info, failLater.info, weather.info]);
  });

  it('tools/call runs echo and returns its text as one text content block', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(callTool(1, 'echo', { text: 'hello from MCP' })), 1);
    expect(result).toEqual({ content: [{ type: 'text', text: 'hello from MCP' }] });
  });

  it('a tool that returns a whole result ({ content, structuredContent }) has it passed through', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(callTool(1, 'weather', { city: 'Lisbon' })), 1);
    expect(result).toEqual({ content: [{ type: 'text', text: 'Sunny in Lisbon' }], structuredContent: { city: 'Lisbon', sky: 'sunny' } });
  });

  it('tools/call without a tool name is refused with -32602', async () => {
    const server = await readyServer();
    expectError(await server.handle(encodeRequest(1, 'tools/call', { arguments: { text: 'hi' } })), 1, -32602);
  });

  it('tools/call without arguments reads them as {}: a tool without required parameters runs, one with them gets an isError result', async () => {
    const server = await readyServer();
    // fail needs nothing: it runs, and its failure is its own isError result.
    const ran = resultOf(await server.handle(callTool(1, 'fail')), 1);
    expect(ran).toMatchObject({ isError: true });
    expect(firstText(ran)).toContain('the disk is on fire');
    // echo needs text: missing arguments are bad arguments, data for the model, not -32602.
    const missing = resultOf(await server.handle(callTool(2, 'echo')), 2);
    expect(missing).toMatchObject({ isError: true });
  });
});

describe('Protocol errors vs tool errors', () => {
  it('an unknown tool is a protocol error: -32602, and no result', async () => {
    const server = await readyServer();
    expectError(await server.handle(callTool(1, 'no_such_tool', {})), 1, -32602);
  });

  it('a tool that throws is a normal result with isError: true that carries the message', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(callTool(1, 'fail', {})), 1);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('the disk is on fire');
  });

  it('a tool whose promise rejects is an isError result too', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(callTool(1, 'fail_later', {})), 1);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('the service timed out');
  });

  it('arguments that break the inputSchema are an isError result naming the problem, and the tool does not run', async () => {
    const run = vi.fn(() => 'should not run');
    const server = await readyServer({ tools: [{ info: echo.info, run }] });
    const result = resultOf(await server.handle(callTool(1, 'echo', { text: 42 })), 1);
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain('text');
    expect(run).not.toHaveBeenCalled();
  });

  it('after a failing tool the session goes on: the next call works', async () => {
    const server = await readyServer();
    resultOf(await server.handle(callTool(1, 'fail', {})), 1);
    expect(resultOf(await server.handle(callTool(2, 'echo', { text: 'still here' })), 2)).toEqual({ content: [{ type: 'text', text: 'still here' }] });
  });
});

describe('Ids and unknown methods', () => {
  it('an invalid message gets -32600: with its id when one can be read, with no id member when not (never "id": null)', async () => {
    const server = await readyServer();
    // A readable id: the error carries it.
    expect(await server.handle({ jsonrpc: '2.0', id: 9 })).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32600 } });
    // No readable id: an id-less error. MCP's RequestId is a string or an integer, so never null.
    for (const invalid of [{ jsonrpc: '2.0', method: 42 }, { jsonrpc: '2.0' }, [{ jsonrpc: '2.0', id: 1, method: 'ping' }]]) {
      const answer = await server.handle(invalid);
      expect(answer, JSON.stringify(invalid)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      expect(answer, JSON.stringify(invalid)).not.toHaveProperty('id');
    }
  });

  it('an unknown method is -32601 (method not found)', async () => {
    const server = await readyServer();
    expectError(await server.handle(encodeRequest(1, 'resources/list')), 1, -32601);
  });

  it('ping gets an empty result, even before initialize', async () => {
    expect(resultOf(await newServer().handle(encodeRequest(1, 'ping')), 1)).toEqual({});
    expect(resultOf(await (await readyServer()).handle(encodeRequest(2, 'ping')), 2)).toEqual({});
  });

  it('id 0 is a real id: it is answered, and echoed as 0', async () => {
    const server = newServer();
    resultOf(await server.handle(initialize(0)), 0);
    await server.handle(initialized());
    resultOf(await server.handle(callTool(0, 'echo', { text: 'zero' })), 0);
    expectError(await server.handle(encodeRequest(0, 'no/such/method')), 0, -32601);
  });

  it('string ids are echoed unchanged, never turned into numbers', async () => {
    const server = await readyServer();
    resultOf(await server.handle(encodeRequest('7', 'tools/list')), '7');
    expectError(await server.handle(callTool('req-α', 'no_such_tool', {})), 'req-α', -32602);
  });
});

// ---- property: any sequence of messages, your server against the reference ----
//
// Generated sessions: initialize (a supported version or not), notifications/initialized and
// other notifications, tools/list, tools/call (every tool, an unknown one, no name; arguments that
// fit the schema, break it, or are left out), ping, an unknown method, a response sent to the
// server and an invalid message with a readable id, in any order and with ids 0, numbers and
// strings, in strict and lenient mode. After each message the answer must be the same as the
// reference's: null, or the same id with the same error code, or the same result (for initialize
// its protocolVersion, serverInfo and capabilities.tools; for an isError result only the flag,
// never its wording), and the same phase.

const anyId = fc.oneof(fc.constant(0), fc.nat(50), fc.constantFrom('7', 'a', 'req-1'));
const anyMessage = fc.oneof(
  fc.tuple(anyId, fc.constantFrom(LATEST_PROTOCOL_VERSION, '2024-11-05', '2025-06-18', '1999-01-01')).map(([id, version]) => initialize(id, version)),
  fc.constant(initialized()),
  fc.constantFrom('notifications/cancelled', 'notifications/whatever').map((method) => encodeNotification(method)),
  anyId.map((id) => encodeRequest(id, 'tools/list')),
  fc
    .tuple(anyId, fc.constantFrom('echo', 'fail', 'weather', 'nope', undefined), fc.constantFrom({ text: 'hi' }, { city: 'Paris' }, { text: 5 }, {}, undefined))
    .map(([id, name, args]) => (name === undefined ? encodeRequest(id, 'tools/call', args === undefined ? {} : { arguments: args }) : callTool(id, name, args))),
  anyId.map((id) => encodeRequest(id, 'ping')),
  anyId.map((id) => encodeRequest(id, 'resources/templates/list')),
  anyId.map((id) => encodeResult(id, {})),
  anyId.map((id) => ({ jsonrpc: '1.0', id, method: 'ping' })),
);
// Most sessions start with some of the handshake, so that the later messages reach every phase.
const handshakeStart = fc.constantFrom([], [initialize(0)], [initialize('init')], [initialize(1), initialized()], [initialize(1), initialized()]);
const anySession = fc
  .record({ requireInitialized: fc.boolean(), start: handshakeStart, rest: fc.array(anyMessage, { maxLength: 8 }) })
  .map(({ requireInitialized, start, rest }) => ({ requireInitialized, messages: [...start, ...rest] }));

/** What the lesson defines about an answer. */
function observedAnswer(response: JsonRpcResponse | null): unknown {
  if (response === null || response === undefined) return response;
  if ('error' in response) return { id: response.id, error: { code: response.error.code } };
  const result = response.result as Record<string, unknown> | undefined;
  if (result && 'serverInfo' in result) {
    const capabilities = result.capabilities as Record<string, unknown> | undefined;
    return { id: response.id, initialize: { protocolVersion: result.protocolVersion, serverInfo: result.serverInfo, tools: typeof capabilities?.tools === 'object' } };
  }
  if (result && result.isError === true) return { id: response.id, result: { isError: true } };
  if (result && Array.isArray(result.tools)) {
    return { id: response.id, tools: (result.tools as Array<Record<string, unknown>>).map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) };
  }
  return { id: response.id, result };
}

type ServerClass = new (options: { serverInfo: typeof SERVER_INFO; tools: ServerTool[]; requireInitialized?: boolean }) => Pick<McpServer, 'handle' | 'phase'>;

async function playSession(Server: ServerClass, session: { requireInitialized: boolean; messages: unknown[] }): Promise<unknown[]> {
  const server = new Server({ serverInfo: SERVER_INFO, tools: [echo, fail, weather], requireInitialized: session.requireInitialized });
  const seen: unknown[] = [];
  for (const message of session.messages) {
    let answer: unknown;
    try {
      answer = observedAnswer(await server.handle(message));
    } catch (error) {
      answer = { threw: String(error) };
    }
    seen.push({ message, answer, phase: server.phase });
  }
  return seen;
}

describe('Any sequence of messages', () => {
  it('for any messages, in strict and lenient mode: answers each one as the reference does, and moves through the same phases', PROPERTY_TEST, async () => {
    // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
    const pace = propertyPacer();
    const details = await fc.check(
      fc.asyncProperty(anySession, async (session) => {
        await pace();
        expect(await playSession(McpServer, session)).toEqual(await playSession(ReferenceServer, session));
      }),
      { numRuns: 100, seed: 4 },
    );
    if (!details.failed || !details.counterexample) return;
    const [session] = details.counterexample;
    expect(await playSession(McpServer, session), `for the session ${JSON.stringify(session)}`).toEqual(await playSession(ReferenceServer, session));
    throw new Error(`differs from the reference for the session ${JSON.stringify(session)} (only on some runs)`);
  });
});
