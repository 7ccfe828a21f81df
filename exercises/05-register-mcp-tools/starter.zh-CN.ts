// 练习 5：把 MCP 服务器接进本地工具注册表的桥接代码。
//
// registerMcpTools 运行之后，远程工具就是注册表里一个普通的条目：模型主循环、交给模型的 schema 和
// 审批门都分不出它和本地工具。你要写四个小部分；下面每个函数在你写好之前都会抛异常。

import type { CallToolResult, JsonSchema, ToolInfo } from '@protocol/mcp';
import { DuplicateToolError, type RiskTier, type ToolParam, type ToolRegistry, type ToolSpec } from '@protocol/registry';

/** 桥接代码需要 MCP 客户端提供的东西。真正的客户端有这些方法，规格测试里的假客户端也有。 */
export interface McpToolSource {
  listTools(): Promise<ToolInfo[]>;
  callTool(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export interface RegisterMcpToolsOptions {
  /** 加在每个远程名字前面，例如 'mcp__echo__'。默认 ''。 */
  prefix?: string;
  /** 所有工具共用一个档位，或者一个为每个工具选档位的函数。默认 'auto'，与本章一致。 */
  risk?: RiskTier | ((tool: ToolInfo) => RiskTier);
  /** 服务器的名字，用在错误消息里（可选）。 */
  server?: string;
}

// ---------------------------------------------------------------------------------------------
// 1. JSON Schema -> 注册表的参数列表
// ---------------------------------------------------------------------------------------------

/**
 * `schema.properties` 里每一项对应一个 ToolParam，保持顺序：
 *   { name, type, required, description?, enum?, default?, nullable? }
 * - `type` 是这个属性的 JSON Schema 类型名（'string'、'integer'……）。属性没有单一类型时
 *   （根本没有 `type`，或者是 string | number 这样的联合），用 'any'。
 * - 名字在 `schema.required` 里时，`required` 为 true。
 * - 可为 null 的类型可能写成 `anyOf: [{ type: 'string' }, { type: 'null' }]`：这就是类型
 *   'string' 加上 `nullable: true`。
 * - 列表装不下的东西（$schema、additionalProperties……）一律忽略。永不抛异常：schema 缺失或古怪时返回 []。
 */
export function schemaToParams(schema: JsonSchema | undefined): ToolParam[] {
  throw new Error('TODO: schemaToParams — one ToolParam per property of the schema');
}

// ---------------------------------------------------------------------------------------------
// 2. tools/call 的结果 -> 模型读到的那一个字符串
// ---------------------------------------------------------------------------------------------

/**
 * - 文本块：取它的文字；多个块用 '\n' 连起来。
 * - 图片 / 音频：一段简短的占位文字，例如 '[image: image/png, 68 bytes]'（绝不放 base64 数据）。
 * - resource_link：显示 uri 的占位文字；resource：它的 uri，带文本的话把文本也附上。
 * - 其他类型：写出类型名的占位文字。content 为空：类似 '(no content)' 的文字。
 * - isError: true -> 在前面加上 '[tool error] '，让模型知道工具失败了。
 */
export function mcpResultToText(result: CallToolResult): string {
  throw new Error('TODO: mcpResultToText — turn the content blocks into one string');
}

// ---------------------------------------------------------------------------------------------
// 3. 名字与风险
// ---------------------------------------------------------------------------------------------

/**
 * MCP 对工具名的规则（规范里是「应当」，SHOULD）：1 到 128 个字符，每个字符取自
 * A-Z、a-z、0-9、'_'、'.'、'-'。模型 API 往往更严（不许有 '.'，最多 64 个字符）。
 */
export function isLegalToolName(name: string): boolean {
  throw new Error('TODO: isLegalToolName');
}

/**
 * 根据工具的注解定风险档位；注解只是来自一个未必可信的服务器的提示：
 * readOnlyHint 为 true -> 'auto'；destructiveHint 为 false -> 'suggest'；其他情况（包括完全没有注解）
 * -> 'approve'。
 */
export function riskFromAnnotations(tool: ToolInfo): RiskTier {
  throw new Error('TODO: riskFromAnnotations');
}

// ---------------------------------------------------------------------------------------------
// 4. 桥接
// ---------------------------------------------------------------------------------------------

/**
 * 列出服务器的工具，把每个工具注册为 `prefix + tool.name`。返回注册了多少个。
 *
 * - 条目：{ name, description（没有就用 ''）, parameters: schemaToParams(inputSchema), risk, source }。
 *   `source` 可以是 { kind: 'mcp', remoteName: tool.name }。
 * - executor 只转发：args -> client.callTool(<*远程*名字>, args) -> mcpResultToText(result)。
 * - 名字不合法、注册表里已经有了、或者服务器列了两次：抛异常，并且这个服务器的工具一个也不注册
 *   （先检查所有名字，再注册）。重名时抛 DuplicateToolError，例如
 *   new DuplicateToolError(name, 'a message that suggests a prefix')。
 */
export async function registerMcpTools(registry: ToolRegistry, client: McpToolSource, options: RegisterMcpToolsOptions = {}): Promise<number> {
  throw new Error('TODO: registerMcpTools — list the tools, check every name, then register each one with a forwarding executor');
}
