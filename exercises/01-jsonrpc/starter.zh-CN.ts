// 练习 1：JSON-RPC 2.0 编解码器，每一条 MCP 消息都建立在它之上。
//
// 下面的类型是现成的：它们是整个 playground 的共同词汇（客户端、服务器和桥接代码都用它们）。
// 你要写的是函数。每个函数在你写好之前都会抛异常；你每写好一部分，规格测试里对应的 describe 块就变绿一块。
//
// 这里不做任何 I/O：一条消息就是一个普通对象，把它变成字节是分帧（练习 2）的事。

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

// TODO：五个标准错误码。0 只是占位，它不是 JSON-RPC 错误码。
// （-32000 到 -32099 留给各个实现自定义，这里不用列出。）
export const ErrorCode = {
  ParseError: 0, // 文本根本不是 JSON
  InvalidRequest: 0, // 是 JSON，但不是合法的 JSON-RPC 消息
  MethodNotFound: 0,
  InvalidParams: 0,
  InternalError: 0,
} as const;
export type StandardErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

// ---------------------------------------------------------------------------------------------
// 1. 构造函数：每种消息在线上的形态
// ---------------------------------------------------------------------------------------------

/** `{ jsonrpc: '2.0', id, method, params? }`。`params` 为 undefined 时，整个键都不要出现。 */
export function encodeRequest(id: JsonRpcId, method: string, params?: unknown): JsonRpcRequest {
  throw new Error('TODO: encodeRequest');
}

/** `{ jsonrpc: '2.0', method, params? }`：完全没有 `id` 这个键，正是这一点让它成为通知。 */
export function encodeNotification(method: string, params?: unknown): JsonRpcNotification {
  throw new Error('TODO: encodeNotification');
}

/** `{ jsonrpc: '2.0', id, result }`。JSON-RPC 允许 `result` 是任意 JSON 值，连 null 也行；MCP 发的总是对象。 */
export function encodeResult(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  throw new Error('TODO: encodeResult');
}

/**
 * `{ jsonrpc: '2.0', id, error: { code, message, data? } }`。`data` 为 undefined 时不要出现。
 * `id` 为 null 表示读不出请求的 id：这时整个 `id` 键都不要出现（MCP 的写法）。
 */
export function encodeError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  throw new Error('TODO: encodeError');
}

// ---------------------------------------------------------------------------------------------
// 2. 解析与校验
// ---------------------------------------------------------------------------------------------

/** 消息为什么被拒绝，写成服务器回复时要用的形式。 */
export interface ParseFailure {
  ok: false;
  code: typeof ErrorCode.ParseError | typeof ErrorCode.InvalidRequest;
  reason: string;
  /** 读得出来的 id，这样错误响应仍能和请求配对。 */
  id: JsonRpcId | null;
}
export type ParseOutcome = { ok: true; message: JsonRpcMessage } | ParseFailure;

/**
 * 把 JSON 文本解析出来，并校验它是不是一条 JSON-RPC 2.0 消息。永不抛异常。
 * 不是 JSON 的文本：code 为 ParseError，id 为 null。其他问题：交给 validateMessage 回答。
 */
export function parseMessage(text: string): ParseOutcome {
  throw new Error('TODO: parseMessage');
}

/**
 * 校验一个已经解析好的 JSON 值。永不抛异常。规则如下，违反的一律以 InvalidRequest 拒绝：
 * - 必须是普通对象（数组就是批量请求：不支持），并且 `jsonrpc: "2.0"`；
 * - 有 `method`（非空字符串）的：请求或通知。不能带 `result`/`error`；`params` 如果出现，
 *   必须是对象或数组；`id` 如果出现，必须是字符串或整数，不能是 null；
 * - 没有 `method` 的：响应，`result` 和 `error` 恰好有一个。成功响应的 id 必须是字符串或整数。
 *   错误响应的 id 还可以是 null 或者没有（读不出请求的 id：MCP 省略，JSON-RPC 写 null；两种都接受）。
 *   `error` 必须带整数 `code` 和字符串 `message`。
 * 注意：「有 id」指的是这个键存在。`0` 也是 id。只要 id 合法，就把它放进失败结果里，
 * 这样服务器仍能让错误响应和请求配对。
 */
export function validateMessage(value: unknown): ParseOutcome {
  throw new Error('TODO: validateMessage');
}

// ---------------------------------------------------------------------------------------------
// 3. 分类函数：这是三种形态中的哪一种？（消息已经校验过了。）
// ---------------------------------------------------------------------------------------------

export function isRequest(message: JsonRpcMessage): message is JsonRpcRequest {
  throw new Error('TODO: isRequest');
}

export function isNotification(message: JsonRpcMessage): message is JsonRpcNotification {
  throw new Error('TODO: isNotification');
}

export function isResponse(message: JsonRpcMessage): message is JsonRpcResponse {
  throw new Error('TODO: isResponse');
}

export function isErrorResponse(message: JsonRpcResponse): message is JsonRpcFailure {
  throw new Error('TODO: isErrorResponse');
}

// ---------------------------------------------------------------------------------------------
// 4. 配对
// ---------------------------------------------------------------------------------------------

/**
 * 待响应表登记请求时用的键：一个字符串，`1` 和 `"1"` 得到不同的键（它们是不同的 id），`0` 也能用。
 */
export function idKey(id: JsonRpcId): string {
  throw new Error('TODO: idKey');
}

/** `response` 回答的正是 `request` 时为 true：id 相同，类型也相同。到达顺序不起任何作用。 */
export function responseTo(response: JsonRpcResponse, request: JsonRpcRequest): boolean {
  throw new Error('TODO: responseTo');
}

// 一个可以直接用的小工具：判断是 JSON 对象（不是 null，也不是数组）。
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
