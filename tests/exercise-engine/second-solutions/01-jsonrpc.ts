// A second correct solution to exercise 1, in another style than the reference: a table of checks
// run in order (the first that fails names the refusal), classifiers that look at which keys are
// present through one helper, JSON.stringify as the id key, and an ErrorCode with an
// implementation code of its own next to the five standard ones.
// second-solutions.test.ts requires the spec to pass on it.

export type JsonRpcId = string | number;
export interface JsonRpcRequest { jsonrpc: '2.0'; id: JsonRpcId; method: string; params?: unknown }
export interface JsonRpcNotification { jsonrpc: '2.0'; method: string; params?: unknown }
export interface JsonRpcErrorObject { code: number; message: string; data?: unknown }
export interface JsonRpcSuccess { jsonrpc: '2.0'; id: JsonRpcId; result: unknown }
export interface JsonRpcFailure { jsonrpc: '2.0'; id?: JsonRpcId | null; error: JsonRpcErrorObject }
export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;
export type JsonRpcMessage = JsonRpcRequest | JsonRpcNotification | JsonRpcResponse;
export type ParseOutcome = { ok: true; message: JsonRpcMessage } | { ok: false; code: number; reason: string; id: JsonRpcId | null };

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  ServerBusy: -32002,
} as const;

export function encodeRequest(id: JsonRpcId, method: string, params?: unknown): JsonRpcRequest {
  const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
  if (params !== undefined) message.params = params;
  return message;
}

export function encodeNotification(method: string, params?: unknown): JsonRpcNotification {
  const message: JsonRpcNotification = { jsonrpc: '2.0', method };
  if (params !== undefined) message.params = params;
  return message;
}

export const encodeResult = (id: JsonRpcId, result: unknown): JsonRpcSuccess => ({ jsonrpc: '2.0', id, result });

export function encodeError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  const error: JsonRpcErrorObject = { code, message };
  if (data !== undefined) error.data = data;
  // MCP: an error whose request id could not be read leaves id out.
  return id === null ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id, error };
}

const has = (value: object, key: string) => Object.prototype.hasOwnProperty.call(value, key);
const isId = (id: unknown): id is JsonRpcId => typeof id === 'string' || Number.isInteger(id);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Each check returns the reason for refusing, or nothing. */
const CHECKS: Array<(m: Record<string, unknown>) => string | undefined> = [
  (m) => (m.jsonrpc === '2.0' ? undefined : 'jsonrpc must be "2.0"'),
  (m) => (has(m, 'method') && (typeof m.method !== 'string' || m.method.length === 0) ? 'method must be a non-empty string' : undefined),
  (m) => (has(m, 'method') && (has(m, 'result') || has(m, 'error')) ? 'a request has no result or error' : undefined),
  (m) => (has(m, 'method') && has(m, 'params') && !isObject(m.params) && !Array.isArray(m.params) ? 'params must be structured' : undefined),
  (m) => (has(m, 'method') && has(m, 'id') && !isId(m.id) ? 'bad request id' : undefined),
  (m) => (!has(m, 'method') && !has(m, 'id') && !has(m, 'error') ? 'neither id nor method' : undefined),
  (m) => (!has(m, 'method') && has(m, 'result') === has(m, 'error') ? 'exactly one of result and error' : undefined),
  (m) => (!has(m, 'method') && has(m, 'result') && !isId(m.id) ? 'bad response id' : undefined),
  (m) => (!has(m, 'method') && has(m, 'error') && has(m, 'id') && m.id !== null && !isId(m.id) ? 'bad error id' : undefined),
  (m) => {
    if (has(m, 'method') || !has(m, 'error')) return undefined;
    const error = m.error;
    return isObject(error) && Number.isInteger(error.code) && typeof error.message === 'string' ? undefined : 'bad error object';
  },
];

export function validateMessage(value: unknown): ParseOutcome {
  if (!isObject(value)) return { ok: false, code: ErrorCode.InvalidRequest, reason: 'not a single message object', id: null };
  for (const check of CHECKS) {
    const reason = check(value);
    if (reason !== undefined) return { ok: false, code: ErrorCode.InvalidRequest, reason, id: isId(value.id) ? value.id : null };
  }
  return { ok: true, message: value as unknown as JsonRpcMessage };
}

export function parseMessage(text: string): ParseOutcome {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, code: ErrorCode.ParseError, reason: 'not JSON', id: null };
  }
  return validateMessage(value);
}

const kindOf = (message: JsonRpcMessage) => (has(message, 'method') ? (has(message, 'id') ? 'request' : 'notification') : has(message, 'result') || has(message, 'error') ? 'response' : 'unknown');
export const isRequest = (message: JsonRpcMessage): message is JsonRpcRequest => kindOf(message) === 'request';
export const isNotification = (message: JsonRpcMessage): message is JsonRpcNotification => kindOf(message) === 'notification';
export const isResponse = (message: JsonRpcMessage): message is JsonRpcResponse => kindOf(message) === 'response';
export const isErrorResponse = (message: JsonRpcResponse): message is JsonRpcFailure => has(message, 'error');

export const idKey = (id: JsonRpcId): string => JSON.stringify(id);
export const responseTo = (response: JsonRpcResponse, request: JsonRpcRequest): boolean => response.id !== null && response.id !== undefined && idKey(response.id) === idKey(request.id);
