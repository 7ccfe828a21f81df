// MUTANT of src/protocol/server.ts (exercise 04-server). Failure mode: an unknown tool answered as isError data.
// A tools/call naming a tool that does not exist gets a result with isError: true instead of the
// protocol error -32602 the spec asks for (this is what the official SDK 1.x does; SDK 2.x and the
// spec use -32602).

// The server half of MCP for one client connection: a dispatcher in front of a tool table.
// It takes one parsed JSON value at a time and hands back the response to write, or null when
// nothing may be written. Framing, stdin and stdout live elsewhere (server-session.ts), so this
// class runs unchanged in a Node process, a page or a Web Worker.

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
  /** Free text for the client (and possibly the model) about how to use this server. */
  instructions?: string;
  /** tools/list page size; by default every tool comes back in one page. */
  pageSize?: number;
}

export type ServerPhase = 'awaiting-initialize' | 'awaiting-initialized' | 'ready';

/** The spec's rule for tool names: short, and safe to prefix as `mcp__server__tool`. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The chapter's gate: these methods do real work, so they wait for notifications/initialized.
 * This is STRICTER than the official SDK, whose server does not gate requests over stdio at
 * all; `requireInitialized: false` gives the lenient behaviour, because some clients never
 * send the notification.
 */
const GATED_METHODS: ReadonlySet<string> = new Set(['tools/list', 'tools/call']);

const CURSOR_PREFIX = 'tools-from-';

export class McpServer {
  readonly #serverInfo: Implementation;
  readonly #instructions: string | undefined;
  readonly #requireInitialized: boolean;
  readonly #pageSize: number | undefined;
  readonly #tools = new Map<string, ServerTool>();
  /** tools/call requests still running, by id key, so notifications/cancelled can reach them. */
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
   * Answer one incoming message. Resolves to null for anything that must not be answered:
   * notifications (always, even unknown ones), responses the client sends us, and calls the
   * client cancelled. Never rejects for bad input; bad input becomes an error response.
   *
   * Every decision about the lifecycle is taken synchronously, before the first await, so the
   * order of handle() calls (not the order in which tools finish) decides what the gate sees.
   * That lets several calls be in flight at once, each answered with its own id.
   */
  async handle(value: unknown): Promise<JsonRpcResponse | null> {
    const outcome = validateMessage(value);
    if (!outcome.ok) return encodeError(outcome.id, ErrorCode.InvalidRequest, `Invalid request: ${outcome.reason}`);
    const message = outcome.message;
    if (isNotification(message)) {
      this.#onNotification(message);
      return null;
    }
    // A response (say, to a ping the server sent): answering it would start an endless echo.
    if (!isRequest(message)) return null;
    return this.#onRequest(message);
  }

  /** The answer to bytes that never became a JSON value: nobody can know their id. */
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
    // Any other notification is ignored: by definition nobody is waiting for an answer.
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
      // The phase does not move, so a client may fix its request and try again.
      return encodeError(id, ErrorCode.InvalidParams, 'initialize needs params.protocolVersion (a string)');
    }
    // Negotiation: agree to the client's version when we know it, otherwise offer our latest and
    // let the client decide whether it can speak that (if not, it disconnects).
    const requested = params.protocolVersion;
    const known = (SUPPORTED_PROTOCOL_VERSIONS as readonly string[]).includes(requested);
    const result: InitializeResult = {
      protocolVersion: known ? requested : LATEST_PROTOCOL_VERSION,
      // listChanged false: this tool table is fixed for the life of the session.
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

  /** Cursors are opaque to the client; only ones this server could have issued are accepted. */
  #decodeCursor(cursor: unknown, toolCount: number): number | null {
    if (this.#pageSize === undefined || typeof cursor !== 'string' || !cursor.startsWith(CURSOR_PREFIX)) return null;
    const digits = cursor.slice(CURSOR_PREFIX.length);
    if (!/^[1-9][0-9]*$/.test(digits)) return null;
    const start = Number(digits);
    return start < toolCount && start % this.#pageSize === 0 ? start : null;
  }

  async #callTool({ id, params }: JsonRpcRequest): Promise<JsonRpcResponse | null> {
    // Protocol errors: the request itself is wrong, so there is no tool result to give.
    if (!isPlainObject(params) || typeof params.name !== 'string') {
      return encodeError(id, ErrorCode.InvalidParams, 'tools/call needs params.name (a string)');
    }
    const tool = this.#tools.get(params.name);
    // BUG: a missing tool is reported as a tool failure, not as a protocol error.
    if (tool === undefined) return encodeResult(id, toolFailure(`Unknown tool: ${params.name}`));
    const args = params.arguments ?? {};
    if (!isPlainObject(args)) return encodeError(id, ErrorCode.InvalidParams, 'tools/call params.arguments must be an object');

    // Bad arguments are data, not a protocol error (spec 2025-11-25): the model reads which
    // argument was wrong and can call again with a fix.
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
      // A cancelled request gets no response at all: the client has already stopped waiting.
      return controller.signal.aborted ? null : encodeResult(id, result);
    } finally {
      this.#running.delete(key);
    }
  }
}

/**
 * The chapter's key rule lives here: the try/catch wraps the tool function, not the dispatch.
 * A tool that exists but fails answers with a normal result marked isError, so the failure
 * reaches the model as something it can read and recover from.
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
