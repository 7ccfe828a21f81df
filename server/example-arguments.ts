// Arguments that satisfy a simple input schema, for the conformance client programs
// (mcp-http-client.ts, mcp-era-client.ts): each required property gets a value of its type.

import type { ToolInfo } from '../src/protocol/mcp.ts';

export function exampleArguments(tool: ToolInfo): Record<string, unknown> {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const required = Array.isArray(schema.required) ? schema.required.filter((name): name is string => typeof name === 'string') : [];
  const args: Record<string, unknown> = {};
  for (const name of required) {
    const type = schema.properties?.[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : type === 'array' ? [] : type === 'object' ? {} : 'conformance';
  }
  return args;
}

