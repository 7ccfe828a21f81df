// Exercise 4: a minimal MCP server — a dispatcher in front of a tool table.
//
// handle() takes one parsed JSON value (framing and stdin/stdout live elsewhere) and resolves to
// the response to write, or to null when nothing may be written. Three methods do the work
// (initialize, tools/list, tools/call); ping is answered at any time; notifications never get a
// response. The argument checker comes ready-made: validateArguments(schema, args) returns one
// readable sentence per problem, or [] when the arguments are valid.

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
  /** Arguments arrive already checked against `info.inputSchema`. A string is sent as one text block. */
  run(args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult | string> | CallToolResult | string;
}

export interface McpServerOptions {
  serverInfo: Implementation;
  tools: readonly ServerTool[];
  /** Refuse tools/list and tools/call until notifications/initialized arrives. Default true. */
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
   * Answer one incoming message, or resolve to null when nothing may be written.
   * 1. validateMessage(value); when it is not ok, answer -32600 (Invalid Request) with its id.
   * 2. A notification: act on it (#onNotification), then null — never a response, even for an
   *    unknown one.
   * 3. A response the client sent us: null.
   * 4. A request: #onRequest.
   */
  async handle(value: unknown): Promise<JsonRpcResponse | null> {
    throw new Error(`TODO: handle(${JSON.stringify(value)})`);
  }

  /** notifications/initialized moves 'awaiting-initialized' to 'ready'; anything else is ignored. */
  #onNotification(notification: JsonRpcNotification): void {
    throw new Error(`TODO: #onNotification(${notification.method})`);
  }

  /**
   * The dispatcher and the gate, in this order:
   * - initialize → #initialize; ping → an empty result {} (allowed at any time);
   * - still 'awaiting-initialize' → -32600 (initialize comes first);
   * - 'awaiting-initialized' and #requireInitialized → tools/list and tools/call get -32600;
   * - tools/list → #listTools; tools/call → #callTool; anything else → -32601.
   */
  #onRequest(request: JsonRpcRequest): Promise<JsonRpcResponse> | JsonRpcResponse {
    throw new Error(`TODO: #onRequest(${request.method})`);
  }

  /**
   * Once per session (a second initialize is -32600). Negotiate: answer with the client's
   * params.protocolVersion when it is in SUPPORTED_PROTOCOL_VERSIONS, else LATEST_PROTOCOL_VERSION.
   * Answer { protocolVersion, capabilities: { tools: {} }, serverInfo } and move to 'awaiting-initialized'.
   */
  #initialize(request: JsonRpcRequest): JsonRpcResponse {
    throw new Error(`TODO: #initialize(id ${JSON.stringify(request.id)})`);
  }

  /** { tools: [each tool's info] } */
  #listTools(request: JsonRpcRequest): JsonRpcResponse {
    throw new Error(`TODO: #listTools(id ${JSON.stringify(request.id)})`);
  }

  /**
   * Protocol errors first (-32602): params.name missing, or no tool with that name.
   * Then the arguments (params.arguments, default {}): problems from validateArguments are a
   * RESULT — toolFailure(...) — not an error. Then run the tool through runTool.
   */
  async #callTool(request: JsonRpcRequest): Promise<JsonRpcResponse> {
    throw new Error(`TODO: #callTool(id ${JSON.stringify(request.id)})`);
  }
}

/**
 * Run one tool and turn whatever happens into a CallToolResult: a string becomes one text block,
 * a { content } result passes through, and a throw (or a rejected promise) becomes
 * toolFailure(message). The try/catch belongs HERE, around the tool, not around the dispatch.
 */
async function runTool(tool: ServerTool, args: Record<string, unknown>): Promise<CallToolResult> {
  throw new Error(`TODO: runTool(${tool.info.name}, ${JSON.stringify(args)})`);
}

/** A tool failure as data: the model can read it and try again. */
function toolFailure(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

