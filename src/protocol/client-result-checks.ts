// The wire is untrusted: before a result is handed out as a typed value, check the few fields the
// client relies on. Each check returns the typed result, or a string saying what is wrong.

import type { CallToolResult, InitializeResult, ListToolsResult } from './mcp.ts';
import { ProtocolViolationError } from './client-errors.ts';

/** Run a check on a result of `method`, throwing ProtocolViolationError when it fails. */
export function expectShape<T>(method: string, value: unknown, check: (value: unknown) => T | string): T {
  const checked = check(value);
  if (typeof checked === 'string') throw new ProtocolViolationError(method, checked);
  return checked;
}

export function checkInitializeResult(value: unknown): InitializeResult | string {
  if (!isObject(value)) return 'the result is not an object';
  if (typeof value.protocolVersion !== 'string') return '"protocolVersion" is missing or not a string';
  if (!isObject(value.capabilities)) return '"capabilities" is missing or not an object';
  if (!isObject(value.serverInfo) || typeof value.serverInfo.name !== 'string') return '"serverInfo.name" is missing or not a string';
  if (value.instructions !== undefined && typeof value.instructions !== 'string') return '"instructions" is not a string';
  return value as unknown as InitializeResult;
}

export function checkListToolsResult(value: unknown): ListToolsResult | string {
  if (!isObject(value)) return 'the result is not an object';
  if (!Array.isArray(value.tools)) return '"tools" is missing or not an array';
  const badIndex = value.tools.findIndex((tool) => !isObject(tool) || typeof tool.name !== 'string');
  if (badIndex !== -1) return `tools[${badIndex}] has no string "name"`;
  // Some servers write `"nextCursor": null` for "last page"; read it as absent.
  if (value.nextCursor === null) return { ...value, nextCursor: undefined } as unknown as ListToolsResult;
  if (value.nextCursor !== undefined && typeof value.nextCursor !== 'string') return '"nextCursor" is not a string';
  return value as unknown as ListToolsResult;
}

export function checkCallToolResult(value: unknown): CallToolResult | string {
  if (!isObject(value)) return 'the result is not an object';
  // Like the official SDK, a missing "content" means "no content" rather than an error.
  if (value.content === undefined) return { ...value, content: [] } as CallToolResult;
  if (!Array.isArray(value.content)) return '"content" is not an array';
  return value as unknown as CallToolResult;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
