// JSON-RPC 2.0：MCP 所依托的消息形态、构造它们的函数，以及一个带校验的解析器。
// 纯函数：没有 I/O、不碰 DOM、不用 Node 内置模块，所以同一个文件能在 Node、页面和 Worker 里运行。

/** 请求 id。JSON-RPC 允许字符串和数字；MCP 把数字收窄为整数。`0` 是合法的 id。 */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

/** 单向消息：没有 id，也永远不会被回复。 */
export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: JsonRpcId;
  result: unknown;
}

/**
 * 错误响应。读不出请求的 id 时（解析错误、非法请求），MCP 省略 `id`；JSON-RPC 2.0 写 `"id": null`。
 * 两种写法实际中都会遇到。
 */
export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id?: JsonRpcId | null;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;
export type StandardErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

// ---- 构造函数（“编码器”）：每种消息在线上的形态；变成字节是分帧的事 ----

export function encodeRequest(id: JsonRpcId, method: string, params?: unknown): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export function encodeNotification(method: string, params?: unknown): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function encodeResult(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

/** `id` 为 null 表示“读不出请求的 id”：这时响应里干脆没有 `id`（MCP 的写法）。 */
export function encodeError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === null ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

// ---- 解析与校验 ----

/** 消息被拒绝的原因，写成服务器会拿来回复的那种形式。 */
export interface ParseFailure {
  ok: false;
  code: typeof ErrorCode.ParseError | typeof ErrorCode.InvalidRequest;
  reason: string;
  /** 读得出 id 时带上它，这样错误响应仍能和请求配对。 */
  id: JsonRpcId | null;
}
export type ParseOutcome = { ok: true; message: JsonRpcMessage } | ParseFailure;

/** 把 JSON 文本解析出来，并校验它是一条 JSON-RPC 2.0 消息。从不抛异常。 */
export function parseMessage(text: string): ParseOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, code: ErrorCode.ParseError, reason: `not JSON: ${(error as Error).message}`, id: null };
  }
  return validateMessage(value);
}

/** 校验一个已经解析好的 JSON 值（帧读取器交出来的就是这种值）。从不抛异常。 */
export function validateMessage(value: unknown): ParseOutcome {
  const invalid = (reason: string, id: JsonRpcId | null = null): ParseFailure => ({
    ok: false,
    code: ErrorCode.InvalidRequest,
    reason,
    id,
  });
  if (!isPlainObject(value)) return invalid(Array.isArray(value) ? 'batches are not supported' : 'a message must be a JSON object');
  const readableId = isValidId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return invalid('"jsonrpc" must be exactly "2.0"', readableId);

  const hasId = 'id' in value;
  const hasMethod = 'method' in value;
  const hasResult = 'result' in value;
  const hasError = 'error' in value;

  if (hasMethod) {
    if (typeof value.method !== 'string' || value.method === '') return invalid('"method" must be a non-empty string', readableId);
    if (hasResult || hasError) return invalid('a request cannot carry "result" or "error"', readableId);
    if ('params' in value && !isPlainObject(value.params) && !Array.isArray(value.params)) {
      return invalid('"params" must be an object or an array', readableId);
    }
    if (hasId && !isValidId(value.id)) return invalid('a request id must be a string or an integer, never null');
    return { ok: true, message: value as unknown as JsonRpcRequest | JsonRpcNotification };
  }

  if (hasResult && hasError) return invalid('a response carries exactly one of "result" and "error", not both', readableId);
  if (!hasResult && !hasError) {
    // 当作请求看，它缺 "method"；当作响应看，它缺 "result" 或 "error"。
    return invalid(hasId ? 'no "method" (a request needs one) and no "result" or "error" (a response needs one)' : 'a message needs a "method" (a request or notification) or a "result" or "error" (a response)', readableId);
  }
  if (hasResult) {
    if (!hasId || !isValidId(value.id)) return invalid('a result response needs a string or integer id');
    return { ok: true, message: value as unknown as JsonRpcSuccess };
  }
  // 读不出请求 id 的错误响应没有 id（MCP）或 id 为 null（JSON-RPC）。
  if (hasId && value.id !== null && !isValidId(value.id)) return invalid('an error response id must be a string or an integer (null or absent only when the request id could not be read)');
  const error = value.error;
  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid('"error" needs an integer "code" and a string "message"', readableId);
  }
  return { ok: true, message: value as unknown as JsonRpcFailure };
}

// ---- 分类函数 ----

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  return 'method' in message && !('id' in message);
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  return !('method' in message) && ('result' in message || 'error' in message);
}

export function isErrorResponse(message: JsonRpcResponse): message is JsonRpcFailure {
  return 'error' in message;
}

// ---- 配对 ----

/**
 * 待响应表登记一个请求时用的键。`1` 和 `"1"` 是不同的 id，所以键要保留类型；
 * `0` 是普通的 id，不表示“缺失”。
 */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}

/** 当 `response` 回答的正是 `request` 时为 true：id 相同、类型相同。到达顺序无关紧要。 */
export function responseTo(response: JsonRpcResponse, request: JsonRpcRequest): boolean {
  return response.id !== null && response.id !== undefined && idKey(response.id) === idKey(request.id);
}

function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
