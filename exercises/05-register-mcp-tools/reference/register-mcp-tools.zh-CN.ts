// 从 MCP 服务器通往本地注册表的桥接代码：每个远程工具都变成一个普通的注册表条目，
// 它的执行函数转发给 tools/call。此后，模型循环、交给模型的 schema 和审批门
// 对远程工具和本地工具一视同仁。

import type { CallToolResult, ToolInfo } from './mcp.ts';
import { DuplicateToolError, type RiskTier, type ToolRegistry, type ToolSpec } from './registry.ts';
import { schemaToParams } from './schema-to-params.ts';
import { mcpResultToText } from './mcp-result-to-text.ts';

/** 桥接代码需要客户端提供的东西；McpClient 满足它，测试替身也可以。 */
export interface McpToolSource {
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export interface RegisterMcpToolsOptions {
  /** 加在每个远程名字前面，例如 'mcp__echo__'，这样远程工具就不会和本地工具重名。默认为 ''。 */
  prefix?: string;
  /** 所有工具用同一个风险档位，或者按工具选择（见 riskFromAnnotations）。默认 'auto'，与本章一致。 */
  risk?: RiskTier | ((tool: ToolInfo) => RiskTier);
  /** 服务器的名字，记录在每个工具的来源里，也用在错误消息中。 */
  server?: string;
}

/** MCP 对工具名的规则：1 到 128 个 A-Z、a-z、0-9、'_'、'.'、'-'。 */
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
 * 从工具的注解得出风险档位。注解是来自一个我们未必信任的服务器的提示，
 * 所以存疑时偏向谨慎：没有注解就意味着“可能有破坏性”。
 */
export function riskFromAnnotations(tool: ToolInfo): RiskTier {
  const hints = tool.annotations;
  if (hints?.readOnlyHint === true) return 'auto';
  if (hints?.destructiveHint === false) return 'suggest';
  return 'approve';
}

/**
 * 列出服务器的工具，把每个注册为 `prefix + name`。返回注册了多少个。
 *
 * 要么全部成功，要么什么都不做：在注册第一个之前先检查每个名字（合法、未被占用、不重复），
 * 所以一次重名会让注册表保持原样，而不是只接进一半。
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
    // 服务器把失败的工具报告为 isError 结果，它仍是模型能读的文本。
    // 协议层面的失败（未知工具、超时、已关闭）会抛出，由注册表把它们变成数据。
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
