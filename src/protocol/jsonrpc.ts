// JSON-RPC 2.0: the message shapes MCP is built on, their builders, and a validating parser.
// Pure: no I/O, no DOM, no Node built-ins, so the same file runs in Node, a page and a worker.

/** A request id. JSON-RPC allows strings and numbers; MCP narrows numbers to integers. `0` is valid. */
export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: JsonRpcId;
  method: string;
  params?: unknown;
}

/** A one-way message: no id, and never answered. */
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
 * An error response. When the request's id could not be read (parse error, invalid request), MCP
 * leaves `id` out; JSON-RPC 2.0 writes `"id": null`, and both forms are met in the wild.
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

// ---- builders ("encoders"): the wire shape of each message; framing turns it into bytes ----

export function encodeRequest(id: JsonRpcId, method: string, params?: unknown): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}

export function encodeNotification(method: string, params?: unknown): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function encodeResult(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

/** `id` null means "the request's id could not be read": the response then has no `id` at all (MCP's form). */
export function encodeError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  const error: JsonRpcErrorObject = data === undefined ? { code, message } : { code, message, data };
  return id === null ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

// ---- parsing and validation ----

/** Why a message was refused, in the form a server would answer with. */
export interface ParseFailure {
  ok: false;
  code: typeof ErrorCode.ParseError | typeof ErrorCode.InvalidRequest;
  reason: string;
  /** The id, when one could be read, so the error response can still be paired. */
  id: JsonRpcId | null;
}
export type ParseOutcome = { ok: true; message: JsonRpcMessage } | ParseFailure;

/** Parse JSON text and validate it as one JSON-RPC 2.0 message. Never throws. */
export function parseMessage(text: string): ParseOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, code: ErrorCode.ParseError, reason: `not JSON: ${(error as Error).message}`, id: null };
  }
  return validateMessage(value);
}

/** Validate an already-parsed JSON value (what the frame readers hand out). Never throws. */
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
    // Read as a request, it lacks "method"; read as a response, it lacks "result" or "error".
    return invalid(hasId ? 'no "method" (a request needs one) and no "result" or "error" (a response needs one)' : 'a message needs a "method" (a request or notification) or a "result" or "error" (a response)', readableId);
  }
  if (hasResult) {
    if (!hasId || !isValidId(value.id)) return invalid('a result response needs a string or integer id');
    return { ok: true, message: value as unknown as JsonRpcSuccess };
  }
  // An error response whose request id could not be read has no id (MCP) or a null one (JSON-RPC).
  if (hasId && value.id !== null && !isValidId(value.id)) return invalid('an error response id must be a string or an integer (null or absent only when the request id could not be read)');
  const error = value.error;
  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid('"error" needs an integer "code" and a string "message"', readableId);
  }
  return { ok: true, message: value as unknown as JsonRpcFailure };
}

// ---- classifiers ----

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

// ---- pairing ----

/**
 * The key a pending table files a request under. `1` and `"1"` are different ids, so the key
 * keeps the type; `0` is an ordinary id, not "missing".
 */
export function idKey(id: JsonRpcId): string {
  return `${typeof id}:${id}`;
}

/** True when `response` answers `request`: same id, same type. Arrival order plays no part. */
export function responseTo(response: JsonRpcResponse, request: JsonRpcRequest): boolean {
  return response.id !== null && response.id !== undefined && idKey(response.id) === idKey(request.id);
}

function isValidId(id: unknown): id is JsonRpcId {
  return typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
