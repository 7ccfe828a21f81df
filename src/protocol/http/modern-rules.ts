// Streamable HTTP's request-metadata rules for 2026-07-28 (transports/streamable-http.mdx,
// "Request Metadata" and "Server Validation"): the body is the truth and the headers mirror it so
// gateways can route without parsing JSON; a header that disagrees with the body (or is missing
// when the body has the value) is refused with 400 and -32020 HeaderMismatch.
//
//   MCP-Protocol-Version  = _meta["io.modelcontextprotocol/protocolVersion"]   every request
//   Mcp-Method            = method                                             every request
//   Mcp-Name              = params.name or params.uri      tools/call, resources/read, prompts/get
//   Mcp-Param-{X}         = the tool argument whose schema says "x-mcp-header": "X"
//
// Header names are case-insensitive, values are not; whitespace around a value is not part of it
// (RFC 9110 5.5). A value that cannot travel as plain ASCII is sent as =?base64?...?=; anything
// else, including a half-wrapped value, is taken literally.

import type { JsonRpcRequest } from '../jsonrpc.ts';
import { MCP_NAME_METHODS, META_PROTOCOL_VERSION, requestMeta } from '../era/meta.ts';
import type { ToolInfo } from '../mcp.ts';
import { headerValue, type HttpHeaders } from './types.ts';

export const MODERN_HEADER = {
  method: 'mcp-method',
  name: 'mcp-name',
  paramPrefix: 'mcp-param-',
} as const;

/** Optional whitespace (space, tab) around a field value is not part of it. */
export function stripOws(value: string): string {
  return value.replace(/^[ \t]+|[ \t]+$/g, '');
}

const SENTINEL = /^=\?base64\?(.*)\?=$/;

/** A header value as the text it carries; null when it claims Base64 but is not valid Base64. */
export function decodeHeaderValue(raw: string): string | null {
  const value = stripOws(raw);
  const match = SENTINEL.exec(value);
  if (match === null) return value;
  const encoded = match[1]!;
  // Strict: the standard alphabet, padded to a multiple of four.
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return null;
  try {
    const binary = atob(encoded);
    return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
  } catch {
    return null;
  }
}

/** The body value a header mirrors, as header text; undefined when the body has none. */
function asHeaderText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** One mirrored header against its body value: null when they agree (or both are absent). */
function mirrorProblem(headers: HttpHeaders, name: string, bodyValue: string | undefined, label: string): string | null {
  const raw = headerValue(headers, name);
  if (raw === undefined) return bodyValue === undefined ? null : `the ${label} header is required: the body has ${JSON.stringify(bodyValue)}`;
  const decoded = decodeHeaderValue(raw);
  if (decoded === null) return `the ${label} header is not valid Base64 inside =?base64?...?=`;
  if (bodyValue === undefined) return `the ${label} header names ${JSON.stringify(decoded)} but the body has no such value`;
  return decoded === bodyValue ? null : `the ${label} header names ${JSON.stringify(decoded)} but the body has ${JSON.stringify(bodyValue)}`;
}

/** The top-level tool arguments mirrored into Mcp-Param-* headers, by argument name. */
export function mirroredArguments(tool: ToolInfo): Map<string, string> {
  const mirrored = new Map<string, string>();
  const properties = (tool.inputSchema as { properties?: unknown }).properties;
  if (typeof properties !== 'object' || properties === null) return mirrored;
  for (const [argument, schema] of Object.entries(properties)) {
    const header = (schema as { 'x-mcp-header'?: unknown } | null)?.['x-mcp-header'];
    if (typeof header === 'string' && header !== '') mirrored.set(argument, header);
  }
  return mirrored;
}

/**
 * What is wrong with a modern request's mirrored headers, or null. `findTool` looks up a tool by
 * name, for its x-mcp-header arguments.
 */
export function modernHeaderProblem(headers: HttpHeaders, request: JsonRpcRequest, findTool: (name: string) => ToolInfo | undefined): string | null {
  const version = requestMeta(request.params)?.[META_PROTOCOL_VERSION];
  const header = headerValue(headers, 'mcp-protocol-version');
  if (header === undefined) return 'the MCP-Protocol-Version header is required and must match _meta protocolVersion';
  if (typeof version === 'string' && stripOws(header) !== version) {
    return `the MCP-Protocol-Version header names ${JSON.stringify(stripOws(header))} but _meta names ${JSON.stringify(version)}`;
  }
  const method = headerValue(headers, MODERN_HEADER.method);
  if (method === undefined) return `the Mcp-Method header is required (the body's method is ${JSON.stringify(request.method)})`;
  if (stripOws(method) !== request.method) return `the Mcp-Method header names ${JSON.stringify(stripOws(method))} but the body's method is ${JSON.stringify(request.method)}`;

  if (!MCP_NAME_METHODS.includes(request.method)) return null;
  const params = (typeof request.params === 'object' && request.params !== null ? request.params : {}) as Record<string, unknown>;
  const name = asHeaderText(request.method === 'resources/read' ? params.uri : params.name);
  const nameProblem = mirrorProblem(headers, MODERN_HEADER.name, name, 'Mcp-Name');
  if (nameProblem !== null) return nameProblem;

  if (request.method !== 'tools/call' || name === undefined) return null;
  const tool = findTool(name);
  if (tool === undefined) return null;
  const args = (typeof params.arguments === 'object' && params.arguments !== null ? params.arguments : {}) as Record<string, unknown>;
  for (const [argument, suffix] of mirroredArguments(tool)) {
    const problem = mirrorProblem(headers, `${MODERN_HEADER.paramPrefix}${suffix}`, asHeaderText(args[argument]), `Mcp-Param-${suffix}`);
    if (problem !== null) return problem;
  }
  return null;
}
