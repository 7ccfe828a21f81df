import { describe, expect, it } from 'vitest';
import { eraFields } from './era-fields.ts';

describe('eraFields', () => {
  it('finds the envelope keys of a request, with their paths', () => {
    const request = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { cursor: 'x', _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, progressToken: 3 } },
    };
    expect(eraFields(request)).toEqual([
      { path: ['params', '_meta', 'io.modelcontextprotocol/protocolVersion'], key: 'io.modelcontextprotocol/protocolVersion', value: '2026-07-28' },
      { path: ['params', '_meta', 'io.modelcontextprotocol/clientCapabilities'], key: 'io.modelcontextprotocol/clientCapabilities', value: {} },
    ]);
  });

  it('finds serverInfo in a result and its resultType', () => {
    const response = { jsonrpc: '2.0', id: 1, result: { tools: [], resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } } } };
    expect(eraFields(response).map((field) => field.key)).toEqual(['io.modelcontextprotocol/serverInfo', 'resultType']);
  });

  it('finds nothing in a handshake-era frame, or in anything that is not an object', () => {
    expect(eraFields({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {} } })).toEqual([]);
    expect(eraFields({ jsonrpc: '2.0', id: 0, result: { _meta: { progressToken: 1 } } })).toEqual([]);
    for (const value of [null, 3, 'x', [], { params: [] }]) expect(eraFields(value)).toEqual([]);
  });
});
