// The bridge from an MCP server into the local registry: each remote tool becomes an ordinary
// registry entry whose executor forwards to tools/call. After this, the model loop, the schema
// given to the model and the risk gate treat remote and local tools alike.

import type { CallToolResult, ToolInfo } from './mcp.ts';
import { DuplicateToolError, type RiskTier, type ToolRegistry, type ToolSpec } from './registry.ts';
import { schemaToParams } from './schema-to-params.ts';
import { mcpResultToText } from './mcp-result-to-text.ts';

/** What the bridge needs from a client; McpClient satisfies it, and so can a test double. */
export interface McpToolSource {
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export interface RegisterMcpToolsOptions {
  /** Put before every remote name, e.g. 'mcp__echo__', so remote tools cannot clash with local ones. Default ''. */
  prefix?: string;
  /** One tier for every tool, or a choice per tool (see riskFromAnnotations). Default 'auto', as in the chapter. */
  risk?: RiskTier | ((tool: ToolInfo) => RiskTier);
  /** The server's name, recorded in each tool's source and used in error messages. */
  server?: string;
}

/** MCP's rule for tool names: 1 to 128 of A-Z, a-z, 0-9, '_', '.', '-'. */
const LEGAL_TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

export function isLegalToolName(name: string): boolean {
  return LEGAL_TOOL_NAME.test(name);
}

export class InvalidToolNameError extends Error {
  override name = 'InvalidToolNameError';
  constructor(
    readonly toolName: string,
    readonly remoteName: string,
  ) {
    super(
      `Cannot register MCP tool "${remoteName}" as "${toolName}": a tool name must be 1-128 characters of ` +
        `A-Z, a-z, 0-9, '_', '.' or '-'. Nothing from this server was registered; choose a prefix made of those characters.`,
    );
  }
}

/**
 * A tier from the tool's annotations. Annotations are hints from a server we may not trust, so
 * the benefit of the doubt goes to caution: no annotations means "possibly destructive".
 */
export function riskFromAnnotations(tool: ToolInfo): RiskTier {
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true) return 'auto';
  if (hints?.destructiveHint === false) return 'suggest';
  return 'approve';
}

/**
 * List the server's tools and register each one as `prefix + name`. Returns how many were registered.
 *
 * All or nothing: every name is checked (legal, not taken, not repeated) before the first one is
 * registered, so a clash leaves the registry exactly as it was instead of half-bridged.
 */
export async function registerMcpTools(registry: ToolRegistry, client: McpToolSource, options: RegisterMcpToolsOptions = {}): Promise<number> {
  const prefix = options.prefix ?? '';
  const chooseRisk = options.risk ?? 'auto';
  const tools = await client.listTools();

  const planned: Array<{ spec: ToolSpec; remoteName: string }> = [];
  const plannedNames = new Set<string>();
  for (const tool of tools) {
    const name = prefix + tool.name;
    if (!isLegalToolName(name)) throw new InvalidToolNameError(name, tool.name);
    if (registry.has(name) || plannedNames.has(name)) throw clashError(name, tool.name, options.server);
    plannedNames.add(name);
    const spec: ToolSpec = {
      name,
      description: tool.description ?? '',
      parameters: schemaToParams(tool.inputSchema),
      risk: typeof chooseRisk === 'function' ? chooseRisk(tool) : chooseRisk,
      source: { kind: 'mcp', remoteName: tool.name, ...(options.server === undefined ? {} : { server: options.server }) },
    };
    planned.push({ spec, remoteName: tool.name });
  }

  for (const { spec, remoteName } of planned) {
    // The server reports a failing tool as an isError result, which stays text the model can read.
    // Protocol failures (unknown tool, timeout, closed) throw, and the registry turns them into data.
    registry.register(spec, async (args) => mcpResultToText(await client.callTool(remoteName, args)));
  }
  return planned.length;
}

function clashError(name: string, remoteName: string, server: string | undefined): DuplicateToolError {
  const suggested = `mcp__${(server ?? 'server').replace(/[^A-Za-z0-9_.-]/g, '_')}__`;
  return new DuplicateToolError(
    name,
    `Cannot register MCP tool "${remoteName}" as "${name}": a tool with that name is already registered ` +
      `(or the server lists it twice). Nothing from this server was registered. ` +
      `Give remote tools a namespace, e.g. registerMcpTools(registry, client, { prefix: '${suggested}' }).`,
  );
}
