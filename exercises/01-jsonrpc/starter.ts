// Exercise 1: the JSON-RPC 2.0 codec every MCP message is built on.
//
// The types below are given: they are the vocabulary of the whole playground (the client, the
// server and the bridge all use them). You write the functions. Each one throws until you do, and
// the spec's describe blocks turn green one by one as you go.
//
// Nothing here does I/O: a message is a plain object, and framing (exercise 2) turns it into bytes.

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

// TODO: the five standard codes. 0 is only a placeholder: it is not a JSON-RPC error code.
// (Codes from -32000 to -32099 are left to implementations; they need no entry here.)
export const ErrorCode = {
  ParseError: 0, // the text is not JSON at all
  InvalidRequest: 0, // JSON, but not a valid JSON-RPC message
  MethodNotFound: 0,
  InvalidParams: 0,
  InternalError: 0,
} as const;
export type StandardErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

// ---------------------------------------------------------------------------------------------
// 1. Builders: the wire shape of each message
// ---------------------------------------------------------------------------------------------

/** `{ jsonrpc: '2.0', id, method, params? }`. Leave `params` out entirely when it is undefined. */
export function encodeRequest(id: JsonRpcId, method: string, params?: unknown): JsonRpcRequest {
  throw new Error('TODO: encodeRequest');
}

/** `{ jsonrpc: '2.0', method, params? }`: no `id` key at all, that is what makes it a notification. */
export function encodeNotification(method: string, params?: unknown): JsonRpcNotification {
  throw new Error('TODO: encodeNotification');
}

/** `{ jsonrpc: '2.0', id, result }`. JSON-RPC lets `result` be any JSON value, even null; MCP always sends an object. */
export function encodeResult(id: JsonRpcId, result: unknown): JsonRpcSuccess {
  throw new Error('TODO: encodeResult');
}

/**
 * `{ jsonrpc: '2.0', id, error: { code, message, data? } }`. Leave `data` out when it is undefined.
 * `id` null means the request's id could not be read: then leave `id` out entirely (MCP's form).
 */
export function encodeError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcFailure {
  throw new Error('TODO: encodeError');
}

// ---------------------------------------------------------------------------------------------
// 2. Parsing and validation
// ---------------------------------------------------------------------------------------------

/** Why a message was refused, in the form a server would answer with. */
export interface ParseFailure {
  ok: false;
  code: typeof ErrorCode.ParseError | typeof ErrorCode.InvalidRequest;
  reason: string;
  /** The id, when one could be read, so the error response can still be paired. */
  id: JsonRpcId | null;
}
export type ParseOutcome = { ok: true; message: JsonRpcMessage } | ParseFailure;

/**
 * Parse JSON text and validate it as one JSON-RPC 2.0 message. Never throws.
 * Text that is not JSON: code ParseError, id null. Anything else wrong: validateMessage's answer.
 */
export function parseMessage(text: string): ParseOutcome {
  throw new Error('TODO: parseMessage');
}

/**
 * Validate an already-parsed JSON value. Never throws. The rules, all refused with InvalidRequest:
 * - it must be a plain object (an array would be a batch: not supported) with `jsonrpc: "2.0"`;
 * - with a `method` (a non-empty string): a request or a notification. No `result`/`error`;
 *   `params`, when present, is an object or an array; an `id`, when present, is a string or an
 *   integer, never null;
 * - without a `method`: a response, with exactly one of `result` and `error`. A success needs an
 *   id that is a string or an integer. An error's id may also be null or missing (the request's
 *   id could not be read: MCP leaves it out, JSON-RPC writes null; accept both). `error` needs an
 *   integer `code` and a string `message`.
 * Careful: "has an id" means the key is there. `0` is an id. Give back the id in the failure
 * whenever it is a valid one, so the server can still pair its error response.
 */
export function validateMessage(value: unknown): ParseOutcome {
  throw new Error('TODO: validateMessage');
}

// ---------------------------------------------------------------------------------------------
// 3. Classifiers: which of the three shapes is this? (The message is already valid.)
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
// 4. Pairing
// ---------------------------------------------------------------------------------------------

/**
 * The key a pending table files a request under: a string that differs for `1` and `"1"`
 * (they are different ids) and works for `0`.
 */
export function idKey(id: JsonRpcId): string {
  throw new Error('TODO: idKey');
}

/** True when `response` answers `request`: same id, same type. Arrival order plays no part. */
export function responseTo(response: JsonRpcResponse, request: JsonRpcRequest): boolean {
  throw new Error('TODO: responseTo');
}

// A small helper you may use: a JSON object, not null and not an array.
function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
