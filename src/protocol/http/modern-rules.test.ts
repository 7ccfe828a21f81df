import { describe, expect, it } from 'vitest';
import type { JsonRpcRequest } from '../jsonrpc.ts';
import { decodeHeaderValue, modernHeaderProblem } from './modern-rules.ts';

const toolCall = (args: Record<string, unknown>): JsonRpcRequest => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'weather', arguments: args, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } },
});
const weather = { name: 'weather', inputSchema: { type: 'object', properties: { city: { type: 'string', 'x-mcp-header': 'City' } } } };
const findTool = (name: string) => (name === 'weather' ? weather : undefined);
const base = { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'weather' };

describe('Streamable HTTP request metadata (2026-07-28)', () => {
  it('decodes the =?base64?...?= sentinel strictly and takes anything else literally', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeHeaderValue('  plain  ')).toBe('plain');
    expect(decodeHeaderValue('=?base64?SGVsbG8=')).toBe('=?base64?SGVsbG8=');
    expect(decodeHeaderValue('=?base64?SGVsbG8?=')).toBeNull(); // missing padding
    expect(decodeHeaderValue('=?base64?SGVs!!!bG8=?=')).toBeNull();
  });

  it('accepts headers that mirror the body, with whitespace around values', () => {
    expect(modernHeaderProblem({ ...base, 'mcp-name': '  weather ', 'mcp-param-city': '=?base64?5YyX5Lqs?=' }, toolCall({ city: '北京' }), findTool)).toBeNull();
  });

  it('refuses a missing or different version, method, name or mirrored argument', () => {
    const cases: Record<string, string | undefined>[] = [
      { 'mcp-protocol-version': undefined },
      { 'mcp-protocol-version': '2025-11-25' },
      { 'mcp-method': undefined },
      { 'mcp-method': 'TOOLS/CALL' },
      { 'mcp-name': undefined },
      { 'mcp-name': 'other' },
      { 'mcp-param-city': undefined },
      { 'mcp-param-city': 'Paris' },
    ];
    for (const change of cases) {
      const headers = { ...base, 'mcp-param-city': 'Lyon', ...change };
      expect(modernHeaderProblem(headers, toolCall({ city: 'Lyon' }), findTool), JSON.stringify(change)).not.toBeNull();
    }
  });
});
