import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  DELAY_ECHO_DEFAULT_MS,
  ECHO_SERVER_INFO,
  FAIL_DEFAULT_MESSAGE,
  createEchoTools,
} from './echo-tools.ts';
import { encodeNotification, encodeRequest, type JsonRpcId } from './jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from './mcp.ts';
import { McpServer, type ServerTool } from './server.ts';

function toolNamed(name: string): ServerTool {
  const found = createEchoTools().find((tool) => tool.info.name === name);
  if (found === undefined) throw new Error(`no tool ${name}`);
  return found;
}

async function readyEchoServer(): Promise<McpServer> {
  const server = new McpServer({ serverInfo: ECHO_SERVER_INFO, tools: createEchoTools() });
  await server.handle(encodeRequest(0, 'initialize', { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: ECHO_SERVER_INFO }));
  await server.handle(encodeNotification('notifications/initialized'));
  return server;
}

async function callTool(server: McpServer, id: JsonRpcId, name: string, args: Record<string, unknown>) {
  const response = await server.handle(encodeRequest(id, 'tools/call', { name, arguments: args }));
  if (response === null || !('result' in response)) throw new Error(`expected a result, got ${JSON.stringify(response)}`);
  return response.result as { content: { type: string; text: string }[]; isError?: boolean };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createEchoTools: what tools/list advertises', () => {
  const tools = createEchoTools();

  it('has the five tools, in a stable order', () => {
    expect(tools.map((tool) => tool.info.name)).toEqual(['echo', 'add', 'delay_echo', 'fail', 'delete_file']);
  });

  it('names the server mcp-echo-server 1.0.0', () => {
    expect(ECHO_SERVER_INFO).toEqual({ name: 'mcp-echo-server', version: '1.0.0' });
  });

  it.each(tools.map((tool) => [tool.info.name, tool] as const))('%s is fully described for a model', (_name, tool) => {
    expect(ToolSchema.safeParse(tool.info).success).toBe(true);
    expect(tool.info.description?.length).toBeGreaterThan(15);
    expect(tool.info.annotations).toBeDefined();
    const schema = tool.info.inputSchema as { type: string; properties: Record<string, { description?: string }>; required?: string[] };
    expect(schema.type).toBe('object');
    for (const [property, definition] of Object.entries(schema.properties)) {
      expect(definition.description, `${tool.info.name}.${property}`).toMatch(/\S{3}/);
    }
    for (const required of schema.required ?? []) expect(Object.keys(schema.properties)).toContain(required);
  });

  it('gives optional arguments a default and required ones none', () => {
    for (const tool of tools) {
      const schema = tool.info.inputSchema as { properties: Record<string, { default?: unknown }>; required?: string[] };
      for (const [property, definition] of Object.entries(schema.properties)) {
        const required = (schema.required ?? []).includes(property);
        expect('default' in definition, `${tool.info.name}.${property}`).toBe(!required);
      }
    }
  });

  it('marks only delete_file as destructive and not read-only', () => {
    for (const tool of tools) {
      const destructive = tool.info.name === 'delete_file';
      expect(tool.info.annotations?.readOnlyHint, tool.info.name).toBe(!destructive);
      if (destructive) expect(tool.info.annotations?.destructiveHint).toBe(true);
    }
  });

  it('returns fresh arrays so callers cannot disturb each other', () => {
    const first = createEchoTools();
    first.pop();
    expect(createEchoTools()).toHaveLength(5);
  });
});

describe('createEchoTools: behaviour through the server', () => {
  it('echo returns the text verbatim, including non-ASCII and newlines', async () => {
    const server = await readyEchoServer();
    for (const text of ['hello from MCP', '你好', 'line1\nline2 🚀', '']) {
      expect(await callTool(server, 1, 'echo', { text })).toEqual({ content: [{ type: 'text', text }] });
    }
  });

  it('add returns the sum as text', async () => {
    const server = await readyEchoServer();
    expect((await callTool(server, 1, 'add', { a: 2, b: 3 })).content[0]?.text).toBe('5');
    expect((await callTool(server, 2, 'add', { a: 0.5, b: -2 })).content[0]?.text).toBe('-1.5');
  });

  it('add with a string argument is an isError result, not an RPC error', async () => {
    const server = await readyEchoServer();
    const result = await callTool(server, 1, 'add', { a: '2', b: 3 });
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toContain('"a" must be a number');
  });

  it('fail always answers isError data with the given message or its default', async () => {
    const server = await readyEchoServer();
    expect(await callTool(server, 1, 'fail', { message: 'boom' })).toEqual({ content: [{ type: 'text', text: 'boom' }], isError: true });
    expect(await callTool(server, 2, 'fail', {})).toEqual({ content: [{ type: 'text', text: FAIL_DEFAULT_MESSAGE }], isError: true });
  });

  it('fail throws when run directly (the server is what turns it into data)', () => {
    expect(() => toolNamed('fail').run({ message: 'x' })).toThrow('x');
  });

  it('delete_file deletes nothing and says what it would delete', async () => {
    const server = await readyEchoServer();
    expect((await callTool(server, 1, 'delete_file', { path: '/etc/passwd' })).content).toEqual([
      { type: 'text', text: 'would delete /etc/passwd' },
    ]);
  });

  it('delay_echo refuses ms outside 0..10000 or not an integer, as isError data', async () => {
    const server = await readyEchoServer();
    for (const ms of [-1, 10_001, 2.5, '100']) {
      const result = await callTool(server, 1, 'delay_echo', { text: 'x', ms });
      expect(result.isError, String(ms)).toBe(true);
      expect(result.content[0]?.text).toContain('"ms"');
    }
  });

  it('delay_echo answers after ms, and after the default when ms is left out', async () => {
    vi.useFakeTimers();
    const run = toolNamed('delay_echo').run;
    let explicit: unknown = 'pending';
    let implicit: unknown = 'pending';
    void Promise.resolve(run({ text: 'a', ms: 100 })).then((value) => (explicit = value));
    void Promise.resolve(run({ text: 'b' })).then((value) => (implicit = value));
    await vi.advanceTimersByTimeAsync(99);
    expect(explicit).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(explicit).toBe('a');
    await vi.advanceTimersByTimeAsync(DELAY_ECHO_DEFAULT_MS - 101);
    expect(implicit).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(implicit).toBe('b');
  });

  it('delay_echo stops its timer when the call is cancelled', async () => {
    vi.useFakeTimers();
    const controller = new AbortController();
    const outcome = Promise.resolve(toolNamed('delay_echo').run({ text: 'a', ms: 5000 }, controller.signal));
    expect(vi.getTimerCount()).toBe(1);
    controller.abort();
    await expect(outcome).rejects.toThrow('cancelled');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('two delay_echo calls come back in completion order, each with its own id', async () => {
    vi.useFakeTimers();
    const server = await readyEchoServer();
    const order: JsonRpcId[] = [];
    const slow = server.handle(encodeRequest(1, 'tools/call', { name: 'delay_echo', arguments: { text: 'slow', ms: 300 } }));
    const fast = server.handle(encodeRequest(2, 'tools/call', { name: 'delay_echo', arguments: { text: 'fast', ms: 10 } }));
    void slow.then((response) => order.push(response!.id!));
    void fast.then((response) => order.push(response!.id!));
    await vi.advanceTimersByTimeAsync(300);
    expect(order).toEqual([2, 1]);
    expect(await slow).toMatchObject({ id: 1, result: { content: [{ type: 'text', text: 'slow' }] } });
    expect(await fast).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: 'fast' }] } });
  });
});
