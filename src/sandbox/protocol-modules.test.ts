import { describe, expect, it } from 'vitest';
import { findProtocolModule, protocolIdOfPath, protocolModulesFromGlob, resolveRelative } from './protocol-modules.ts';

describe('protocol modules', () => {
  it('normalises glob keys and leaves test files out', () => {
    const a = {};
    const b = {};
    const modules = protocolModulesFromGlob({ '../protocol/jsonrpc.ts': a, '/src/protocol/framing/index.ts': b, '../protocol/jsonrpc.test.ts': {}, './other.ts': {} });
    expect(modules).toEqual({ '@protocol/jsonrpc': a, '@protocol/framing/index': b });
  });

  it('loads every reference module through the same glob the worker uses', () => {
    const modules = protocolModulesFromGlob(import.meta.glob(['../protocol/**/*.ts', '!../protocol/**/*.test.ts', '!../protocol/inspect/**'], { eager: true }));
    expect(Object.keys(modules)).toEqual(expect.arrayContaining(['@protocol/jsonrpc', '@protocol/mcp', '@protocol/framing/index', '@protocol/client']));
    expect(typeof (modules['@protocol/jsonrpc'] as { encodeRequest?: unknown }).encodeRequest).toBe('function');
    expect(Object.keys(modules).some((key) => key.endsWith('.test'))).toBe(false);
  });

  it('finds a module by name, with an extension or as a folder', () => {
    const modules = { '@protocol/jsonrpc': {}, '@protocol/framing/index': {} };
    expect(findProtocolModule(modules, '@protocol/jsonrpc')).toBe('@protocol/jsonrpc');
    expect(findProtocolModule(modules, '@protocol/jsonrpc.ts')).toBe('@protocol/jsonrpc');
    expect(findProtocolModule(modules, '@protocol/framing')).toBe('@protocol/framing/index');
    expect(findProtocolModule(modules, '@protocol/nope')).toBeUndefined();
    expect(findProtocolModule(modules, 'jsonrpc')).toBeUndefined();
  });

  it('maps a source path to its module id and resolves relative specifiers', () => {
    expect(protocolIdOfPath('src/protocol/framing/ndjson.ts')).toBe('@protocol/framing/ndjson');
    expect(protocolIdOfPath('exercises/01-jsonrpc/starter.ts')).toBeUndefined();
    expect(resolveRelative('@protocol/framing/ndjson', './types.ts')).toBe('@protocol/framing/types.ts');
    expect(resolveRelative('@protocol/framing/ndjson', '../jsonrpc')).toBe('@protocol/jsonrpc');
    expect(resolveRelative('@protocol/jsonrpc', '../outside')).toBeUndefined();
  });
});
