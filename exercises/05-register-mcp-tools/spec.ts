import { describe, expect, it } from 'vitest';
import { isLegalToolName, mcpResultToText, registerMcpTools, riskFromAnnotations, schemaToParams, type McpToolSource } from '@learner';
import { DuplicateToolError, ToolRegistry } from '@protocol/registry';
import type { CallToolResult, ToolInfo } from '@protocol/mcp';

// Two tools as a server's tools/list would report them.
const echo: ToolInfo = {
  name: 'echo',
  description: 'Echo the given text back verbatim.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo.' } }, required: ['text'] },
};
const add: ToolInfo = {
  name: 'add',
  description: 'Add two numbers on the server.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  annotations: { readOnlyHint: true },
};

type Answer = (name: string, args?: Record<string, unknown>) => CallToolResult | Promise<CallToolResult>;

/**
 * A fake MCP client (the McpToolSource shape): lists `tools`, records every tools/call and answers
 * with `answer`. Like a real server, it knows only its own tool names.
 */
function fakeServer(tools: ToolInfo[], answer: Answer = (_name, args) => ({ content: [{ type: 'text', text: String(args?.text) }] })) {
  const calls: Array<{ name: string; args: Record<string, unknown> | undefined }> = [];
  const client: McpToolSource = {
    listTools: async () => tools.map((tool) => ({ ...tool })),
    callTool: async (name, args) => {
      calls.push({ name, args });
      if (!tools.some((tool) => tool.name === name)) return { content: [{ type: 'text', text: `Tool ${name} not found` }], isError: true };
      return answer(name, args);
    },
  };
  return { client, calls };
}

/** A registry that already holds a local tool called "add". */
function registryWithLocalAdd(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register({ name: 'add', description: 'Local add.', parameters: [], risk: 'auto', source: { kind: 'local' } }, () => 'local result');
  return registry;
}

describe('schemaToParams', () => {
  it('turns each property into a parameter with its type, description and required flag', () => {
    const params = schemaToParams({
      type: 'object',
      properties: {
        path: { type: 'string', description: 'File to read.' },
        limit: { type: 'integer', description: 'Maximum lines.' },
        verbose: { type: 'boolean' },
      },
      required: ['path'],
    });
    expect(params).toEqual([
      { name: 'path', type: 'string', required: true, description: 'File to read.' },
      { name: 'limit', type: 'integer', required: false, description: 'Maximum lines.' },
      { name: 'verbose', type: 'boolean', required: false },
    ]);
  });

  it('keeps enum and default', () => {
    const params = schemaToParams({
      type: 'object',
      properties: {
        unit: { type: 'string', enum: ['celsius', 'fahrenheit'], default: 'celsius', description: 'Temperature unit.' },
        days: { type: 'number', default: 3 },
      },
    });
    expect(params).toEqual([
      { name: 'unit', type: 'string', required: false, description: 'Temperature unit.', enum: ['celsius', 'fahrenheit'], default: 'celsius' },
      { name: 'days', type: 'number', required: false, default: 3 },
    ]);
  });

  it('ignores $schema and additionalProperties, which generated schemas (zod, pydantic) often carry', () => {
    const params = schemaToParams({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { text: { type: 'string' } },
      required: ['text'],
      additionalProperties: false,
    });
    expect(params).toEqual([{ name: 'text', type: 'string', required: true }]);
  });

  it('reads a nullable anyOf as its one real type, marked nullable', () => {
    const params = schemaToParams({
      type: 'object',
      properties: { note: { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'Optional note.' } },
    });
    expect(params).toEqual([{ name: 'note', type: 'string', required: false, nullable: true, description: 'Optional note.' }]);
  });

  it("uses type 'any' when a property has no single type", () => {
    const params = schemaToParams({
      type: 'object',
      properties: { value: { anyOf: [{ type: 'string' }, { type: 'number' }] }, payload: { description: 'Anything.' } },
      required: ['value'],
    });
    expect(params).toEqual([
      { name: 'value', type: 'any', required: true },
      { name: 'payload', type: 'any', required: false, description: 'Anything.' },
    ]);
  });

  it('gives an empty list for a tool without parameters, and never throws on a missing schema', () => {
    expect(schemaToParams({ type: 'object' })).toEqual([]);
    expect(schemaToParams({ type: 'object', properties: {} })).toEqual([]);
    expect(schemaToParams(undefined)).toEqual([]);
  });
});

describe('mcpResultToText', () => {
  it('joins the text blocks with a newline', () => {
    expect(mcpResultToText({ content: [{ type: 'text', text: 'first line' }, { type: 'text', text: 'second line' }] })).toBe('first line\nsecond line');
  });

  it('keeps isError visible: the text starts with "[tool error] "', () => {
    expect(mcpResultToText({ content: [{ type: 'text', text: 'Division by zero' }], isError: true })).toBe('[tool error] Division by zero');
  });

  it('adds no marker when the tool succeeded', () => {
    expect(mcpResultToText({ content: [{ type: 'text', text: 'ok' }], isError: false })).toBe('ok');
  });

  it('describes an image with a short placeholder instead of pasting its base64 data', () => {
    const data = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    const text = mcpResultToText({ content: [{ type: 'image', data, mimeType: 'image/png' }] });
    expect(text).toMatch(/image/);
    expect(text).toContain('image/png');
    expect(text).not.toContain(data.slice(0, 16));
  });

  it('shows audio, resource links and embedded resources as readable text', () => {
    const audio = mcpResultToText({ content: [{ type: 'audio', data: 'UklGRiQAAABXQVZF', mimeType: 'audio/wav' }] });
    expect(audio).toMatch(/audio/);
    expect(audio).not.toContain('UklGRiQAAABXQVZF');
    expect(mcpResultToText({ content: [{ type: 'resource_link', uri: 'file:///notes/today.md', name: 'today.md' }] })).toContain('file:///notes/today.md');
    const embedded = mcpResultToText({ content: [{ type: 'resource', resource: { uri: 'file:///notes/todo.md', text: 'buy milk' } }] });
    expect(embedded).toContain('file:///notes/todo.md');
    expect(embedded).toContain('buy milk');
  });

  it('keeps text and placeholders in order, one block per line', () => {
    const text = mcpResultToText({
      content: [
        { type: 'text', text: 'Here is the chart:' },
        { type: 'image', data: 'AAAA', mimeType: 'image/png' },
        { type: 'text', text: 'Done.' },
      ],
    });
    const lines = text.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('Here is the chart:');
    expect(lines[1]).toContain('image/png');
    expect(lines[2]).toBe('Done.');
  });

  it('names a content type it does not know instead of failing', () => {
    expect(mcpResultToText({ content: [{ type: 'hologram', frames: 3 }] })).toContain('hologram');
  });

  it('still says something when the content is empty', () => {
    expect(mcpResultToText({ content: [] }).length).toBeGreaterThan(0);
  });
});

describe('registerMcpTools: remote tools become registry entries', () => {
  it('registers every listed tool and returns how many it registered', async () => {
    const registry = new ToolRegistry();
    const { client } = fakeServer([echo, add]);
    expect(await registerMcpTools(registry, client)).toBe(2);
    expect(registry.list().map((tool) => tool.name)).toEqual(['echo', 'add']);
    expect(registry.get('echo')).toMatchObject({
      name: 'echo',
      description: 'Echo the given text back verbatim.',
      parameters: [{ name: 'text', type: 'string', required: true, description: 'Text to echo.' }],
      risk: 'auto',
    });
  });

  it('turns the inputSchema into parameters, so the model sees the same schema as for a local tool', async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeServer([add]).client);
    expect(registry.modelTools()).toEqual([
      {
        name: 'add',
        description: 'Add two numbers on the server.',
        input_schema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      },
    ]);
  });
});

describe('The executor forwards to tools/call', () => {
  it('calls nothing on the server while registering', async () => {
    const registry = new ToolRegistry();
    const { client, calls } = fakeServer([echo, add]);
    await registerMcpTools(registry, client);
    expect(calls).toEqual([]);
  });

  it('forwards a call to tools/call with the arguments, and returns the result as text', async () => {
    const registry = new ToolRegistry();
    const { client, calls } = fakeServer([echo]);
    await registerMcpTools(registry, client);
    expect(await registry.execute('echo', { text: 'hello from MCP' })).toEqual({ ok: true, text: 'hello from MCP' });
    expect(calls).toEqual([{ name: 'echo', args: { text: 'hello from MCP' } }]);
  });

  it('hands a failed tool (isError: true) to the model as readable text', async () => {
    const registry = new ToolRegistry();
    const { client } = fakeServer([echo], () => ({ content: [{ type: 'text', text: 'text must not be empty' }], isError: true }));
    await registerMcpTools(registry, client);
    expect(await registry.execute('echo', { text: '' })).toEqual({ ok: true, text: '[tool error] text must not be empty' });
  });

  it('copes with an unknown tool both ways: an isError result (SDK 1.x) and a -32602 error (spec, SDK 2.x)', async () => {
    const sdk1 = new ToolRegistry();
    await registerMcpTools(sdk1, fakeServer([echo], () => ({ content: [{ type: 'text', text: 'Tool echo not found' }], isError: true })).client);
    expect(await sdk1.execute('echo', { text: 'x' })).toEqual({ ok: true, text: '[tool error] Tool echo not found' });

    const sdk2 = new ToolRegistry();
    await registerMcpTools(sdk2, fakeServer([echo], () => Promise.reject(new Error('JSON-RPC error -32602: Unknown tool: echo'))).client);
    const outcome = await sdk2.execute('echo', { text: 'x' });
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toContain('-32602');
  });
});

describe('Namespaces and name clashes', () => {
  it('puts the prefix before every remote name, and still calls the server with the remote name', async () => {
    const registry = new ToolRegistry();
    const { client, calls } = fakeServer([echo, add], (name) => ({ content: [{ type: 'text', text: `remote ${name}` }] }));
    await registerMcpTools(registry, client, { prefix: 'mcp__echo__' });
    expect(registry.list().map((tool) => tool.name)).toEqual(['mcp__echo__echo', 'mcp__echo__add']);
    expect(await registry.execute('mcp__echo__add', { a: 1, b: 2 })).toEqual({ ok: true, text: 'remote add' });
    expect(calls).toEqual([{ name: 'add', args: { a: 1, b: 2 } }]);
  });

  it('with a prefix, a remote "add" lives next to the local "add"', async () => {
    const registry = registryWithLocalAdd();
    const { client } = fakeServer([add], () => ({ content: [{ type: 'text', text: 'remote result' }] }));
    expect(await registerMcpTools(registry, client, { prefix: 'mcp__calc__' })).toBe(1);
    expect(await registry.execute('add', { a: 1, b: 2 })).toEqual({ ok: true, text: 'local result' });
    expect(await registry.execute('mcp__calc__add', { a: 1, b: 2 })).toEqual({ ok: true, text: 'remote result' });
  });

  it('without a prefix, a clash with a local tool is a DuplicateToolError, never a silent skip or overwrite', async () => {
    const registry = registryWithLocalAdd();
    const { client, calls } = fakeServer([add], () => ({ content: [{ type: 'text', text: 'remote result' }] }));
    const error = await registerMcpTools(registry, client).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(DuplicateToolError);
    expect((error as DuplicateToolError).toolName).toBe('add');
    expect(await registry.execute('add', { a: 1, b: 2 })).toEqual({ ok: true, text: 'local result' });
    expect(calls).toEqual([]);
  });

  it('a clash registers nothing from that server, not even the tools listed before it', async () => {
    const registry = registryWithLocalAdd();
    await expect(registerMcpTools(registry, fakeServer([echo, add]).client)).rejects.toBeInstanceOf(DuplicateToolError);
    expect(registry.list().map((tool) => tool.name)).toEqual(['add']);
  });

  it('a server that lists the same name twice is a clash too', async () => {
    const registry = new ToolRegistry();
    await expect(registerMcpTools(registry, fakeServer([echo, { ...echo, description: 'Another echo.' }]).client)).rejects.toBeInstanceOf(DuplicateToolError);
    expect(registry.list()).toEqual([]);
  });

  it('isLegalToolName accepts 1 to 128 of A-Z a-z 0-9 _ . - and nothing else', () => {
    expect(isLegalToolName('mcp__echo__echo')).toBe(true);
    expect(isLegalToolName('v1.get-item_2')).toBe(true);
    expect(isLegalToolName('x'.repeat(128))).toBe(true);
    expect(isLegalToolName('x'.repeat(129))).toBe(false);
    expect(isLegalToolName('')).toBe(false);
    expect(isLegalToolName('mcp:echo/echo')).toBe(false);
    expect(isLegalToolName('two words')).toBe(false);
    expect(isLegalToolName('回显')).toBe(false);
  });

  it('refuses a prefixed name that is not a legal tool name, registering nothing', async () => {
    const registry = new ToolRegistry();
    await expect(registerMcpTools(registry, fakeServer([echo, add]).client, { prefix: 'mcp:echo/' })).rejects.toThrow(/mcp:echo\/echo/);
    expect(registry.list()).toEqual([]);
    await expect(registerMcpTools(registry, fakeServer([{ ...echo, name: 'x'.repeat(120) }]).client, { prefix: 'mcp__server__' })).rejects.toThrow();
    expect(registry.list()).toEqual([]);
  });
});

describe('Risk tiers for remote tools', () => {
  it("defaults to 'auto', as the chapter does", async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeServer([echo, add]).client);
    expect(registry.list().map((tool) => tool.risk)).toEqual(['auto', 'auto']);
  });

  it('gives every tool the tier passed as risk', async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeServer([echo, add]).client, { risk: 'approve' });
    expect(registry.list().map((tool) => tool.risk)).toEqual(['approve', 'approve']);
  });

  it('asks a risk function once per tool, with the tool as tools/list described it', async () => {
    const registry = new ToolRegistry();
    const seen: ToolInfo[] = [];
    await registerMcpTools(registry, fakeServer([echo, add]).client, {
      prefix: 'mcp__calc__',
      risk: (tool) => {
        seen.push(tool);
        return tool.name === 'echo' ? 'suggest' : 'approve';
      },
    });
    expect(seen.map((tool) => tool.name)).toEqual(['echo', 'add']);
    expect(seen[1]?.annotations).toEqual({ readOnlyHint: true });
    expect(registry.get('mcp__calc__echo')?.risk).toBe('suggest');
    expect(registry.get('mcp__calc__add')?.risk).toBe('approve');
  });

  it('riskFromAnnotations treats a tool without annotations as possibly destructive', () => {
    expect(riskFromAnnotations({ name: 'wipe', inputSchema: { type: 'object' } })).toBe('approve');
    expect(riskFromAnnotations({ name: 'wipe', inputSchema: { type: 'object' }, annotations: {} })).toBe('approve');
    expect(riskFromAnnotations({ name: 'wipe', inputSchema: { type: 'object' }, annotations: { title: 'Harmless, honest' } })).toBe('approve');
  });

  it('riskFromAnnotations: read-only runs, a non-destructive writer is suggested, a destructive one needs approval', () => {
    const tool = (annotations: ToolInfo['annotations']): ToolInfo => ({ name: 't', inputSchema: { type: 'object' }, annotations });
    expect(riskFromAnnotations(tool({ readOnlyHint: true }))).toBe('auto');
    expect(riskFromAnnotations(tool({ readOnlyHint: false, destructiveHint: false }))).toBe('suggest');
    expect(riskFromAnnotations(tool({ destructiveHint: true }))).toBe('approve');
    expect(riskFromAnnotations(tool({ readOnlyHint: false }))).toBe('approve');
  });

  it('riskFromAnnotations can be passed as the risk option', async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeServer([echo, add]).client, { risk: riskFromAnnotations });
    expect(registry.get('echo')?.risk).toBe('approve');
    expect(registry.get('add')?.risk).toBe('auto');
  });
});
