import { describe, expect, it } from 'vitest';
import { DuplicateToolError, ToolRegistry } from './registry.ts';
import { InvalidToolNameError, isLegalToolName, registerMcpTools, riskFromAnnotations, type McpToolSource } from './register-mcp-tools.ts';
import type { CallToolResult, ToolInfo } from './mcp.ts';

const echo: ToolInfo = {
  name: 'echo',
  description: 'Echo the given text back verbatim.',
  inputSchema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo.' } }, required: ['text'] },
};
const add: ToolInfo = {
  name: 'add',
  description: 'Remote add.',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  annotations: { readOnlyHint: true },
};

/** A stand-in server: lists the given tools, records calls, answers with `answer`. */
function fakeSource(tools: ToolInfo[], answer: (name: string, args?: Record<string, unknown>) => Promise<CallToolResult> | CallToolResult = defaultAnswer) {
  const calls: Array<{ name: string; args?: Record<string, unknown> }> = [];
  let listCalls = 0;
  const source: McpToolSource = {
    async listTools() {
      listCalls++;
      return tools;
    },
    async callTool(name, args) {
      calls.push(args === undefined ? { name } : { name, args });
      return answer(name, args);
    },
  };
  return { source, calls, listCalls: () => listCalls };
}

function defaultAnswer(_name: string, args?: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: String(args?.text) }] };
}

function localRegistry(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register({ name: 'add', description: 'Local add.', parameters: [], risk: 'auto', source: { kind: 'local' } }, () => 'local');
  return registry;
}

describe('registerMcpTools', () => {
  it('registers remote tools under their own names with the chapter defaults (no prefix, risk auto)', async () => {
    const registry = new ToolRegistry();
    const { source } = fakeSource([echo, add]);
    expect(await registerMcpTools(registry, source)).toBe(2);
    expect(registry.get('echo')).toEqual({
      name: 'echo',
      description: 'Echo the given text back verbatim.',
      parameters: [{ name: 'text', type: 'string', required: true, description: 'Text to echo.' }],
      risk: 'auto',
      source: { kind: 'mcp', remoteName: 'echo' },
    });
    expect(registry.list().map((spec) => spec.name)).toEqual(['echo', 'add']);
  });

  it('forwards execution to tools/call under the remote name and returns the text', async () => {
    const registry = new ToolRegistry();
    const { source, calls } = fakeSource([echo]);
    await registerMcpTools(registry, source, { prefix: 'mcp__echo__', server: 'echo' });
    expect(await registry.execute('mcp__echo__echo', { text: 'hello from MCP' })).toEqual({ ok: true, text: 'hello from MCP' });
    expect(calls).toEqual([{ name: 'echo', args: { text: 'hello from MCP' } }]);
    expect(registry.get('mcp__echo__echo')?.source).toEqual({ kind: 'mcp', server: 'echo', remoteName: 'echo' });
  });

  it('returns an isError result as readable text, not a throw', async () => {
    const registry = new ToolRegistry();
    const { source } = fakeSource([echo], () => ({ content: [{ type: 'text', text: 'text is required' }], isError: true }));
    await registerMcpTools(registry, source);
    expect(await registry.execute('echo', {})).toEqual({ ok: true, text: '[tool error] text is required' });
  });

  it('turns a protocol failure of tools/call (a rejection) into a failed outcome', async () => {
    const registry = new ToolRegistry();
    const { source } = fakeSource([echo], () => Promise.reject(new Error('tools/call failed with JSON-RPC error -32602: Unknown tool: echo')));
    await registerMcpTools(registry, source);
    const outcome = await registry.execute('echo', { text: 'x' });
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toMatch(/-32602/);
  });

  it('a prefix keeps a remote tool apart from a local one of the same name', async () => {
    const registry = localRegistry();
    const { source, calls } = fakeSource([add], () => ({ content: [{ type: 'text', text: 'remote' }] }));
    expect(await registerMcpTools(registry, source, { prefix: 'mcp__calc__' })).toBe(1);
    expect(await registry.execute('add', {})).toEqual({ ok: true, text: 'local' });
    expect(await registry.execute('mcp__calc__add', { a: 1, b: 2 })).toEqual({ ok: true, text: 'remote' });
    expect(calls).toEqual([{ name: 'add', args: { a: 1, b: 2 } }]);
  });

  it('a clash without a prefix is an explicit DuplicateToolError naming the tool and the fix, and registers nothing', async () => {
    const registry = localRegistry();
    const { source } = fakeSource([echo, add]); // echo would be fine; add clashes
    const error = await registerMcpTools(registry, source, { server: 'calc' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(DuplicateToolError);
    expect((error as DuplicateToolError).toolName).toBe('add');
    expect((error as Error).message).toMatch(/"add"/);
    expect((error as Error).message).toMatch(/prefix: 'mcp__calc__'/);
    // All or nothing: echo, listed before the clash, was not registered either; the local add is untouched.
    expect(registry.list().map((spec) => spec.name)).toEqual(['add']);
    expect(await registry.execute('add', {})).toEqual({ ok: true, text: 'local' });
  });

  it('a server listing the same name twice is a clash too', async () => {
    const registry = new ToolRegistry();
    const { source } = fakeSource([echo, { ...echo, description: 'again' }]);
    await expect(registerMcpTools(registry, source)).rejects.toBeInstanceOf(DuplicateToolError);
    expect(registry.list()).toEqual([]);
  });

  it('applies one risk tier to every tool', async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeSource([echo, add]).source, { risk: 'approve' });
    expect(registry.list().map((spec) => spec.risk)).toEqual(['approve', 'approve']);
  });

  it('asks a risk function per tool', async () => {
    const registry = new ToolRegistry();
    const seen: string[] = [];
    const risk = (tool: ToolInfo) => {
      seen.push(tool.name);
      return tool.name === 'echo' ? ('suggest' as const) : ('approve' as const);
    };
    await registerMcpTools(registry, fakeSource([echo, add]).source, { risk });
    expect(seen).toEqual(['echo', 'add']);
    expect(registry.get('echo')?.risk).toBe('suggest');
    expect(registry.get('add')?.risk).toBe('approve');
  });

  it('can derive risk from annotations', async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeSource([echo, add]).source, { risk: riskFromAnnotations });
    expect(registry.get('echo')?.risk).toBe('approve'); // no annotations: possibly destructive
    expect(registry.get('add')?.risk).toBe('auto'); // read-only hint
  });

  it('rejects a name that is not a legal MCP tool name after prefixing, registering nothing', async () => {
    const registry = new ToolRegistry();
    const { source } = fakeSource([echo]);
    const error = await registerMcpTools(registry, source, { prefix: 'mcp:echo/' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InvalidToolNameError);
    expect((error as Error).message).toMatch(/"mcp:echo\/echo"/);
    expect(registry.list()).toEqual([]);

    const long = fakeSource([{ ...echo, name: 'x'.repeat(120) }]);
    await expect(registerMcpTools(registry, long.source, { prefix: 'mcp__server__' })).rejects.toBeInstanceOf(InvalidToolNameError);
    const spaced = fakeSource([{ ...echo, name: 'two words' }]);
    await expect(registerMcpTools(registry, spaced.source)).rejects.toBeInstanceOf(InvalidToolNameError);
    expect(registry.list()).toEqual([]);
  });

  it('registers nothing and returns 0 for a server without tools', async () => {
    const registry = new ToolRegistry();
    expect(await registerMcpTools(registry, fakeSource([]).source)).toBe(0);
    expect(registry.list()).toEqual([]);
  });

  it('propagates a failing tools/list', async () => {
    const registry = new ToolRegistry();
    const source: McpToolSource = { listTools: () => Promise.reject(new Error('not ready')), callTool: () => Promise.reject(new Error('unused')) };
    await expect(registerMcpTools(registry, source)).rejects.toThrow('not ready');
  });

  it('exposes bridged tools to the model with their schema', async () => {
    const registry = new ToolRegistry();
    await registerMcpTools(registry, fakeSource([echo]).source, { prefix: 'mcp__echo__' });
    expect(registry.modelTools()).toEqual([
      {
        name: 'mcp__echo__echo',
        description: 'Echo the given text back verbatim.',
        input_schema: { type: 'object', properties: { text: { type: 'string', description: 'Text to echo.' } }, required: ['text'] },
      },
    ]);
  });
});

describe('riskFromAnnotations', () => {
  const tool = (annotations?: ToolInfo['annotations']): ToolInfo => ({ name: 't', inputSchema: {}, ...(annotations ? { annotations } : {}) });

  it('treats a tool without annotations as possibly destructive', () => {
    expect(riskFromAnnotations(tool())).toBe('approve');
    expect(riskFromAnnotations(tool({}))).toBe('approve');
    expect(riskFromAnnotations(tool({ title: 'Nice tool' }))).toBe('approve');
  });

  it('lets read-only tools run, and shows non-destructive writers first', () => {
    expect(riskFromAnnotations(tool({ readOnlyHint: true }))).toBe('auto');
    expect(riskFromAnnotations(tool({ readOnlyHint: false, destructiveHint: false }))).toBe('suggest');
    expect(riskFromAnnotations(tool({ destructiveHint: true }))).toBe('approve');
    expect(riskFromAnnotations(tool({ readOnlyHint: false }))).toBe('approve');
  });
});

describe('isLegalToolName', () => {
  it('accepts 1-128 of [A-Za-z0-9_.-] and nothing else', () => {
    expect(isLegalToolName('echo')).toBe(true);
    expect(isLegalToolName('mcp__echo__echo')).toBe(true);
    expect(isLegalToolName('v1.get-item_2')).toBe(true);
    expect(isLegalToolName('x'.repeat(128))).toBe(true);
    expect(isLegalToolName('x'.repeat(129))).toBe(false);
    expect(isLegalToolName('')).toBe(false);
    expect(isLegalToolName('has space')).toBe(false);
    expect(isLegalToolName('slash/name')).toBe(false);
    expect(isLegalToolName('名字')).toBe(false);
  });
});
