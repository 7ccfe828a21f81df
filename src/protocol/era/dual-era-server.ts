// One connection (a stdio process) that serves both eras (basic/versioning.mdx, "Backward
// Compatibility"): a request carrying a modern `_meta` claim is served statelessly by the
// ModernServer; `initialize` selects legacy semantics, and from then on requests without a claim
// go to this connection's legacy server, exactly as before. A request with no claim before any
// initialize also goes to the legacy server, so a handshake-era client sees the handshake era's
// answers byte for byte (the exercise-4 reference server is unchanged behind this router).
// Both eras can interleave on one connection: the claim, not the connection, decides.

import {
  ErrorCode,
  encodeError,
  idKey,
  isNotification,
  isRequest,
  validateMessage,
  type JsonRpcFailure,
  type JsonRpcMessage,
  type JsonRpcRequest,
  type JsonRpcResponse,
} from '../jsonrpc.ts';
import { EraErrorCode, isModernProtocolVersion, META_PROTOCOL_VERSION, readEnvelope, requestMeta } from './meta.ts';
import type { ModernServer } from './modern-server.ts';

/** What the router needs from a legacy server: the reference McpServer, a FeatureServer, ... */
export interface LegacyServer {
  handle(value: unknown, context?: { send(message: JsonRpcMessage): void }): Promise<JsonRpcResponse | null> | JsonRpcResponse | null;
  parseError?(detail: string): JsonRpcFailure;
}

export type Era = 'legacy' | 'modern';

export interface DualEraServerOptions {
  modern: ModernServer;
  /**
   * This connection's legacy server; made the first time a claim-less message arrives. Absent: a
   * modern-only server, which refuses initialize and every claim-less request with -32022 naming
   * the versions it supports (versioning.mdx: the only diagnostic a legacy client can show).
   */
  createLegacy?(): LegacyServer;
  /** Told which era each request went to (the stepper and the inspector show it). */
  onRoute?(era: Era, request: JsonRpcRequest): void;
}

/**
 * Whether a request claims the modern era: its `_meta` names a protocol version. A claim naming a
 * legacy version is still answered by the modern server (with -32022 and the supported list),
 * because only `initialize` opens a legacy session. `initialize` itself is modern only with a
 * valid modern envelope; then it is just an unknown method (-32601).
 */
export function claimsModernEra(request: JsonRpcRequest): boolean {
  const meta = requestMeta(request.params);
  if (meta === undefined || !(META_PROTOCOL_VERSION in meta)) return false;
  if (request.method !== 'initialize') return true;
  const reading = readEnvelope(request.params);
  return reading.kind === 'modern' && isModernProtocolVersion(reading.envelope.protocolVersion);
}

export class DualEraServer {
  readonly #options: DualEraServerOptions;
  #legacy: LegacyServer | null = null;
  /** Modern requests in flight, so notifications/cancelled (stdio) can stop them. */
  readonly #running = new Map<string, AbortController>();

  constructor(options: DualEraServerOptions) {
    this.#options = options;
  }

  /** Whether a handshake has opened a legacy session on this connection. */
  get legacyOpen(): boolean {
    return this.#legacy !== null;
  }

  async handle(value: unknown, context?: { send(message: JsonRpcMessage): void }): Promise<JsonRpcResponse | null> {
    const outcome = validateMessage(value);
    if (outcome.ok && isRequest(outcome.message) && claimsModernEra(outcome.message)) return this.#modern(outcome.message, context);
    if (outcome.ok && isNotification(outcome.message) && outcome.message.method === 'notifications/cancelled') {
      const params = outcome.message.params as { requestId?: unknown } | undefined;
      const requestId = params?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') {
        const running = this.#running.get(idKey(requestId));
        if (running !== undefined) return running.abort(), null;
      }
    }
    if (this.#options.createLegacy === undefined) {
      // Modern-only: an invalid message gets the -32600 the handshake era gives it (with its id
      // when one can be read, id-less otherwise): invalid is invalid in every era, and silence
      // would leave its sender waiting.
      if (!outcome.ok) return encodeError(outcome.id, ErrorCode.InvalidRequest, `Invalid request: ${outcome.reason}`);
      return isRequest(outcome.message) ? this.#refuse(outcome.message) : null;
    }
    if (outcome.ok && isRequest(outcome.message)) this.#options.onRoute?.('legacy', outcome.message);
    return this.#legacyServer().handle(value, context);
  }

  /** stdin ended: open subscriptions/listen requests get their graceful result. */
  close(): void {
    this.#options.modern.endSubscriptions();
  }

  parseError(detail: string): JsonRpcFailure {
    return this.#legacy?.parseError?.(detail) ?? encodeError(null, ErrorCode.ParseError, `Parse error: ${detail}`);
  }

  async #modern(request: JsonRpcRequest, context?: { send(message: JsonRpcMessage): void }): Promise<JsonRpcResponse | null> {
    this.#options.onRoute?.('modern', request);
    const key = idKey(request.id);
    if (this.#running.has(key)) return encodeError(request.id, ErrorCode.InvalidRequest, `Request id ${JSON.stringify(request.id)} is already in use by a request in flight`);
    const controller = new AbortController();
    this.#running.set(key, controller);
    try {
      // After notifications/cancelled nothing more may be sent for this request (stdio.mdx, Cancellation).
      const send = (message: JsonRpcMessage) => {
        if (!controller.signal.aborted) context?.send(message);
      };
      const answer = await this.#options.modern.handle(request, { send, signal: controller.signal });
      return controller.signal.aborted ? null : answer.response;
    } finally {
      this.#running.delete(key);
    }
  }

  #legacyServer(): LegacyServer {
    this.#legacy ??= this.#options.createLegacy!();
    return this.#legacy;
  }

  /** Modern-only: a handshake-era request learns which versions this server speaks, and nothing else. */
  #refuse(request: JsonRpcRequest): JsonRpcFailure {
    const params = request.params as { protocolVersion?: unknown } | undefined;
    const requested = request.method === 'initialize' && typeof params?.protocolVersion === 'string' ? params.protocolVersion : undefined;
    const supported = [...this.#options.modern.supportedVersions];
    return encodeError(
      request.id,
      EraErrorCode.UnsupportedProtocolVersion,
      `Unsupported protocol version: this server speaks only ${supported.join(', ')}, with _meta on every request and no initialize`,
      requested === undefined ? { supported } : { supported, requested },
    );
  }
}
