// Exercise 5: the bridge from an MCP server into the local tool registry.
//
// After registerMcpTools has run, a remote tool is an ordinary registry entry: the model loop, the
// schema given to the model and the risk gate cannot tell it from a local tool. You write four
// small pieces; each function below throws until you do.

import type { CallToolResult, JsonSchema, ToolInfo } from '@protocol/mcp';
import { DuplicateToolError, type RiskTier, type ToolParam, type ToolRegistry, type ToolSpec } from '@protocol/registry';

/** What the bridge needs from an MCP client. The real client has these methods; so does the spec's fake. */
export interface McpToolSource {
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export interface RegisterMcpToolsOptions {
  /** Put before every remote name, e.g. 'mcp__echo__'. Default ''. */
  prefix?: string;
  /** One tier for every tool, or a function that picks one per tool. Default 'auto', as in the chapter. */
  risk?: RiskTier | ((tool: ToolInfo) => RiskTier);
  /** The server's name, for error messages (optional). */
  server?: string;
}

// ---------------------------------------------------------------------------------------------
// 1. JSON Schema -> the registry's parameter list
// ---------------------------------------------------------------------------------------------

/**
 * One ToolParam per entry of `schema.properties`, in order:
 *   { name, type, required, description?, enum?, default?, nullable? }
 * - `type` is the property's JSON Schema type name ('string', 'integer', …). When the property
 *   has no single type (no `type` at all, or a union such as string | number), use 'any'.
 * - `required` is true when the name is in `schema.required`.
 * - A nullable type may come as `anyOf: [{ type: 'string' }, { type: 'null' }]`: that is type
 *   'string' with `nullable: true`.
 * - Ignore what the list cannot hold ($schema, additionalProperties, …). Never throw: a missing
 *   or odd schema gives [].
 */
export function schemaToParams(schema: JsonSchema | undefined): ToolParam[] {
  throw new Error('TODO: schemaToParams — one ToolParam per property of the schema');
}

// ---------------------------------------------------------------------------------------------
// 2. A tools/call result -> the one string the model reads
// ---------------------------------------------------------------------------------------------

/**
 * - text blocks: their text; blocks are joined with '\n'.
 * - image / audio: a short placeholder such as '[image: image/png, 68 bytes]' (never the base64 data).
 * - resource_link: a placeholder that shows the uri; resource: its uri, and its text if it has one.
 * - any other type: a placeholder that names the type. Empty content: something like '(no content)'.
 * - isError: true -> put '[tool error] ' in front, so the model knows the tool failed.
 */
export function mcpResultToText(result: CallToolResult): string {
  throw new Error('TODO: mcpResultToText — turn the content blocks into one string');
}

// ---------------------------------------------------------------------------------------------
// 3. Names and risk
// ---------------------------------------------------------------------------------------------

/**
 * MCP's rule for tool names (a SHOULD in the specification): 1 to 128 characters, each one of
 * A-Z, a-z, 0-9, '_', '.', '-'. Model APIs are often stricter (no '.', at most 64 characters).
 */
export function isLegalToolName(name: string): boolean {
  throw new Error('TODO: isLegalToolName');
}

/**
 * A risk tier from the tool's annotations, which are hints from a server you may not trust:
 * readOnlyHint true -> 'auto'; destructiveHint false -> 'suggest'; anything else (including no
 * annotations at all) -> 'approve'.
 */
export function riskFromAnnotations(tool: ToolInfo): RiskTier {
  throw new Error('TODO: riskFromAnnotations');
}

// ---------------------------------------------------------------------------------------------
// 4. The bridge
// ---------------------------------------------------------------------------------------------

/**
 * List the server's tools and register each one as `prefix + tool.name`. Return how many were registered.
 *
 * - The spec: { name, description (or ''), parameters: schemaToParams(inputSchema), risk, source }.
 *   `source` can be { kind: 'mcp', remoteName: tool.name }.
 * - The executor forwards: args -> client.callTool(<the REMOTE name>, args) -> mcpResultToText(result).
 * - A name that is illegal, already in the registry, or listed twice by the server: throw, and
 *   register nothing from this server (check every name first, then register). For a clash, throw
 *   a DuplicateToolError, e.g. new DuplicateToolError(name, 'a message that suggests a prefix').
 */
export async function registerMcpTools(registry: ToolRegistry, client: McpToolSource, options: RegisterMcpToolsOptions = {}): Promise<number> {
  throw new Error('TODO: registerMcpTools — list the tools, check every name, then register each one with a forwarding executor');
}
