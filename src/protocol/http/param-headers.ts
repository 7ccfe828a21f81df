// Request metadata headers of the 2026-07-28 Streamable HTTP transport
// (transports/streamable-http.mdx "Request Metadata"): intermediaries route on headers, so the
// client mirrors body fields into them.
//
//   Mcp-Method        every request: `method`
//   Mcp-Name          tools/call and prompts/get: `params.name`; resources/read: `params.uri`
//   Mcp-Param-{Name}  tools/call: each argument whose property in the tool's inputSchema carries
//                     `"x-mcp-header": "{Name}"`
//
// A value that is not plain visible ASCII (non-ASCII, control characters, leading or trailing
// whitespace, or text that looks like the sentinel itself) travels as `=?base64?{UTF-8 base64}?=`.
// A tool whose x-mcp-header annotations break the rules MUST be left out of tools/list.

import { bytesToBase64 } from '../base64.ts';
import { MCP_NAME_METHODS } from '../era/meta.ts';

/** One annotated argument: where it sits in `arguments` and the header it goes to. */
export interface HeaderParam {
  path: string[];
  header: string;
}

export type HeaderAnnotations = { ok: true; params: HeaderParam[] } | { ok: false; reason: string };

/** RFC 9110 `token`: the characters a header name may use. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVE_TYPES = ['string', 'integer', 'boolean'];
const SENTINEL = /^=\?base64\?.*\?=$/s;

/**
 * Read and check a tool's x-mcp-header annotations. An annotation is valid only on a property
 * reached from the root through `properties` alone, with a primitive type (string, integer,
 * boolean — not number), a non-empty token name, unique without regard to case.
 */
export function readHeaderAnnotations(inputSchema: unknown): HeaderAnnotations {
  const params: HeaderParam[] = [];
  const problems: string[] = [];
  visit(inputSchema, 'root', [], params, problems);
  const seen = new Map<string, string>();
  for (const { header, path } of params) {
    const earlier = seen.get(header.toLowerCase());
    if (earlier !== undefined) problems.push(`x-mcp-header "${header}" on ${path.join('.')} repeats the one on ${earlier} (names are case-insensitive)`);
    seen.set(header.toLowerCase(), path.join('.'));
  }
  return problems.length === 0 ? { ok: true, params } : { ok: false, reason: problems.join('; ') };
}

type Position = 'root' | 'property' | 'elsewhere';

function visit(node: unknown, position: Position, path: string[], params: HeaderParam[], problems: string[]): void {
  if (Array.isArray(node)) {
    node.forEach((item, index) => visit(item, 'elsewhere', [...path, String(index)], params, problems));
    return;
  }
  if (!isObject(node)) return;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'x-mcp-header') {
      if (position === 'property') checkAnnotation(node, value, path, params, problems);
      else problems.push(`x-mcp-header at ${path.join('.') || 'the schema root'} is not on a property reached through "properties" alone`);
    } else if (key === 'properties' && position !== 'elsewhere' && isObject(value)) {
      for (const [name, property] of Object.entries(value)) visit(property, 'property', [...path, name], params, problems);
    } else {
      visit(value, 'elsewhere', [...path, key], params, problems);
    }
  }
}

function checkAnnotation(property: Record<string, unknown>, header: unknown, path: string[], params: HeaderParam[], problems: string[]): void {
  const where = path.join('.');
  if (typeof header !== 'string' || header === '') return void problems.push(`x-mcp-header on ${where} is empty`);
  if (!TOKEN.test(header)) return void problems.push(`x-mcp-header ${JSON.stringify(header)} on ${where} is not an HTTP token`);
  if (typeof property.type !== 'string' || !PRIMITIVE_TYPES.includes(property.type)) {
    return void problems.push(`x-mcp-header on ${where} needs type string, integer or boolean, not ${JSON.stringify(property.type)}`);
  }
  params.push({ path, header });
}

/** A header value as the spec writes it: plain when safe, else the Base64 sentinel. */
export function encodeHeaderValue(value: string): string {
  const plain = /^[\x20-\x7E]*$/.test(value) && value === value.trim() && !SENTINEL.test(value);
  return plain ? value : `=?base64?${bytesToBase64(new TextEncoder().encode(value))}?=`;
}

/** The Mcp-Param-* headers for a tools/call: one per annotated argument that has a value (null and absent are left out). */
export function paramHeaders(params: readonly HeaderParam[], args: unknown): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const { path, header } of params) {
    let value: unknown = args;
    for (const step of path) value = isObject(value) ? value[step] : undefined;
    if (typeof value === 'string') headers[`mcp-param-${header.toLowerCase()}`] = encodeHeaderValue(value);
    else if (typeof value === 'boolean') headers[`mcp-param-${header.toLowerCase()}`] = value ? 'true' : 'false';
    else if (typeof value === 'number' && Number.isSafeInteger(value)) headers[`mcp-param-${header.toLowerCase()}`] = String(value);
  }
  return headers;
}

/** Mcp-Method always; Mcp-Name for the three methods that name something. */
export function standardHeaders(method: string, params: unknown): Record<string, string> {
  const headers: Record<string, string> = { 'mcp-method': method };
  if (MCP_NAME_METHODS.includes(method) && isObject(params)) {
    const name = method === 'resources/read' ? params.uri : params.name;
    if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
  }
  return headers;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
