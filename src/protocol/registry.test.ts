import { describe, expect, it } from 'vitest';
import { DuplicateToolError, ToolRegistry, type ToolSpec } from './registry.ts';

const add: ToolSpec = {
  name: 'add',
  description: 'Add two numbers.',
  parameters: [
    { name: 'a', type: 'number', required: true, description: 'First addend.' },
    { name: 'b', type: 'number', required: true, description: 'Second addend.' },
  ],
  risk: 'auto',
  source: { kind: 'local' },
};

function registryWithAdd(): ToolRegistry {
  const registry = new ToolRegistry();
  registry.register(add, (args) => String(Number(args.a) + Number(args.b)));
  return registry;
}

function thrownBy(action: () => void): unknown {
  try {
    action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw, but nothing was thrown');
}

describe('ToolRegistry', () => {
  it('registers, finds and lists tools in registration order', () => {
    const registry = registryWithAdd();
    registry.register({ name: 'get_time', description: 'Now.', parameters: [], risk: 'auto' }, () => 'noon');
    expect(registry.has('add')).toBe(true);
    expect(registry.has('nope')).toBe(false);
    expect(registry.get('add')).toEqual(add);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list().map((spec) => spec.name)).toEqual(['add', 'get_time']);
  });

  it('rejects a duplicate name with DuplicateToolError and keeps the original tool', async () => {
    const registry = registryWithAdd();
    const impostor: ToolSpec = { ...add, description: 'Subtracts instead.' };
    const error = thrownBy(() => registry.register(impostor, () => 'wrong'));
    expect(error).toBeInstanceOf(DuplicateToolError);
    expect((error as DuplicateToolError).toolName).toBe('add');
    expect((error as Error).message).toMatch(/"add" is already registered/);
    expect((error as Error).message).toMatch(/prefix/);
    expect(registry.get('add')?.description).toBe('Add two numbers.');
    expect(await registry.execute('add', { a: 2, b: 3 })).toEqual({ ok: true, text: '5' });
    expect(registry.list()).toHaveLength(1);
  });

  it('refuses an empty name and an unknown risk tier', () => {
    const registry = new ToolRegistry();
    expect(() => registry.register({ ...add, name: '' }, () => '')).toThrow(/non-empty name/);
    expect(() => registry.register({ ...add, risk: 'yolo' as never }, () => '')).toThrow(/risk must be one of/);
    expect(registry.list()).toEqual([]);
  });

  it('keeps its own copy of a spec: later edits by the caller change nothing', () => {
    const spec: ToolSpec = structuredClone(add);
    const registry = new ToolRegistry();
    registry.register(spec, () => '');
    spec.description = 'changed';
    spec.parameters[0]!.name = 'changed';
    registry.get('add')!.risk = 'approve';
    expect(registry.get('add')).toEqual(add);
  });

  it('executes a tool, awaiting async executors', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'slow', description: '', parameters: [], risk: 'auto' }, async (args) => `got ${JSON.stringify(args)}`);
    expect(await registry.execute('slow', { x: 1 })).toEqual({ ok: true, text: 'got {"x":1}' });
  });

  it('turns an unknown tool into data naming the tools that exist', async () => {
    const outcome = await registryWithAdd().execute('subtract', {});
    expect(outcome.ok).toBe(false);
    expect(outcome.text).toMatch(/Unknown tool "subtract"/);
    expect(outcome.text).toMatch(/add/);
    expect(await new ToolRegistry().execute('x', {})).toEqual({ ok: false, text: 'Unknown tool "x". Available tools: (none).' });
  });

  it('turns a synchronous throw into data: failure is text the model can read', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'boom', description: '', parameters: [], risk: 'auto' }, () => {
      throw new Error('disk on fire');
    });
    expect(await registry.execute('boom', {})).toEqual({ ok: false, text: 'Tool "boom" failed: disk on fire' });
  });

  it('turns a rejection (even of a non-Error) into data', async () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'reject', description: '', parameters: [], risk: 'auto' }, () => Promise.reject(new Error('timeout')));
    registry.register({ name: 'odd', description: '', parameters: [], risk: 'auto' }, () => Promise.reject('just a string'));
    expect(await registry.execute('reject', {})).toEqual({ ok: false, text: 'Tool "reject" failed: timeout' });
    expect(await registry.execute('odd', {})).toEqual({ ok: false, text: 'Tool "odd" failed: just a string' });
  });

  it('modelTools turns parameters back into a JSON schema', () => {
    const registry = registryWithAdd();
    registry.register(
      {
        name: 'search',
        description: 'Search.',
        parameters: [
          { name: 'query', type: 'string', required: true },
          { name: 'limit', type: 'integer', required: false, default: 10, nullable: true },
          { name: 'tags', type: 'array', required: false, items: 'string' },
          { name: 'mode', type: 'string', required: false, enum: ['fast', 'exact'] },
          { name: 'extra', type: 'any', required: false, description: 'Anything.' },
        ],
        risk: 'suggest',
      },
      () => '',
    );
    expect(registry.modelTools()).toEqual([
      {
        name: 'add',
        description: 'Add two numbers.',
        input_schema: {
          type: 'object',
          properties: { a: { type: 'number', description: 'First addend.' }, b: { type: 'number', description: 'Second addend.' } },
          required: ['a', 'b'],
        },
      },
      {
        name: 'search',
        description: 'Search.',
        input_schema: {
          type: 'object',
          properties: {
            query: { type: 'string' },
            limit: { type: ['integer', 'null'], default: 10 },
            tags: { type: 'array', items: { type: 'string' } },
            mode: { type: 'string', enum: ['fast', 'exact'] },
            extra: { description: 'Anything.' },
          },
          required: ['query'],
        },
      },
    ]);
  });

  it('modelTools gives a parameterless tool an empty object schema', () => {
    const registry = new ToolRegistry();
    registry.register({ name: 'get_time', description: 'Now.', parameters: [], risk: 'auto' }, () => '');
    expect(registry.modelTools()[0]?.input_schema).toEqual({ type: 'object', properties: {} });
  });
});
