import { describe, expect, it } from 'vitest';
import {
  CallToolResultSchema,
  InitializeResultSchema,
  JSONRPCMessageSchema,
  ListToolsResultSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { encodeNotification, encodeRequest, type JsonRpcId, type JsonRpcResponse } from './jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult } from './mcp.ts';
import { McpServer, type McpServerOptions, type ServerTool } from './server.ts';

const SERVER_INFO = { name: 'test-server', version: '0.0.1' };

function tool(name: string, run: ServerTool['run'], inputSchema: Record<string, unknown> = { type: 'object' }): ServerTool {
  return { info: { name, description: `the ${name} tool`, inputSchema }, run };
}

/** A promise the test settles by hand, to control when a tool finishes. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const TOOLS: ServerTool[] = [
  tool('shout', (args) => String(args.text).toUpperCase(), {
    type: 'object',
    properties: { text: { type: 'string', description: 'what to shout' } },
    required: ['text'],
    additionalProperties: false,
  }),
  tool('structured', () => ({ content: [{ type: 'text', text: 'hi' }], structuredContent: { n: 1 } })),
  tool('throws', () => {
    throw new Error('disk on fire');
  }),
  tool('rejects', async () => Promise.reject(new Error('network down'))),
  tool('throws-string', () => {
    throw 'plain string';
  }),
  tool('returns-junk', () => 42 as unknown as string),
];

function createServer(options: Partial<McpServerOptions> = {}): McpServer {
  return new McpServer({ serverInfo: SERVER_INFO, tools: TOOLS, ...options });
}

const initialize = (id: JsonRpcId = 1, protocolVersion: string = LATEST_PROTOCOL_VERSION) =>
  encodeRequest(id, 'initialize', { protocolVersion, capabilities: {}, clientInfo: { name: 'test-client', version: '1' } });
const initialized = encodeNotification('notifications/initialized');

async function readyServer(options: Partial<McpServerOptions> = {}): Promise<McpServer> {
  const server = createServer(options);
  await server.handle(initialize());
  await server.handle(initialized);
  expect(server.phase).toBe('ready');
  return server;
}

function resultOf(response: JsonRpcResponse | null): Record<string, unknown> {
  if (response === null || !('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result as Record<string, unknown>;
}

function errorOf(response: JsonRpcResponse | null) {
  if (response === null || !('error' in response)) throw new Error(`expected an error, got ${JSON.stringify(response)}`);
  return response.error;
}

const call = (id: JsonRpcId, name: string, args?: unknown) =>
  encodeRequest(id, 'tools/call', args === undefined ? { name } : { name, arguments: args });

describe('McpServer: initialize and version negotiation', () => {
  it('answers initialize with version, tools capability and serverInfo, and moves to awaiting-initialized', async () => {
    const server = createServer({ instructions: 'be nice' });
    expect(server.phase).toBe('awaiting-initialize');
    const response = await server.handle(initialize(1, '2025-06-18'));
    expect(response).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: { listChanged: false } },
        serverInfo: SERVER_INFO,
        instructions: 'be nice',
      },
    });
    expect(server.phase).toBe('awaiting-initialized');
    expect(InitializeResultSchema.safeParse(resultOf(response)).success).toBe(true);
  });

  it('omits instructions when none are configured', async () => {
    const result = resultOf(await createServer().handle(initialize()));
    expect('instructions' in result).toBe(false);
  });

  it.each(SUPPORTED_PROTOCOL_VERSIONS)('echoes a supported client version (%s)', async (version) => {
    expect(resultOf(await createServer().handle(initialize(1, version))).protocolVersion).toBe(version);
  });

  it('answers its latest version when the client asks for one it does not know', async () => {
    for (const version of ['2023-01-01', '2099-12-31', 'banana']) {
      expect(resultOf(await createServer().handle(initialize(1, version))).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    }
  });

  it('refuses initialize without a protocolVersion string (-32602) and lets the client retry', async () => {
    const server = createServer();
    expect(errorOf(await server.handle(encodeRequest(1, 'initialize'))).code).toBe(-32602);
    expect(errorOf(await server.handle(encodeRequest(2, 'initialize', { protocolVersion: 20250618 }))).code).toBe(-32602);
    expect(errorOf(await server.handle(encodeRequest(3, 'initialize', ['2025-06-18']))).code).toBe(-32602);
    expect(server.phase).toBe('awaiting-initialize');
    expect(resultOf(await server.handle(initialize(4))).protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
  });

  it('refuses a second initialize with -32600, before and after notifications/initialized', async () => {
    const server = createServer();
    await server.handle(initialize(1));
    const second = await server.handle(initialize(2));
    expect(second).toMatchObject({ id: 2, error: { code: -32600 } });
    await server.handle(initialized);
    expect(errorOf(await server.handle(initialize(3))).code).toBe(-32600);
    expect(server.phase).toBe('ready');
  });
});

describe('McpServer: ids', () => {
  it('echoes id 0 (a valid id, not "missing")', async () => {
    const server = createServer();
    const response = await server.handle(initialize(0));
    expect(response?.id).toBe(0);
    expect(await server.handle(encodeRequest(0, 'ping'))).toEqual({ jsonrpc: '2.0', id: 0, result: {} });
  });

  it('echoes string ids with their type', async () => {
    const server = await readyServer();
    expect((await server.handle(encodeRequest('abc', 'ping')))?.id).toBe('abc');
    const response = await server.handle(call('7', 'shout', { text: 'x' }));
    expect(response?.id).toBe('7');
    expect(response?.id).not.toBe(7);
  });
});

describe('McpServer: the lifecycle gate', () => {
  it('answers ping at any time, even before initialize', async () => {
    const server = createServer();
    expect(await server.handle(encodeRequest(5, 'ping'))).toEqual({ jsonrpc: '2.0', id: 5, result: {} });
  });

  it('refuses everything but initialize and ping before initialize (-32600)', async () => {
    const server = createServer();
    for (const method of ['tools/list', 'tools/call', 'no/such/method']) {
      const error = errorOf(await server.handle(encodeRequest(1, method)));
      expect(error.code, method).toBe(-32600);
      expect(error.message).toContain('initialize');
    }
  });

  it('refuses tools/list and tools/call before notifications/initialized (-32600)', async () => {
    const server = createServer();
    await server.handle(initialize());
    const list = errorOf(await server.handle(encodeRequest(2, 'tools/list')));
    expect(list.code).toBe(-32600);
    expect(list.message).toContain('notifications/initialized');
    expect(errorOf(await server.handle(call(3, 'shout', { text: 'a' }))).code).toBe(-32600);
  });

  it('serves tools once notifications/initialized arrived', async () => {
    const server = await readyServer();
    expect(resultOf(await server.handle(encodeRequest(2, 'tools/list'))).tools).toHaveLength(TOOLS.length);
  });

  it('with requireInitialized false, serves tools right after initialize (but still needs initialize)', async () => {
    const server = createServer({ requireInitialized: false });
    expect(errorOf(await server.handle(encodeRequest(1, 'tools/list'))).code).toBe(-32600);
    await server.handle(initialize(2));
    expect(server.phase).toBe('awaiting-initialized');
    expect(resultOf(await server.handle(encodeRequest(3, 'tools/list'))).tools).toHaveLength(TOOLS.length);
  });

  it('ignores notifications/initialized that arrives before initialize', async () => {
    const server = createServer();
    expect(await server.handle(initialized)).toBeNull();
    expect(server.phase).toBe('awaiting-initialize');
  });

  it('decides by the order handle() is called, not by when earlier calls settle', async () => {
    const server = createServer();
    const answers = await Promise.all([
      server.handle(initialize(1)),
      server.handle(initialized),
      server.handle(encodeRequest(2, 'tools/list')),
    ]);
    expect(answers[1]).toBeNull();
    expect(resultOf(answers[2]).tools).toHaveLength(TOOLS.length);
  });
});

describe('McpServer: what is never answered', () => {
  it('never answers a notification: known, unknown, before or after initialize', async () => {
    const fresh = createServer();
    const ready = await readyServer();
    for (const server of [fresh, ready]) {
      for (const method of ['notifications/initialized', 'notifications/cancelled', 'notifications/whatever', 'tools/call', 'initialize']) {
        expect(await server.handle(encodeNotification(method, {})), method).toBeNull();
      }
    }
  });

  it('never answers a response the client sends (e.g. to a server ping)', async () => {
    const server = await readyServer();
    expect(await server.handle({ jsonrpc: '2.0', id: 9, result: {} })).toBeNull();
    expect(await server.handle({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'x' } })).toBeNull();
    expect(await server.handle({ jsonrpc: '2.0', error: { code: -32600, message: 'x' } })).toBeNull();
  });
});

describe('McpServer: invalid messages and unknown methods', () => {
  it('answers an invalid message with -32600 and the id when it can be read', async () => {
    const server = await readyServer();
    expect(await server.handle({ jsonrpc: '1.0', id: 4, method: 'ping' })).toMatchObject({ id: 4, error: { code: -32600 } });
    expect(await server.handle({ jsonrpc: '2.0', id: 0, method: 'ping', params: 'x' })).toMatchObject({ id: 0, error: { code: -32600 } });
  });

  it('answers without an id (MCP leaves it out) when no id can be read', async () => {
    const server = await readyServer();
    for (const value of [42, 'text', null, [], [{ jsonrpc: '2.0', id: 1, method: 'ping' }], { jsonrpc: '2.0' }, { jsonrpc: '2.0', id: null, method: 'ping' }]) {
      const response = await server.handle(value);
      expect(response, JSON.stringify(value)).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      expect(response, JSON.stringify(value)).not.toHaveProperty('id');
    }
  });

  it('answers an unknown method with -32601', async () => {
    const server = await readyServer();
    const response = await server.handle(encodeRequest(8, 'resources/list'));
    expect(response).toMatchObject({ id: 8, error: { code: -32601, message: 'Method not found: resources/list' } });
  });

  it('unknown methods get -32601 even before notifications/initialized', async () => {
    const server = createServer();
    await server.handle(initialize());
    expect(errorOf(await server.handle(encodeRequest(2, 'prompts/list'))).code).toBe(-32601);
  });

  it('builds a -32700 parse error without an id', () => {
    expect(createServer().parseError('unexpected token')).toStrictEqual({
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: unexpected token' },
    });
  });

  it('every response it produces is a valid JSON-RPC message for the official SDK', async () => {
    const server = await readyServer();
    const responses = [
      await server.handle(encodeRequest(1, 'nope')),
      await server.handle(call(2, 'shout', { text: 'a' })),
      await server.handle(call(3, 'throws')),
      await server.handle({ jsonrpc: '2.0', id: 4, method: 'x', params: 1 }),
    ];
    for (const response of responses) expect(JSONRPCMessageSchema.safeParse(response).success, JSON.stringify(response)).toBe(true);
  });
});

describe('McpServer: tools/list', () => {
  it('lists every tool info in one page by default', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(encodeRequest(2, 'tools/list')));
    expect(result).toEqual({ tools: TOOLS.map((t) => t.info) });
    expect(ListToolsResultSchema.safeParse(result).success).toBe(true);
  });

  it('paginates with an opaque nextCursor when pageSize is set', async () => {
    const server = await readyServer({ pageSize: 4 });
    const first = resultOf(await server.handle(encodeRequest(2, 'tools/list')));
    expect((first.tools as unknown[]).length).toBe(4);
    expect(typeof first.nextCursor).toBe('string');
    const second = resultOf(await server.handle(encodeRequest(3, 'tools/list', { cursor: first.nextCursor })));
    expect((second.tools as unknown[]).length).toBe(TOOLS.length - 4);
    expect('nextCursor' in second).toBe(false);
    expect([...(first.tools as unknown[]), ...(second.tools as unknown[])]).toEqual(TOOLS.map((t) => t.info));
  });

  it('walks every page for any page size and never repeats a tool', async () => {
    for (let pageSize = 1; pageSize <= TOOLS.length + 1; pageSize++) {
      const server = await readyServer({ pageSize });
      const names: string[] = [];
      let cursor: unknown;
      for (let id = 10; ; id++) {
        const result = resultOf(await server.handle(encodeRequest(id, 'tools/list', cursor === undefined ? {} : { cursor })));
        names.push(...(result.tools as { name: string }[]).map((t) => t.name));
        cursor = result.nextCursor;
        if (cursor === undefined) break;
      }
      expect(names, `pageSize ${pageSize}`).toEqual(TOOLS.map((t) => t.info.name));
    }
  });

  it('refuses a cursor it never issued with -32602', async () => {
    const paged = await readyServer({ pageSize: 2 });
    for (const cursor of ['nonsense', 'tools-from-1', 'tools-from-99', 'tools-from-0', 'tools-from-02', 7, null]) {
      expect(errorOf(await paged.handle(encodeRequest(2, 'tools/list', { cursor }))).code, String(cursor)).toBe(-32602);
    }
    const unpaged = await readyServer();
    expect(errorOf(await unpaged.handle(encodeRequest(2, 'tools/list', { cursor: 'tools-from-2' }))).code).toBe(-32602);
  });

  it('rejects a bad pageSize, a bad tool name and a duplicate tool name at construction', () => {
    expect(() => createServer({ pageSize: 0 })).toThrow(RangeError);
    expect(() => createServer({ pageSize: 1.5 })).toThrow(RangeError);
    expect(() => createServer({ tools: [tool('has space', () => '')] })).toThrow(/tool name/);
    expect(() => createServer({ tools: [tool('x'.repeat(129), () => '')] })).toThrow(/tool name/);
    expect(() => createServer({ tools: [tool('mcp__echo__add', () => ''), tool('a.b-c', () => '')] })).not.toThrow();
    expect(() => createServer({ tools: [tool('same', () => ''), tool('same', () => '')] })).toThrow(/two tools/);
  });
});

describe('McpServer: tools/call', () => {
  it('wraps a string returned by a tool in one text block', async () => {
    const server = await readyServer();
    const response = await server.handle(call(3, 'shout', { text: 'hello' }));
    expect(response).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'HELLO' }] } });
    expect(CallToolResultSchema.safeParse(resultOf(response)).success).toBe(true);
  });

  it('passes a CallToolResult through untouched', async () => {
    const server = await readyServer();
    expect(resultOf(await server.handle(call(3, 'structured', {})))).toEqual({
      content: [{ type: 'text', text: 'hi' }],
      structuredContent: { n: 1 },
    });
  });

  it('treats missing arguments as {}', async () => {
    const server = await readyServer();
    expect(resultOf(await server.handle(call(3, 'structured'))).content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('refuses a missing or non-string name with -32602', async () => {
    const server = await readyServer();
    expect(errorOf(await server.handle(encodeRequest(1, 'tools/call'))).code).toBe(-32602);
    expect(errorOf(await server.handle(encodeRequest(2, 'tools/call', { arguments: {} }))).code).toBe(-32602);
    expect(errorOf(await server.handle(encodeRequest(3, 'tools/call', { name: 5 }))).code).toBe(-32602);
  });

  it('answers an unknown tool with a -32602 protocol error, not a result', async () => {
    const server = await readyServer();
    const response = await server.handle(call(4, 'nope', {}));
    expect(response).toEqual({ jsonrpc: '2.0', id: 4, error: { code: -32602, message: 'Unknown tool: nope' } });
  });

  it('refuses non-object arguments with -32602', async () => {
    const server = await readyServer();
    expect(errorOf(await server.handle(call(4, 'shout', ['hello']))).code).toBe(-32602);
    expect(errorOf(await server.handle(call(5, 'shout', 'hello'))).code).toBe(-32602);
  });

  it('answers bad arguments with an isError result naming the argument, without running the tool', async () => {
    let ran = false;
    const guarded = tool(
      'guarded',
      () => {
        ran = true;
        return 'ran';
      },
      { type: 'object', properties: { n: { type: 'integer', description: 'n' } }, required: ['n'] },
    );
    const server = await readyServer({ tools: [guarded] });
    const missing = resultOf(await server.handle(call(1, 'guarded', {}))) as unknown as CallToolResult;
    expect(missing.isError).toBe(true);
    expect(missing.content).toEqual([{ type: 'text', text: 'Invalid arguments for tool guarded: missing required argument "n"' }]);
    const wrongType = resultOf(await server.handle(call(2, 'guarded', { n: 'one' }))) as unknown as CallToolResult;
    expect(wrongType).toEqual({
      content: [{ type: 'text', text: 'Invalid arguments for tool guarded: "n" must be an integer, got string "one"' }],
      isError: true,
    });
    expect(ran).toBe(false);
    expect(resultOf(await server.handle(call(3, 'guarded', { n: 1 }))).isError).toBeUndefined();
    expect(ran).toBe(true);
  });

  it.each([
    ['throws', 'disk on fire'],
    ['rejects', 'network down'],
    ['throws-string', 'plain string'],
  ])('turns a tool that %s into an isError result carrying the message', async (name, message) => {
    const server = await readyServer();
    const response = await server.handle(call(6, name, {}));
    expect(response).toEqual({ jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: message }], isError: true } });
    expect(CallToolResultSchema.safeParse(resultOf(response)).success).toBe(true);
  });

  it('turns a tool returning neither string nor result into an isError result', async () => {
    const server = await readyServer();
    const result = resultOf(await server.handle(call(6, 'returns-junk', {})));
    expect(result.isError).toBe(true);
  });

  it('runs async tools concurrently and answers each with its own id, in completion order', async () => {
    const gates = { slow: deferred<string>(), fast: deferred<string>() };
    const waiting = [
      tool('wait', (args) => gates[args.which as 'slow' | 'fast'].promise, {
        type: 'object',
        properties: { which: { enum: ['slow', 'fast'] } },
      }),
    ];
    const server = await readyServer({ tools: waiting });
    const finished: JsonRpcId[] = [];
    const slow = server.handle(call(1, 'wait', { which: 'slow' })).then((r) => (finished.push(r!.id!), r));
    const fast = server.handle(call('two', 'wait', { which: 'fast' })).then((r) => (finished.push(r!.id!), r));
    gates.fast.resolve('fast done');
    await fast;
    expect(finished).toEqual(['two']);
    gates.slow.resolve('slow done');
    const [slowResponse, fastResponse] = await Promise.all([slow, fast]);
    expect(finished).toEqual(['two', 1]);
    expect(resultOf(slowResponse).content).toEqual([{ type: 'text', text: 'slow done' }]);
    expect(resultOf(fastResponse).content).toEqual([{ type: 'text', text: 'fast done' }]);
  });

  it('refuses a second call that reuses the id of a call still in flight', async () => {
    const gate = deferred<string>();
    const server = await readyServer({ tools: [tool('wait', () => gate.promise)] });
    const first = server.handle(call(1, 'wait', {}));
    expect(errorOf(await server.handle(call(1, 'wait', {}))).code).toBe(-32600);
    gate.resolve('done');
    expect(resultOf(await first).content).toEqual([{ type: 'text', text: 'done' }]);
    // Once answered, the id may be seen again (uniqueness is the client's duty; we only guard in-flight calls).
    expect(resultOf(await server.handle(call(1, 'wait', {}))).content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('aborts a call on notifications/cancelled and sends no response for it', async () => {
    let seen: AbortSignal | undefined;
    const cancellable = tool('hang', (_args, signal) => {
      seen = signal;
      return new Promise<string>((_resolve, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    });
    const server = await readyServer({ tools: [cancellable] });
    const pending = server.handle(call('c1', 'hang', {}));
    expect(seen?.aborted).toBe(false);
    expect(await server.handle(encodeNotification('notifications/cancelled', { requestId: 'c1', reason: 'timeout' }))).toBeNull();
    expect(seen?.aborted).toBe(true);
    expect(await pending).toBeNull();
  });

  it('ignores notifications/cancelled for an unknown id', async () => {
    const server = await readyServer();
    expect(await server.handle(encodeNotification('notifications/cancelled', { requestId: 99 }))).toBeNull();
    expect(await server.handle(encodeNotification('notifications/cancelled'))).toBeNull();
    expect(resultOf(await server.handle(call(99, 'shout', { text: 'still fine' }))).content).toEqual([
      { type: 'text', text: 'STILL FINE' },
    ]);
  });
});
