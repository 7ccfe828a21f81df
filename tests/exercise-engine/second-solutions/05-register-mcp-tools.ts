// A second correct solution to exercise 5, in another style than the reference: one file, tables
// instead of switches, a two-pass registration written with filter/map, description defaulting to
// a sentence rather than '', and placeholders worded its own way.
// second-solutions.test.ts requires the spec to pass on it.

import type { CallToolResult, JsonSchema, ToolInfo } from '@protocol/mcp';
import { DuplicateToolError, type RiskTier, type ToolParam, type ToolRegistry } from '@protocol/registry';

export interface McpToolSource {
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export interface RegisterMcpToolsOptions {
  prefix?: string;
  risk?: RiskTier | ((tool: ToolInfo) => RiskTier);
  server?: string;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const SIMPLE_TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array'];

/** [the one real type or 'any', nullable] of a property. */
function typeOf(property: Record<string, unknown>): [string, boolean] {
  const branches = Array.isArray(property.anyOf) ? property.anyOf.filter(isRecord).map((branch) => branch.type) : Array.isArray(property.type) ? property.type : [property.type];
  const nullable = branches.includes('null') && branches.length > 1;
  const rest = branches.filter((type) => type !== 'null');
  return rest.length === 1 && typeof rest[0] === 'string' && SIMPLE_TYPES.includes(rest[0]) ? [rest[0], nullable] : ['any', nullable];
}

export function schemaToParams(schema: JsonSchema | undefined): ToolParam[] {
  const properties = isRecord(schema) && isRecord(schema.properties) ? schema.properties : {};
  const required: unknown[] = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  return Object.keys(properties).map((name) => {
    const property = isRecord(properties[name]) ? (properties[name] as Record<string, unknown>) : {};
    const [type, nullable] = typeOf(property);
    const param: ToolParam = { name, type, required: required.includes(name) } as ToolParam;
    if (nullable) param.nullable = true;
    if (typeof property.description === 'string') param.description = property.description;
    if (Array.isArray(property.enum)) param.enum = property.enum;
    if ('default' in property) param.default = property.default;
    return param;
  });
}

const bytesOf = (data: unknown) => (typeof data === 'string' ? Math.floor((data.replace(/=+$/, '').length * 3) / 4) : 0);
const PLACEHOLDERS: Record<string, (block: Record<string, unknown>) => string> = {
  text: (block) => String(block.text),
  image: (block) => `<image ${String(block.mimeType)}, about ${bytesOf(block.data)} bytes>`,
  audio: (block) => `<audio ${String(block.mimeType)}, about ${bytesOf(block.data)} bytes>`,
  resource_link: (block) => `<link ${String(block.uri)}>`,
  resource: (block) => {
    const resource = isRecord(block.resource) ? block.resource : {};
    return typeof resource.text === 'string' ? `<resource ${String(resource.uri)}> ${resource.text}` : `<resource ${String(resource.uri)}, binary>`;
  },
};

export function mcpResultToText(result: CallToolResult): string {
  const blocks = (Array.isArray(result?.content) ? result.content : []) as Array<Record<string, unknown>>;
  const body = blocks.length === 0 ? '(empty result)' : blocks.map((block) => (PLACEHOLDERS[String(block.type)] ?? ((other) => `<${String(other.type)} block>`))(block)).join('\n');
  return (result?.isError === true ? '[tool error] ' : '') + body;
}

export function isLegalToolName(name: string): boolean {
  return name.length >= 1 && name.length <= 128 && [...name].every((char) => /[A-Za-z0-9_.-]/.test(char));
}

export function riskFromAnnotations(tool: ToolInfo): RiskTier {
  const { readOnlyHint, destructiveHint } = tool.annotations ?? {};
  return readOnlyHint === true ? 'auto' : destructiveHint === false ? 'suggest' : 'approve';
}

export async function registerMcpTools(registry: ToolRegistry, client: McpToolSource, options: RegisterMcpToolsOptions = {}): Promise<number> {
  const tools = await client.listTools();
  const names = tools.map((tool) => (options.prefix ?? '') + tool.name);
  const illegal = names.find((name) => !isLegalToolName(name));
  if (illegal !== undefined) throw new Error(`"${illegal}" is not a legal tool name; nothing was registered`);
  const clash = names.find((name, index) => registry.has(name) || names.indexOf(name) !== index);
  if (clash !== undefined) throw new DuplicateToolError(clash);
  tools.forEach((tool, index) => {
    const risk = typeof options.risk === 'function' ? options.risk(tool) : (options.risk ?? 'auto');
    registry.register(
      { name: names[index] as string, description: tool.description ?? `MCP tool ${tool.name}`, parameters: schemaToParams(tool.inputSchema), risk, source: { kind: 'mcp', remoteName: tool.name } },
      async (args) => mcpResultToText(await client.callTool(tool.name, args)),
    );
  });
  return tools.length;
}
