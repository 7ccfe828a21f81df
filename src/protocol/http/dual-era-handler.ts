// One Streamable HTTP endpoint for both eras. Each POST is classified by what it carries: a body
// whose `_meta` claims a protocol version, or an MCP-Protocol-Version header naming a modern
// revision, is a 2026-07-28 request and is served here, statelessly; everything else (initialize,
// requests with Mcp-Session-Id, GET, DELETE) goes to the handshake-era handler unchanged, whose
// sessions keep their own semantics (basic/versioning.mdx: initialize selects legacy for that
// session; one endpoint may serve both eras concurrently).
//
// The modern rules (transports/streamable-http.mdx, 2026-07-28), in order:
//   * path, Host and Origin as for every request (404 / 403);
//   * POST only, Accept lists JSON and SSE (406), Content-Type JSON (415);
//   * one JSON-RPC request or notification per POST (400 otherwise; a notification gets 202);
//   * MCP-Protocol-Version, Mcp-Method, Mcp-Name and Mcp-Param-* mirror the body (400, -32020);
//   * the envelope, the version and client capabilities (400 with -32602 / -32022 / -32021),
//     an unknown method 404 with -32601, everything else 200;
//   * JSON unless the server sends something before the result; then SSE with
//     `X-Accel-Buffering: no`, no event ids, no priming event, no resumption (no Last-Event-ID);
//   * no Mcp-Session-Id is ever issued; closing a response stream cancels its request;
//   * a response stream that carried nothing for streamIdleMs is closed by the server (a
//     subscriptions/listen nobody is told anything on must not hold a connection forever): its
//     request is cancelled as if the client had closed it.

import { ErrorCode, isNotification, isRequest, validateMessage, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../jsonrpc.ts';
import { EraErrorCode, isModernProtocolVersion } from '../era/meta.ts';
import { claimsModernEra } from '../era/dual-era-server.ts';
import type { ModernServer } from '../era/modern-server.ts';
import { toJsonText } from '../framing/json-body.ts';
import { encodeSseEvent } from '../framing/sse.ts';
import { PushStream } from './push-stream.ts';
import { modernHeaderProblem, stripOws } from './modern-rules.ts';
import { acceptsPost, isAllowedHost, isAllowedOrigin, isJsonContentType, LOOPBACK_HOSTS } from './request-checks.ts';
import { createHttpHandler, DEFAULT_ENDPOINT, DEFAULT_STREAM_IDLE_MS, type HttpHandler, type HttpHandlerOptions } from './server-handler.ts';
import { idleSweeper } from './idle-sweeper.ts';
import { headerValue, type HttpRequest, type HttpResponse } from './types.ts';

export interface DualEraHttpOptions extends HttpHandlerOptions {
  /** The stateless server every modern request goes to (one for the whole endpoint). */
  modern: ModernServer;
  /**
   * 'serve' (default): handshake-era requests get sessions as before. 'reject': a modern-only
   * endpoint; they get 400 with -32022 naming the supported versions (GET and DELETE: 405).
   */
  legacy?: 'serve' | 'reject';
}

export interface DualEraHttpHandler extends HttpHandler {
  /** Which era the last POST was served in (for logs and the inspector). */
  readonly lastEra: 'legacy' | 'modern' | undefined;
}

/** Headers on every modern SSE response: no caching, no transformation, no proxy buffering. */
export const MODERN_SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
};

export function createDualEraHttpHandler(options: DualEraHttpOptions): DualEraHttpHandler {
  const legacy = createHttpHandler(options);
  const endpoint = options.endpoint ?? DEFAULT_ENDPOINT;
  const allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((host) => host.toLowerCase());
  const allowedOrigins = options.allowedOrigins ?? [];
  const anyLoopbackOrigin = options.anyLoopbackOrigin ?? true;
  const { modern } = options;
  const rejectLegacy = options.legacy === 'reject';
  let lastEra: 'legacy' | 'modern' | undefined;
  const streamIdleMs = options.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;
  const now = options.now ?? (() => Date.now());
  /** Open modern response streams: when each last carried anything, and how to close it. */
  const openStreams = new Map<PushStream, { activeAt: number; close(): void }>();
  const expiry = idleSweeper(streamIdleMs, () => {
    const before = now() - streamIdleMs;
    for (const [stream, entry] of openStreams) if (entry.activeAt <= before) entry.close();
    if (openStreams.size === 0) expiry.stop();
  });

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const path = request.path.split('?')[0];
    // The checks every request passes first, whatever its era: the legacy handler makes them too.
    if (path !== endpoint || !isAllowedHost(request.headers, allowedHosts) || !isAllowedOrigin(request.headers, allowedHosts, allowedOrigins, anyLoopbackOrigin)) {
      return legacy.handle(request);
    }
    const headerVersion = headerValue(request.headers, 'mcp-protocol-version');
    const headerIsModern = headerVersion !== undefined && isModernProtocolVersion(stripOws(headerVersion));
    if (request.method.toUpperCase() !== 'POST') {
      if (!headerIsModern && !rejectLegacy) return legacy.handle(request);
      // The 2026-07-28 endpoint has no GET stream and no DELETE: there are no sessions.
      const refused = errorResponse(405, -32000, 'Method not allowed: the 2026-07-28 endpoint accepts POST only');
      refused.headers.allow = 'POST';
      return refused;
    }

    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body ?? new Uint8Array()));
    } catch {
      return headerIsModern ? errorResponse(400, ErrorCode.ParseError, 'Parse error: the body is not JSON') : legacy.handle(request);
    }
    const outcome = validateMessage(value);
    const message = outcome.ok ? outcome.message : undefined;
    const modernRequest = message !== undefined && isRequest(message) && (claimsModernEra(message) || (headerIsModern && message.method !== 'initialize'));
    const modernNotification = message !== undefined && isNotification(message) && headerIsModern;
    if (message !== undefined && isRequest(message) && message.method === 'initialize' && !modernRequest && headerIsModern) {
      // The handshake under a modern header: the two disagree about the era, so neither is guessed.
      return errorResponse(400, EraErrorCode.HeaderMismatch, 'Header mismatch: an initialize request (the handshake era) with a 2026-07-28 MCP-Protocol-Version header', message.id);
    }
    if (!modernRequest && !modernNotification && !(headerIsModern && message === undefined)) {
      lastEra = 'legacy';
      if (rejectLegacy) return refuseLegacy(message);
      return legacy.handle(request);
    }
    lastEra = 'modern';

    if (!acceptsPost(request.headers)) return errorResponse(406, -32000, 'Not Acceptable: Accept must list both application/json and text/event-stream');
    if (!isJsonContentType(request.headers)) return errorResponse(415, -32000, 'Unsupported Media Type: Content-Type must be application/json');
    if (message === undefined) return errorResponse(400, ErrorCode.InvalidRequest, `Invalid Request: ${outcome.ok ? 'not a request' : outcome.reason}`);
    // A notification is accepted and has nothing to answer (no core client notification exists on
    // this transport: closing a stream is how a client cancels).
    if (!isRequest(message)) return { status: 202, headers: {}, body: { type: 'none' } };

    const problem = modernHeaderProblem(request.headers, message, (name) => modern.tools.get(name)?.info);
    if (problem !== null) return errorResponse(400, EraErrorCode.HeaderMismatch, `Header mismatch: ${problem}`, message.id);
    return answer(message);
  }

  /** Modern-only: the handshake era learns the supported versions (its only diagnostic), nothing else. */
  function refuseLegacy(message: JsonRpcMessage | undefined): HttpResponse {
    if (message !== undefined && !isRequest(message)) return { status: 202, headers: {}, body: { type: 'none' } };
    const params = message?.params as { protocolVersion?: unknown } | undefined;
    const requested = message?.method === 'initialize' && typeof params?.protocolVersion === 'string' ? params.protocolVersion : undefined;
    const supported = [...modern.supportedVersions];
    const error = { code: EraErrorCode.UnsupportedProtocolVersion, message: `Unsupported protocol version: this endpoint speaks only ${supported.join(', ')}`, data: requested === undefined ? { supported } : { supported, requested } };
    return jsonResponse(400, message === undefined ? { jsonrpc: '2.0', error } : { jsonrpc: '2.0', id: message.id, error });
  }

  /** JSON, or SSE from the first message the server sends before its result. */
  function answer(request: JsonRpcRequest): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve) => {
      const controller = new AbortController();
      let stream: PushStream | null = null;
      const openStream = (): PushStream => {
        const opened = new PushStream();
        // The client closed the stream: that is this request's cancellation.
        opened.onCancel(() => {
          openStreams.delete(opened);
          controller.abort();
        });
        // Idle for streamIdleMs: the server closes it, and cancels the request the same way.
        openStreams.set(opened, {
          activeAt: now(),
          close: () => {
            openStreams.delete(opened);
            controller.abort();
            opened.end();
          },
        });
        expiry.start();
        stream = opened;
        resolve({ status: 200, headers: { ...MODERN_SSE_HEADERS }, body: { type: 'stream', stream: opened } });
        return opened;
      };
      const write = (target: PushStream, message: JsonRpcMessage | JsonRpcResponse) => {
        const entry = openStreams.get(target);
        if (entry !== undefined) entry.activeAt = now();
        target.write(encodeSseEvent({ data: toJsonText(message) }));
      };
      const send = (message: JsonRpcMessage): void => {
        if (controller.signal.aborted) return;
        write(stream ?? openStream(), message);
      };
      void modern.handle(request, { send, signal: controller.signal }).then(({ response, status }) => {
        const open: PushStream | null = stream;
        if (open !== null) {
          if (response !== null && !controller.signal.aborted) write(open, response);
          openStreams.delete(open);
          open.end();
          return;
        }
        resolve(response === null ? { status: 202, headers: {}, body: { type: 'none' } } : jsonResponse(status, response));
      });
    });
  }

  return {
    handle,
    get sessionCount() {
      return legacy.sessionCount;
    },
    get lastEra() {
      return lastEra;
    },
    closeAll() {
      legacy.closeAll();
      modern.endSubscriptions();
      expiry.stop();
    },
  };
}

const utf8 = new TextEncoder();

function jsonResponse(status: number, body: unknown): HttpResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: { type: 'bytes', bytes: utf8.encode(JSON.stringify(body)) } };
}

/** An HTTP error whose body is a JSON-RPC error, with the request's id when it could be read. */
function errorResponse(status: number, code: number, message: string, id?: JsonRpcRequest['id']): HttpResponse {
  return jsonResponse(status, id === undefined ? { jsonrpc: '2.0', error: { code, message } } : { jsonrpc: '2.0', id, error: { code, message } });
}
