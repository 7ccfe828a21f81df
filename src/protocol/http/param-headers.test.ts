// The request metadata headers of the 2026-07-28 HTTP transport: which x-mcp-header annotations a
// client must refuse, and how values are written (streamable-http.mdx "Value Encoding", whose
// examples are checked here byte for byte).

import { describe, expect, it } from 'vitest';
import { encodeHeaderValue, paramHeaders, readHeaderAnnotations, standardHeaders } from './param-headers.ts';

const tool = (properties: Record<string, unknown>) => ({ type: 'object', properties });

describe('x-mcp-header annotations', () => {
  it('reads annotations on top-level and nested properties', () => {
    const schema = tool({ region: { type: 'string', 'x-mcp-header': 'Region' }, options: { type: 'object', properties: { verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' } } }, query: { type: 'string' } });
    expect(readHeaderAnnotations(schema)).toEqual({
      ok: true,
      params: [
        { path: ['region'], header: 'Region' },
        { path: ['options', 'verbose'], header: 'Verbose' },
      ],
    });
  });

  it.each([
    ['an empty name', tool({ value: { type: 'string', 'x-mcp-header': '' } }), /empty/],
    ['an object type', tool({ data: { type: 'object', 'x-mcp-header': 'Data' } }), /type/],
    ['an array type', tool({ items: { type: 'array', items: { type: 'string' }, 'x-mcp-header': 'Items' } }), /type/],
    ['a null type', tool({ nil: { type: 'null', 'x-mcp-header': 'Nil' } }), /type/],
    ['a number type', tool({ score: { type: 'number', 'x-mcp-header': 'Score' } }), /type/],
    ['the same name twice', tool({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'Region' } }), /repeats/],
    ['names equal but for case', tool({ a: { type: 'string', 'x-mcp-header': 'MyField' }, b: { type: 'string', 'x-mcp-header': 'myfield' } }), /repeats/],
    ['a space', tool({ value: { type: 'string', 'x-mcp-header': 'My Region' } }), /token/],
    ['a colon', tool({ value: { type: 'string', 'x-mcp-header': 'Region:Primary' } }), /token/],
    ['a non-ASCII letter', tool({ value: { type: 'string', 'x-mcp-header': 'Région' } }), /token/],
    ['a control character', tool({ value: { type: 'string', 'x-mcp-header': 'Region\t1' } }), /token/],
    ['a place reached through items', tool({ list: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Item' } } }), /not on a property/],
    ['a place reached through anyOf', { type: 'object', anyOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] }, /not on a property/],
    ['a place reached through $defs', { type: 'object', $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } }, /not on a property/],
  ])('refuses %s', (_what, schema, reason) => {
    const read = readHeaderAnnotations(schema);
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.reason).toMatch(reason);
  });
});

describe('header values', () => {
  it.each([
    ['us-west1', 'us-west1'],
    ['Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
    [' padded ', '=?base64?IHBhZGRlZCA=?='],
    ['line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
    ['=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
    ['us west 1', 'us west 1'],
    ['\tindented', '=?base64?CWluZGVudGVk?='],
    ['', ''],
  ])('writes %j as %j (the specification\'s examples)', (value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
  });

  it('mirrors annotated arguments by type and leaves out null, absent and unannotated ones', () => {
    const read = readHeaderAnnotations(tool({ region: { type: 'string', 'x-mcp-header': 'Region' }, priority: { type: 'integer', 'x-mcp-header': 'Priority' }, verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' }, debug: { type: 'boolean', 'x-mcp-header': 'Debug' }, float_val: { type: 'number' } }));
    if (!read.ok) throw new Error(read.reason);
    expect(paramHeaders(read.params, { region: 'eu', priority: 42, verbose: null, float_val: 3.14, debug: false })).toEqual({
      'mcp-param-region': 'eu',
      'mcp-param-priority': '42',
      'mcp-param-debug': 'false',
    });
  });

  it('names what the request is about: Mcp-Method always, Mcp-Name for tools/call, resources/read and prompts/get', () => {
    expect(standardHeaders('tools/list', {})).toEqual({ 'mcp-method': 'tools/list' });
    expect(standardHeaders('tools/call', { name: 'my-hyphenated-tool' })).toEqual({ 'mcp-method': 'tools/call', 'mcp-name': 'my-hyphenated-tool' });
    expect(standardHeaders('resources/read', { uri: 'file:///path/to/file%20name.txt' })).toEqual({ 'mcp-method': 'resources/read', 'mcp-name': 'file:///path/to/file%20name.txt' });
    expect(standardHeaders('prompts/get', { name: '提示' })).toEqual({ 'mcp-method': 'prompts/get', 'mcp-name': '=?base64?5o+Q56S6?=' });
  });
});
