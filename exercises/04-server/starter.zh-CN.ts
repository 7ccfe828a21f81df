// 练习 4：一个最小的 MCP 服务器，也就是工具表前面的一个分派器。
//
// handle() 接收一个解析好的 JSON 值（分帧和 stdin/stdout 在别处处理），resolve 为要写回的响应；
// 不该写任何东西时 resolve 为 null。干活的是三个方法（initialize、tools/list、tools/call）；ping
// 任何时候都回答；通知永远不回复。参数校验器是现成的：validateArguments(schema, args) 每个问题返回
// 一句可读的话，参数合法时返回 []。

import {
  ErrorCode,
  encodeError,
  encodeResult,
  isNotification,
  isRequest,
  validateMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '@protocol/jsonrpc';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type Implementation,
  type InitializeResult,
  type ListToolsResult,
  type ToolInfo,
} from '@protocol/mcp';
import { validateArguments } from '@protocol/validate-arguments';

export interface ServerTool {
  info: ToolInfo;
  /** 参数到达时已经按 `info.inputSchema` 检查过。返回字符串时作为一个文本块发回。 */
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult | string> | CallToolResult | string;
}

export interface McpServerOptions {
  serverInfo: Implementation;
  tools: readonly ServerTool[];
  /** notifications/initialized 到达之前拒绝 tools/list 和 tools/call。默认 true。 */
  requireInitialized?: boolean;
}

export type ServerPhase = 'awaiting-initialize' | 'awaiting-initialized' | 'ready';

export class McpServer {
  readonly #serverInfo: Implementation;
  readonly #requireInitialized: boolean;
  readonly #tools = new Map<string, ServerTool>();
  #phase: ServerPhase = 'awaiting-initialize';

  constructor(options: McpServerOptions) {
    this.#serverInfo = options.serverInfo;
    this.#requireInitialized = options.requireInitialized ?? true;
    for (const tool of options.tools) {
      if (this.#tools.has(tool.info.name)) throw new Error(`two tools are named ${JSON.stringify(tool.info.name)}`);
      this.#tools.set(tool.info.name, tool);
    }
  }

  get phase(): ServerPhase {
    return this.#phase;
  }

  /**
   * 回答一条进来的消息；不该写任何东西时 resolve 为 null。
   * 1. validateMessage(value)；不通过时，带上它的 id 回 -32600（Invalid Request）。
   * 2. 通知：照做（#onNotification），然后返回 null。永远不回复，不认识的通知也一样。
   * 3. 客户端发给我们的响应：null。
   * 4. 请求：交给 #onRequest。
   */
  async handle(value: unknown): Promise<JsonRpcResponse | null> {
    throw new Error(`TODO: handle(${JSON.stringify(value)})`);
  }

  /** notifications/initialized 让 'awaiting-initialized' 进入 'ready'；其他通知一律忽略。 */
  #onNotification(notification: JsonRpcNotification): void {
    throw new Error(`TODO: #onNotification(${notification.method})`);
  }

  /**
   * 分派器和门禁，按这个顺序：
   * - initialize → #initialize；ping → 空结果 {}（任何时候都可以）；
   * - 仍是 'awaiting-initialize' → -32600（initialize 必须先来）；
   * - 'awaiting-initialized' 且 #requireInitialized → tools/list 和 tools/call 得到 -32600；
   * - tools/list → #listTools；tools/call → #callTool；其他 → -32601。
   */
  #onRequest(request: JsonRpcRequest): Promise<JsonRpcResponse> | JsonRpcResponse {
    throw new Error(`TODO: #onRequest(${request.method})`);
  }

  /**
   * 每个会话只一次（第二次 initialize 回 -32600）。协商：客户端的 params.protocolVersion 在
   * SUPPORTED_PROTOCOL_VERSIONS 里就原样回它，否则回 LATEST_PROTOCOL_VERSION。
   * 回答 { protocolVersion, capabilities: { tools: {} }, serverInfo }，并进入 'awaiting-initialized'。
   */
  #initialize(request: JsonRpcRequest): JsonRpcResponse {
    throw new Error(`TODO: #initialize(id ${JSON.stringify(request.id)})`);
  }

  /** { tools: [每个工具的 info] } */
  #listTools(request: JsonRpcRequest): JsonRpcResponse {
    throw new Error(`TODO: #listTools(id ${JSON.stringify(request.id)})`);
  }

  /**
   * 先看协议错误（-32602）：缺 params.name，或者没有这个名字的工具。
   * 再看参数（params.arguments，默认 {}）：validateArguments 找出的问题是一个*结果*，即
   * toolFailure(...)，而不是错误。最后通过 runTool 运行工具。
   */
  async #callTool(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    throw new Error(`TODO: #callTool(id ${JSON.stringify(request.id)})`);
  }
}

/**
 * 运行一个工具，并把无论发生什么都变成一个 CallToolResult：字符串变成一个文本块，{ content } 结果
 * 原样透传，抛出的异常（或被 reject 的 promise）变成 toolFailure(message)。try/catch 就该写在*这里*，
 * 包住工具，而不是包住分派。
 */
async function runTool(tool: ServerTool, args: Record<string, unknown>): Promise<CallToolResult> {
  throw new Error(`TODO: runTool(${tool.info.name}, ${JSON.stringify(args)})`);
}

/** 作为数据的工具失败：模型读得到，可以再试一次。 */
function toolFailure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

