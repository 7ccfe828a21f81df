import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { PROPERTY_TEST, propertyPacer } from '@protocol/property-runs';
import { isLegalToolName, mcpResultToText, registerMcpTools, riskFromAnnotations, schemaToParams, type McpToolSource } from '@learner';
// The reference solution: the properties below compare your results with its results.
import * as reference from '@reference/remote-tools';
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

// ---- properties: generated inputs, your results against the reference's ----
// Only what the lesson defines is compared: each parameter's name, type, required, nullable,
// description, enum and default; the exact text of text-only results and, for other blocks, the
// error marker, the texts in order and no base64; for registerMcpTools whether it resolves (and
// how many) or refuses (a DuplicateToolError or another error), the registry's names, risks,
// descriptions and parameters, and what each executor forwards and returns. Never wording.

const RUNS = { numRuns: 100, seed: 5 };

/** For every generated input, `yours(input)` equals `theirs(input)` (the reference's); the shrunk input is shown as expected vs actual. */
async function sameAsReference<T>(inputs: fc.Arbitrary<T>, theirs: (input: T) => unknown, yours: (input: T) => unknown): Promise<void> {
  const attempt = async (run: () => unknown) => {
    try {
      return await run();
    } catch (error) {
      return { threw: String(error) };
    }
  };
  // A fixed number of runs, with a turn of the event loop every few (see property-runs.ts).
  const pace = propertyPacer();
  const details = await fc.check(
    fc.asyncProperty(inputs, async (input) => {
      await pace();
      expect(await attempt(() => yours(input))).toEqual(await theirs(input));
    }),
    RUNS,
  );
  if (!details.failed || !details.counterexample) return;
  const [input] = details.counterexample;
  expect(await attempt(() => yours(input)), `for ${JSON.stringify(input)}`).toEqual(await theirs(input));
  throw new Error(`differs from the reference for ${JSON.stringify(input)} (only on some runs)`);
}

// A property: a single type, or a nullable one in any position (anyOf either way round, a type
// list either way round), or no single type (anyOf, oneOf or a type list of several); with or
// without description, enum and default.
const realType = fc.constantFrom('string', 'number', 'integer', 'boolean', 'object', 'array');
const propertyType = fc.oneof(
  realType.map((type) => ({ type })),
  realType.map((type) => ({ anyOf: [{ type }, { type: 'null' }] })),
  realType.map((type) => ({ anyOf: [{ type: 'null' }, { type }] })),
  realType.map((type) => ({ type: [type, 'null'] })),
  realType.map((type) => ({ type: ['null', type] })),
  fc.constant({ anyOf: [{ type: 'string' }, { type: 'number' }] }),
  fc.constant({ oneOf: [{ type: 'string' }, { type: 'integer' }] }),
  fc.constant({ type: ['string', 'number'] }),
  fc.constant({}),
);
const property = fc
  .record(
    { shape: propertyType, description: fc.constantFrom('What it is.', '说明'), enum: fc.constant(['a', 'b']), default: fc.constantFrom('a', 3, null, false) },
    { requiredKeys: ['shape'] },
  )
  .map(({ shape, ...rest }) => ({ ...shape, ...rest }));
const anySchema = fc
  .dictionary(fc.constantFrom('text', 'path', 'limit', 'note', 'a', 'b'), property, { maxKeys: 4 })
  .chain((properties) =>
    fc.record(
      { type: fc.constant('object'), properties: fc.constant(properties), required: fc.subarray(Object.keys(properties)), $schema: fc.constant('http://json-schema.org/draft-07/schema#'), additionalProperties: fc.boolean() },
      { requiredKeys: ['type', 'properties'] },
    ),
  );

/** What the lesson defines about a parameter. */
function observedParams(params: unknown): unknown {
  if (!Array.isArray(params)) return params;
  return params.map((param: Record<string, unknown>) => ({
    name: param.name,
    type: param.type,
    required: param.required,
    nullable: param.nullable === true,
    description: param.description,
    enum: param.enum,
    default: param.default,
  }));
}

const someText = fc.string({ unit: fc.constantFrom('a', ' ', '\n', '你', '🌍', '['), maxLength: 6 });
const textBlock = someText.map((text) => ({ type: 'text' as const, text }));
const otherBlock = fc.constantFrom(
  { type: 'image', data: 'iVBORw0KGgoAAAANSUhEUg==', mimeType: 'image/png' },
  { type: 'audio', data: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YQAAAAA=', mimeType: 'audio/wav' },
  { type: 'resource_link', uri: 'file:///notes.txt', name: 'notes' },
  { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
  { type: 'resource', resource: { uri: 'file:///b.bin', blob: 'AAECAwQFBgcICQ==', mimeType: 'application/octet-stream' } },
  { type: 'video', uri: 'file:///clip.mp4' },
);
const isError = fc.constantFrom(true, false, undefined);
const textResult = fc.record({ content: fc.array(textBlock, { minLength: 1, maxLength: 4 }), isError }, { requiredKeys: ['content'] });
const mixedResult = fc.record({ content: fc.array(fc.oneof(textBlock, otherBlock), { minLength: 1, maxLength: 4 }), isError }, { requiredKeys: ['content'] });

/** What the lesson defines about the text of any result. */
function observedText(text: unknown, result: { content: Array<Record<string, unknown>> }): unknown {
  if (typeof text !== 'string') return { notText: typeof text };
  const texts = result.content.flatMap((block) => (block.type === 'text' ? [block.text as string] : []));
  let at = 0;
  const inOrder = texts.every((piece) => {
    const found = text.indexOf(piece, at);
    at = found + piece.length;
    return found !== -1;
  });
  const base64 = result.content.flatMap((block) => [block.data, (block.resource as Record<string, unknown> | undefined)?.blob]).filter((data): data is string => typeof data === 'string');
  return { errorMarker: text.startsWith('[tool error] '), textsInOrder: inOrder, pastesBase64: base64.some((data) => text.includes(data)), empty: text.trim() === '' };
}

describe('schemaToParams', () => {
  it('for any schema, nullable types in any position and optional fields left out: the same parameters as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(anySchema, (schema) => observedParams(reference.schemaToParams(schema)), (schema) => observedParams(schemaToParams(schema)));
  });

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

  it('reads a type list with "null" in it, in either order, as a nullable type', () => {
    const params = schemaToParams({
      type: 'object',
      properties: { note: { type: ['null', 'string'] }, count: { type: ['integer', 'null'] } },
      required: ['count'],
    });
    expect(params).toEqual([
      { name: 'note', type: 'string', required: false, nullable: true },
      { name: 'count', type: 'integer', required: true, nullable: true },
    ]);
  });

  it("uses type 'any' when a property has no single type: none, or several in anyOf, oneOf or a type list", () => {
    const params = schemaToParams({
      type: 'object',
      properties: {
        value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
        payload: { description: 'Anything.' },
        id: { type: ['string', 'integer'] },
        choice: { oneOf: [{ type: 'boolean' }, { type: 'object' }] },
      },
      required: ['value', 'id'],
    });
    expect(params).toEqual([
      { name: 'value', type: 'any', required: true },
      { name: 'payload', type: 'any', required: false, description: 'Anything.' },
      { name: 'id', type: 'any', required: true },
      { name: 'choice', type: 'any', required: false },
    ]);
  });

  it('gives an empty list for a tool without parameters, and never throws on a missing schema', () => {
    expect(schemaToParams({ type: 'object' })).toEqual([]);
    expect(schemaToParams({ type: 'object', properties: {} })).toEqual([]);
    expect(schemaToParams(undefined)).toEqual([]);
  });
});

describe('mcpResultToText', () => {
  it('for any result of text blocks: exactly the reference\'s text', PROPERTY_TEST, async () => {
    await sameAsReference(textResult, (result) => reference.mcpResultToText(result), (result) => mcpResultToText(result));
  });

  it('for any result with other blocks: the same error marker, texts in order and no base64, as the reference', PROPERTY_TEST, async () => {
    await sameAsReference(mixedResult, (result) => observedText(reference.mcpResultToText(result as CallToolResult), result), (result) => observedText(mcpResultToText(result as CallToolResult), result));
  });

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
    await expect(registerMcpTools(registry, fakeServer([echo, add]).client, { prefix: 'mcp:echo/' })).rejects.toThrow();
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

// ---- property: registering any server's tools, your bridge against the reference ----

const toolName = fc.constantFrom('echo', 'add', 'read_file', 'a.b-c', 'bad name', '回显', 'x'.repeat(126));
const anyTool = fc.record(
  { name: toolName, description: fc.constantFrom('Does a thing.', ''), inputSchema: anySchema, annotations: fc.constantFrom({ readOnlyHint: true }, { destructiveHint: false }, { destructiveHint: true }, {}) },
  { requiredKeys: ['name', 'inputSchema'] },
) as fc.Arbitrary<ToolInfo>;
const anyRegistration = fc.record({
  tools: fc.array(anyTool, { maxLength: 4 }),
  prefix: fc.constantFrom(undefined, '', 'mcp__echo__', 'mcp:bad/', 'x'),
  risk: fc.constantFrom(undefined, 'auto', 'approve', 'annotations'),
  localAdd: fc.boolean(),
});

type Register = typeof registerMcpTools;
async function playRegistration(register: Register, annotationsRisk: typeof riskFromAnnotations, { tools, prefix, risk, localAdd }: { tools: ToolInfo[]; prefix: string | undefined; risk: string | undefined; localAdd: boolean }): Promise<unknown> {
  const registry = localAdd ? registryWithLocalAdd() : new ToolRegistry();
  const { client, calls } = fakeServer(tools, (name, args) => ({ content: [{ type: 'text', text: `${name} got ${JSON.stringify(args)}` }] }));
  const options = { ...(prefix === undefined ? {} : { prefix }), ...(risk === undefined ? {} : { risk: risk === 'annotations' ? annotationsRisk : (risk as 'auto' | 'approve') }) };
  let outcome: unknown;
  try {
    outcome = { registered: await register(registry, client, options) };
  } catch (error) {
    // Which error, only when every name is legal: the lesson does not say which of two problems
    // (an illegal name, a clash) is reported first. By name: the reference's registry module may
    // be another copy than the one this spec imports.
    const someIllegal = tools.some((tool) => !/^[A-Za-z0-9_.-]{1,128}$/.test((prefix ?? '') + tool.name));
    const duplicate = error instanceof Error && error.name === new DuplicateToolError('x').name;
    outcome = { refused: someIllegal ? 'an illegal name' : duplicate ? 'DuplicateToolError' : 'another error' };
  }
  const callsWhileRegistering = calls.length;
  const entries = registry.list().map((spec) => {
    const original = tools.find((tool) => spec.source?.kind === 'mcp' && (prefix ?? '') + tool.name === spec.name);
    return { name: spec.name, risk: spec.risk, description: original?.description === undefined ? typeof spec.description : spec.description, parameters: observedParams(spec.parameters) };
  });
  const executed = [];
  for (const { name } of entries) {
    if (localAdd && name === 'add') continue;
    executed.push({ name, outcome: await registry.execute(name, { text: 'hi' }), forwarded: calls.slice(-1) });
  }
  return { outcome, callsWhileRegistering, entries, executed };
}

describe('Any server', () => {
  it('for any tools, prefix, risk option and registry: registers, refuses and forwards as the reference does', PROPERTY_TEST, async () => {
    await sameAsReference(
      anyRegistration,
      (input) => playRegistration(reference.registerMcpTools, reference.riskFromAnnotations, input),
      (input) => playRegistration(registerMcpTools, riskFromAnnotations, input),
    );
  });
});
