// 面向单个客户端连接的 MCP 服务器一半：工具表前面的一个分发器。
// 它一次接收一个已解析的 JSON 值，交回要写出的响应；什么都不能写时返回 null。
// 分帧、stdin 和 stdout 在别处（server-session.ts），所以这个类可以原样运行在
// Node 进程、页面或 Web Worker 里。

import {
  ErrorCode,
  encodeError,
  encodeResult,
  idKey,
  isNotification,
  isRequest,
  validateMessage,
  type JsonRpcFailure,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from './jsonrpc.ts';
import {
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type CallToolResult,
  type Implementation,
  type InitializeResult,
  type ListToolsResult,
  type ToolInfo,
} from './mcp.ts';
import { validateArguments } from './validate-arguments.ts';

export interface ServerTool {
  info: ToolInfo;
  /** 参数到达时已经按 `info.inputSchema` 检查过。字符串会作为一个文本块发送。 */
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult | string> | CallToolResult | string;
}

export interface McpServerOptions {
  serverInfo: Implementation;
  tools: readonly ServerTool[];
  /** 在 notifications/initialized 到达之前拒绝 tools/list 和 tools/call。默认 true。 */
  requireInitialized?: boolean;
  /** 给客户端（也可能给模型）看的自由文本，说明如何使用这个服务器。 */
  instructions?: string;
  /** tools/list 的分页大小；默认所有工具都在一页里返回。 */
  pageSize?: number;
}

export type ServerPhase = 'awaiting-initialize' | 'awaiting-initialized' | 'ready';

/** 规范对工具名的规则：要短，并且可以安全地加上前缀写成 `mcp__server__tool`。 */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * 本章的门禁：这些方法会真正做事，所以要等 notifications/initialized。
 * 这比官方 SDK 更严格（STRICTER）：它的服务器在 stdio 上根本不设门禁；
 * `requireInitialized: false` 给出宽松的行为，因为有些客户端从来不发这条通知。
 */
const GATED_METHODS: ReadonlySet<string> = new Set(['tools/list', 'tools/call']);

const CURSOR_PREFIX = 'tools-from-';

export class McpServer {
  readonly #serverInfo: Implementation;
  readonly #instructions: string | undefined;
  readonly #requireInitialized: boolean;
  readonly #pageSize: number | undefined;
  readonly #tools = new Map<string, ServerTool>();
  /** 仍在运行的 tools/call 请求，按 id 键登记，好让 notifications/cancelled 能找到它们。 */
  readonly #running = new Map<string, AbortController>();
  #phase: ServerPhase = 'awaiting-initialize';

  constructor(options: McpServerOptions) {
    this.#serverInfo = options.serverInfo;
    this.#instructions = options.instructions;
    this.#requireInitialized = options.requireInitialized ?? true;
    if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) {
      throw new RangeError(`pageSize must be a positive integer, got ${options.pageSize}`);
    }
    this.#pageSize = options.pageSize;
    for (const tool of options.tools) {
      const { name } = tool.info;
      if (!TOOL_NAME.test(name)) throw new Error(`tool name ${JSON.stringify(name)} must be 1-128 of A-Z a-z 0-9 _ . -`);
      if (this.#tools.has(name)) throw new Error(`two tools are named ${JSON.stringify(name)}`);
      this.#tools.set(name, tool);
    }
  }

  get phase(): ServerPhase {
    return this.#phase;
  }

  /**
   * 回答一条传入的消息。对任何不能回答的东西 resolve 为 null：通知（总是如此，即使是未知的）、
   * 客户端发给我们的响应，以及客户端已取消的调用。从不因错误输入而 reject；错误输入会变成
   * 一个错误响应。
   *
   * 有关生命周期的每个决定都在第一个 await 之前同步做出，所以决定门禁看到什么的是
   * handle() 的调用顺序（而不是工具完成的顺序）。这样多个调用可以同时进行，
   * 每个都用自己的 id 得到回答。
   */
  async handle(value: unknown): Promise<JsonRpcResponse | null> {
    const outcome = validateMessage(value);
    if (!outcome.ok) return encodeError(outcome.id, ErrorCode.InvalidRequest, `Invalid request: ${outcome.reason}`);
    const message = outcome.message;
    if (isNotification(message)) {
      this.#onNotification(message);
      return null;
    }
    // 一个响应（比如对服务器发出的 ping 的响应）：回答它会引发无休止的回声。
    if (!isRequest(message)) return null;
    return this.#onRequest(message);
  }

  /** 对没能成为 JSON 值的字节的回答：谁也不可能知道它们的 id。 */
  parseError(detail: string): JsonRpcFailure {
    return encodeError(null, ErrorCode.ParseError, `Parse error: ${detail}`);
  }

  #onNotification(notification: JsonRpcNotification): void {
    if (notification.method === 'notifications/initialized') {
      if (this.#phase === 'awaiting-initialized') this.#phase = 'ready';
    } else if (notification.method === 'notifications/cancelled') {
      const requestId = isPlainObject(notification.params) ? notification.params.requestId : undefined;
      if (typeof requestId === 'string' || typeof requestId === 'number') this.#running.get(idKey(requestId))?.abort();
    }
    // 其他任何通知都忽略：按定义，没有人在等它的回答。
  }

  #onRequest(request: JsonRpcRequest): Promise<JsonRpcResponse | null> | JsonRpcResponse {
    const { id, method } = request;
    if (method === 'initialize') return this.#initialize(request);
    if (method === 'ping') return encodeResult(id, {});

    if (this.#phase === 'awaiting-initialize') {
      return encodeError(id, ErrorCode.InvalidRequest, `${method} before initialize: the client must send initialize first`);
    }
    if (this.#phase === 'awaiting-initialized' && this.#requireInitialized && GATED_METHODS.has(method)) {
      return encodeError(
        id,
        ErrorCode.InvalidRequest,
        `${method} before the handshake finished: the client must send notifications/initialized first`,
      );
    }

    if (method === 'tools/list') return this.#listTools(request);
    if (method === 'tools/call') return this.#callTool(request);
    return encodeError(id, ErrorCode.MethodNotFound, `Method not found: ${method}`);
  }

  #initialize({ id, params }: JsonRpcRequest): JsonRpcResponse {
    if (this.#phase !== 'awaiting-initialize') {
      return encodeError(id, ErrorCode.InvalidRequest, 'initialize was already answered: it is sent once per session');
    }
    if (!isPlainObject(params) || typeof params.protocolVersion !== 'string') {
      // 阶段不变，所以客户端可以修正请求再试一次。
      return encodeError(id, ErrorCode.InvalidParams, 'initialize needs params.protocolVersion (a string)');
    }
    // 版本协商：认识客户端的版本就同意它，否则提供我们最新的版本，
    // 由客户端决定它能否使用那个版本（不能的话，它会断开连接）。
    const requested = params.protocolVersion;
    const known = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested);
    const result: InitializeResult = {
      protocolVersion: known ? requested : LATEST_PROTOCOL_VERSION,
      // listChanged 为 false：这张工具表在整个会话期间是固定的。
      capabilities: { tools: { listChanged: false } },
      serverInfo: this.#serverInfo,
    };
    if (this.#instructions !== undefined) result.instructions = this.#instructions;
    this.#phase = 'awaiting-initialized';
    return encodeResult(id, result);
  }

  #listTools({ id, params }: JsonRpcRequest): JsonRpcResponse {
    if (params !== undefined && !isPlainObject(params)) {
      return encodeError(id, ErrorCode.InvalidParams, 'tools/list params must be an object');
    }
    const tools = [...this.#tools.values()].map((tool) => tool.info);
    const cursor = params?.cursor;
    const start = cursor === undefined ? 0 : this.#decodeCursor(cursor, tools.length);
    if (start === null) return encodeError(id, ErrorCode.InvalidParams, `Invalid cursor: ${JSON.stringify(cursor)}`);

    const end = this.#pageSize === undefined ? tools.length : start + this.#pageSize;
    const result: ListToolsResult = { tools: tools.slice(start, end) };
    if (end < tools.length) result.nextCursor = `${CURSOR_PREFIX}${end}`;
    return encodeResult(id, result);
  }

  /** 游标对客户端是不透明的；只接受这个服务器可能发出过的游标。 */
  #decodeCursor(cursor: unknown, toolCount: number): number | null {
    if (this.#pageSize === undefined || typeof cursor !== 'string' || !cursor.startsWith(CURSOR_PREFIX)) return null;
    const digits = cursor.slice(CURSOR_PREFIX.length);
    if (!/^[1-9][0-9]*$/.test(digits)) return null;
    const start = Number(digits);
    return start < toolCount && start % this.#pageSize === 0 ? start : null;
  }

  async #callTool({ id, params }: JsonRpcRequest): Promise<JsonRpcResponse | null> {
    // 协议错误：请求本身有问题，所以没有工具结果可给。
    if (!isPlainObject(params) || typeof params.name !== 'string') {
      return encodeError(id, ErrorCode.InvalidParams, 'tools/call needs params.name (a string)');
    }
    const tool = this.#tools.get(params.name);
    if (tool === undefined) return encodeError(id, ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) return encodeError(id, ErrorCode.InvalidParams, 'tools/call params.arguments must be an object');

    // 参数错误是数据，不是协议错误（规范 2025-11-25）：模型能读到哪个参数错了，
    // 可以修正后再调用一次。
    const problems = validateArguments(tool.info.inputSchema, args);
    if (problems.length > 0) {
      return encodeResult(id, toolFailure(`Invalid arguments for tool ${tool.info.name}: ${problems.join('; ')}`));
    }

    const key = idKey(id);
    if (this.#running.has(key)) {
      return encodeError(id, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(id)} is already in use by a call in flight`);
    }
    const controller = new AbortController();
    this.#running.set(key, controller);
    try {
      const result = await runTool(tool, args, controller.signal);
      // 已取消的请求不会得到任何响应：客户端已经不再等待了。
      return controller.signal.aborted ? null : encodeResult(id, result);
    } finally {
      this.#running.delete(key);
    }
  }
}

/**
 * 本章的关键规则就在这里：try/catch 包住的是工具函数，而不是分发过程。
 * 一个存在但失败了的工具，用一个标记了 isError 的普通结果来回答，
 * 这样失败会以模型能读懂、能从中恢复的形式到达模型。
 */
async function runTool(tool: ServerTool, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult> {
  try {
    const output = await tool.run(args, signal);
    if (typeof output === 'string') return { content: [{ type: 'text', text: output }] };
    if (!isPlainObject(output) || !Array.isArray(output.content)) {
      return toolFailure(`tool ${tool.info.name} returned neither a string nor a { content: [...] } result`);
    }
    return output;
  } catch (error) {
    return toolFailure(error instanceof Error ? error.message : String(error));
  }
}

function toolFailure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
