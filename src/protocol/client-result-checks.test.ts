import { describe, expect, it } from 'vitest';
import { checkCallToolResult, checkInitializeResult, checkListToolsResult, expectShape } from './client-result-checks.ts';
import { ProtocolViolationError } from './client-errors.ts';

const serverInfo = { name: 'echo', version: '1' };

describe('checkInitializeResult', () => {
  it('accepts a well-formed result as is', () => {
    const result = { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo, instructions: 'hi' };
    expect(checkInitializeResult(result)).toBe(result);
  });

  it('names the field that is wrong', () => {
    expect(checkInitializeResult(null)).toMatch(/not an object/);
    expect(checkInitializeResult({ capabilities: {}, serverInfo })).toMatch(/protocolVersion/);
    expect(checkInitializeResult({ protocolVersion: 'v', serverInfo })).toMatch(/capabilities/);
    expect(checkInitializeResult({ protocolVersion: 'v', capabilities: {}, serverInfo: { version: '1' } })).toMatch(/serverInfo\.name/);
    expect(checkInitializeResult({ protocolVersion: 'v', capabilities: {}, serverInfo, instructions: 7 })).toMatch(/instructions/);
  });
});

describe('checkListToolsResult', () => {
  it('accepts tools with names, and reads nextCursor: null as the last page', () => {
    expect(checkListToolsResult({ tools: [{ name: 'echo', inputSchema: {} }], nextCursor: 'p2' })).toEqual({ tools: [{ name: 'echo', inputSchema: {} }], nextCursor: 'p2' });
    expect(checkListToolsResult({ tools: [], nextCursor: null })).toEqual({ tools: [], nextCursor: undefined });
  });

  it('refuses a missing list, a nameless tool and a non-string cursor', () => {
    expect(checkListToolsResult({})).toMatch(/"tools"/);
    expect(checkListToolsResult({ tools: [{ name: 'a' }, { description: 'x' }] })).toMatch(/tools\[1\]/);
    expect(checkListToolsResult({ tools: [], nextCursor: 2 })).toMatch(/nextCursor/);
  });
});

describe('checkCallToolResult', () => {
  it('reads a missing content as empty, like the SDK, and refuses a non-array', () => {
    expect(checkCallToolResult({ isError: true })).toEqual({ isError: true, content: [] });
    expect(checkCallToolResult({ content: {} })).toMatch(/"content" is not an array/);
    expect(checkCallToolResult('text')).toMatch(/not an object/);
  });
});

describe('expectShape', () => {
  it('returns the checked value or throws ProtocolViolationError naming the method', () => {
    expect(expectShape('tools/list', { tools: [] }, checkListToolsResult)).toEqual({ tools: [] });
    expect(() => expectShape('tools/list', {}, checkListToolsResult)).toThrow(ProtocolViolationError);
    expect(() => expectShape('tools/list', {}, checkListToolsResult)).toThrow(/^tools\/list: the server broke the protocol/);
  });
});
