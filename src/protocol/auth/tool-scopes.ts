// The scopes of the playground's protected MCP servers, one rule for the authorization server that
// grants them and the resource server that asks for them: reading and calling tools needs
// `tools:read`; a tool that says it destroys (annotations.destructiveHint) needs `tools:write` too,
// so a client that signed in with the first meets a 403 and steps up.

import type { ToolInfo } from '../mcp.ts';

export const READ_SCOPE = 'tools:read';
export const WRITE_SCOPE = 'tools:write';
export const TOOL_SCOPES: readonly string[] = [READ_SCOPE, WRITE_SCOPE];

/** For a JSON-RPC message: the scopes it needs beyond READ_SCOPE. */
export function scopesForToolCall(tools: readonly Pick<ToolInfo, 'name' | 'annotations'>[]): (message: unknown) => readonly string[] {
  const destructive = new Set(tools.filter((tool) => tool.annotations?.destructiveHint === true).map((tool) => tool.name));
  return (message) => {
    if (typeof message !== 'object' || message === null) return [];
    const { method, params } = message as { method?: unknown; params?: { name?: unknown } };
    return method === 'tools/call' && typeof params?.name === 'string' && destructive.has(params.name) ? [WRITE_SCOPE] : [];
  };
}
