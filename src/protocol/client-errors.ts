// Every way an McpClient call can fail, one class each, so callers (and the UI) can tell "you
// called too early" from "the server said no" from "nobody answered" without parsing messages.

import type { JsonRpcId } from './jsonrpc.ts';

/** The client's lifecycle: new → initialized → ready → closed. */
export type ClientState = 'new' | 'initialized' | 'ready' | 'closed';

/** Common base: `instanceof McpClientError` catches anything the client itself rejects with. */
export class McpClientError extends Error {
  override name = 'McpClientError';
}

/** What to do next in each state, so the error tells the caller how to get unstuck. */
const NEXT_STEP: Record<ClientState, string> = {
  new: 'finish the handshake first: call connect(), or initialize() and then notifyInitialized()',
  initialized: 'call notifyInitialized() first; the server must hear the handshake is complete before any other request',
  ready: 'the handshake is already done; nothing needs repeating',
  closed: 'the client is closed; create a new one to talk to the server again',
};

/** An operation was called in a state that does not allow it. Nothing was sent. */
export class ClientStateError extends McpClientError {
  override name = 'ClientStateError';
  constructor(
    readonly operation: string,
    readonly state: ClientState,
    detail?: string,
  ) {
    super(`Cannot ${operation} while the client is "${state}": ${detail ?? NEXT_STEP[state]}.`);
  }
}

/** The server answered initialize with a protocol version this client does not speak; the client disconnected. */
export class UnsupportedVersionError extends McpClientError {
  override name = 'UnsupportedVersionError';
  constructor(
    readonly received: string,
    readonly supported: readonly string[],
  ) {
    super(
      `The server chose protocol version "${received}", which this client does not support ` +
        `(supported: ${supported.join(', ')}). The client has disconnected.`,
    );
  }
}

/** The server answered with a JSON-RPC error response. `rpcMessage` is the server's own text. */
export class McpRpcError extends McpClientError {
  override name = 'McpRpcError';
  constructor(
    readonly method: string,
    readonly code: number,
    readonly rpcMessage: string,
    readonly data?: unknown,
  ) {
    super(`${method} failed with JSON-RPC error ${code}: ${rpcMessage}`);
  }
}

/** No response arrived in time. The request is forgotten; a late response counts as an unknown id. */
export class RequestTimeoutError extends McpClientError {
  override name = 'RequestTimeoutError';
  constructor(
    readonly method: string,
    readonly id: JsonRpcId,
    readonly timeoutMs: number,
  ) {
    super(`${method} (id ${JSON.stringify(id)}) got no response within ${timeoutMs} ms.`);
  }
}

/** The client closed (by close() or because the server went away) while a call waited or was attempted. */
export class ClientClosedError extends McpClientError {
  override name = 'ClientClosedError';
  constructor(
    readonly operation: string,
    readonly reason: string,
  ) {
    super(`${operation} cannot complete: the client is closed (${reason}).`);
  }
}

/** The server answered, but not in the shape MCP promises (e.g. a tools/list result without `tools`). */
export class ProtocolViolationError extends McpClientError {
  override name = 'ProtocolViolationError';
  constructor(
    readonly method: string,
    detail: string,
  ) {
    super(`${method}: the server broke the protocol: ${detail}.`);
  }
}

/**
 * Thrown by a server-request handler (McpClientOptions.serverRequests) to answer with this JSON-RPC
 * error instead of a result. A user who denies a sampling request: `new ServerRequestRefused(-1,
 * 'User rejected sampling request')` (2025-11-25, client/sampling, "Error Handling").
 */
export class ServerRequestRefused extends McpClientError {
  override name = 'ServerRequestRefused';
  constructor(
    readonly code: number,
    readonly rpcMessage: string,
  ) {
    super(rpcMessage);
  }
}
