// The server side of Streamable HTTP (2025-11-25, basic/transports) as one function from a request
// to a response. Rules, in the order they are checked:
//
//   * one endpoint path (404 elsewhere); Host must name this server and Origin, when present, must
//     be ours (403: DNS-rebinding protection); methods POST, GET, DELETE (405 otherwise);
//   * POST: Accept lists application/json AND text/event-stream (406), Content-Type is JSON (415),
//     the body is one JSON-RPC message (400 with a JSON-RPC error without id);
//   * initialize without a session id starts a session and the response carries Mcp-Session-Id;
//     everything else needs the id (400 without it, 404 when unknown or ended, so the client
//     initializes again); MCP-Protocol-Version, when present, must be one we speak (400);
//   * a notification or response gets 202; a request gets JSON, or an SSE stream when it asked
//     for progress or the server sends anything related to it before the response;
//   * GET (Accept: text/event-stream, else 406) opens the standalone stream, one at a time (409),
//     or resumes any stream of the session with Last-Event-ID; DELETE ends the session.
// Each server message goes on exactly one stream: related ones on their request's stream (or,
// once that request has been answered with JSON, the standalone stream), the rest on the
// standalone stream.

import { ErrorCode, isRequest, validateMessage, type JsonRpcMessage, type JsonRpcRequest, type JsonRpcResponse } from '../jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION } from '../mcp.ts';
import { buggyNotificationReply, type FaultName } from '../faults.ts';
import { parseEventId, type EventStream } from './event-stream.ts';
import type { PushStream } from './push-stream.ts';
import {
  acceptsEventStream,
  acceptsPost,
  isAllowedHost,
  isAllowedOrigin,
  isJsonContentType,
  isValidSessionId,
  LOOPBACK_HOSTS,
  newSessionId,
  protocolVersionProblem,
} from './request-checks.ts';
import { HttpSession, type HttpServerFactory, type RequestContext } from './server-session.ts';
import { idleSweeper } from './idle-sweeper.ts';
import { HEADER, headerValue, type HttpRequest, type HttpResponse } from './types.ts';

export interface HttpHandlerOptions {
  /** A fresh MCP server for each session. */
  createServer: HttpServerFactory;
  /** The one MCP endpoint. Default "/mcp". */
  endpoint?: string;
  /** Host names this server answers to (no port). Default: the loopback names. */
  allowedHosts?: readonly string[];
  /** Browser origins allowed besides http(s) origins on an allowed host, e.g. a page on another name. */
  allowedOrigins?: readonly string[];
  /**
   * Also allow any http(s) origin on an allowed host name, whatever its port. Default true (the
   * in-page hosts, which no other page can reach); server/mcp-http.ts turns it off, so only its
   * own origin and the listed ones pass there.
   */
  anyLoopbackOrigin?: boolean;
  /** Most sessions kept; initialize beyond it ends the least recently used one. Default 1000. */
  maxSessions?: number;
  /** A session no request named and no connection listened to for this long ends. Default 10 min. */
  sessionIdleMs?: number;
  /**
   * A stream connection that carried nothing for this long is closed (the stream stays resumable).
   * The dual-era handler applies it to 2026-07-28 SSE responses too (there, closing is cancelling).
   * Default 5 min.
   */
  streamIdleMs?: number;
  /** The clock of the idle rules; default Date.now. */
  now?: () => number;
  /** The SSE `retry` sent at the start of every stream, in ms: how long a client waits before it resumes. Default 1000. */
  retryMs?: number;
  /** Offer the standalone GET stream. Default true; false answers GET with 405. */
  standaloneStream?: boolean;
  /** Let clients end sessions with DELETE. Default true; false answers 405. */
  allowDelete?: boolean;
  /** Answer this request with a stream from the start (beyond the progress-token rule). */
  streamRequest?(request: JsonRpcRequest): boolean;
  /** Session ids; default 128 random bits from globalThis.crypto. Must be visible ASCII. */
  newSessionId?: () => string;
  /**
   * The echo server's faults that live in the transport: `reply-to-notification` answers a
   * notification with 200 and the buggy reply instead of 202; `close-streams-early` ends every
   * connection of a request's event stream once written, from the priming event on, so the client
   * must poll with GET and Last-Event-ID after `retry` ms. (The others act in the server or in
   * the socket adapter.)
   */
  faults?: readonly FaultName[];
}

export interface HttpHandler {
  handle(request: HttpRequest): Promise<HttpResponse>;
  /** Sessions alive now. */
  readonly sessionCount: number;
  /** End every session (server shutdown): open streams end. */
  closeAll(): void;
}

export const DEFAULT_ENDPOINT = '/mcp';
export const DEFAULT_RETRY_MS = 1000;
/** A workshop has tens of clients; a thousand sessions is far beyond it and still a few MiB. */
export const DEFAULT_MAX_SESSIONS = 1000;
export const DEFAULT_SESSION_IDLE_MS = 10 * 60_000;
export const DEFAULT_STREAM_IDLE_MS = 5 * 60_000;

/** Transport-level failures carry -32000 (implementation-defined range), like the official SDK. */
const TRANSPORT_ERROR = -32000;
const SESSION_NOT_FOUND = -32001;

export function createHttpHandler(options: HttpHandlerOptions): HttpHandler {
  const endpoint = options.endpoint ?? DEFAULT_ENDPOINT;
  const allowedHosts = (options.allowedHosts ?? LOOPBACK_HOSTS).map((host) => host.toLowerCase());
  const allowedOrigins = options.allowedOrigins ?? [];
  const retryMs = options.retryMs ?? DEFAULT_RETRY_MS;
  const standaloneAllowed = options.standaloneStream ?? true;
  const deleteAllowed = options.allowDelete ?? true;
  const makeSessionId = options.newSessionId ?? newSessionId;
  const replyToNotifications = options.faults?.includes('reply-to-notification') === true;
  const closeStreamsEarly = options.faults?.includes('close-streams-early') === true;
  const anyLoopbackOrigin = options.anyLoopbackOrigin ?? true;
  const maxSessions = Math.max(1, options.maxSessions ?? DEFAULT_MAX_SESSIONS);
  const sessionIdleMs = options.sessionIdleMs ?? DEFAULT_SESSION_IDLE_MS;
  const streamIdleMs = options.streamIdleMs ?? DEFAULT_STREAM_IDLE_MS;
  const now = options.now ?? (() => Date.now());
  // In least-recently-used order: a request that names a session moves it to the end.
  const sessions = new Map<string, HttpSession>();
  const expiry = idleSweeper(Math.min(sessionIdleMs, streamIdleMs), () => sweep());
  const allowedMethods = ['POST', ...(standaloneAllowed ? ['GET'] : []), ...(deleteAllowed ? ['DELETE'] : [])].join(', ');

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    const path = request.path.split('?')[0];
    if (path !== endpoint) return errorResponse(404, TRANSPORT_ERROR, `Not found: the MCP endpoint is ${endpoint}`);
    if (!isAllowedHost(request.headers, allowedHosts)) return errorResponse(403, TRANSPORT_ERROR, 'Forbidden: Host is not a name of this server');
    if (!isAllowedOrigin(request.headers, allowedHosts, allowedOrigins, anyLoopbackOrigin)) return errorResponse(403, TRANSPORT_ERROR, 'Forbidden: Origin not allowed');

    switch (request.method.toUpperCase()) {
      case 'POST':
        return post(request);
      case 'GET':
        return standaloneAllowed ? get(request) : methodNotAllowed();
      case 'DELETE':
        return deleteAllowed ? remove(request) : methodNotAllowed();
      default:
        return methodNotAllowed();
    }
  }

  function methodNotAllowed(): HttpResponse {
    const response = errorResponse(405, TRANSPORT_ERROR, `Method not allowed; use ${allowedMethods}`);
    response.headers.allow = allowedMethods;
    return response;
  }

  /** The request's session, or the error response that says why there is none. */
  function sessionOf(request: HttpRequest): HttpSession | HttpResponse {
    const id = headerValue(request.headers, HEADER.sessionId);
    if (id === undefined) return errorResponse(400, TRANSPORT_ERROR, 'Bad Request: Mcp-Session-Id header is required');
    const session = sessions.get(id);
    if (session === undefined || session.ended) return errorResponse(404, SESSION_NOT_FOUND, 'Session not found');
    const problem = protocolVersionProblem(request.headers);
    if (problem !== null) return errorResponse(400, TRANSPORT_ERROR, `Bad Request: ${problem}`);
    session.lastUsed = now();
    sessions.delete(id);
    sessions.set(id, session);
    return session;
  }

  async function post(request: HttpRequest): Promise<HttpResponse> {
    if (!acceptsPost(request.headers)) {
      return errorResponse(406, TRANSPORT_ERROR, 'Not Acceptable: Accept must list both application/json and text/event-stream');
    }
    if (!isJsonContentType(request.headers)) return errorResponse(415, TRANSPORT_ERROR, 'Unsupported Media Type: Content-Type must be application/json');

    let value: unknown;
    try {
      value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body ?? new Uint8Array()));
    } catch (error) {
      return errorResponse(400, ErrorCode.ParseError, `Parse error: ${(error as Error).message}`);
    }
    const outcome = validateMessage(value);
    if (!outcome.ok) return errorResponse(400, ErrorCode.InvalidRequest, `Invalid Request: ${outcome.reason}`);
    const message = outcome.message;

    if (isRequest(message) && message.method === 'initialize' && headerValue(request.headers, HEADER.sessionId) === undefined) {
      return initialize(message);
    }
    const session = sessionOf(request);
    if (!(session instanceof HttpSession)) return session;

    if (!isRequest(message)) {
      // A notification or a response: handed over now; the answer never waits for its effects.
      void Promise.resolve()
        .then(() => session.server.handle(message))
        .catch(() => {});
      if (replyToNotifications && 'method' in message) return jsonResponse(200, buggyNotificationReply(message));
      return { status: 202, headers: {}, body: { type: 'none' } };
    }
    return answer(session, message);
  }

  async function initialize(message: JsonRpcRequest): Promise<HttpResponse> {
    const id = makeSessionId();
    if (!isValidSessionId(id)) throw new Error('a session id must be visible ASCII (0x21-0x7E)');
    const session = new HttpSession(id, options.createServer, retryMs, closeStreamsEarly, now);
    const response = await session.server.handle(message);
    if (response === null || 'error' in response) {
      // No session was established: do not keep one, and do not name one.
      return response === null ? { status: 202, headers: {}, body: { type: 'none' } } : jsonResponse(200, response);
    }
    const result = response.result as { protocolVersion?: unknown } | undefined;
    session.protocolVersion = typeof result?.protocolVersion === 'string' ? result.protocolVersion : LATEST_PROTOCOL_VERSION;
    // The cap: the least recently used session makes room (its id answers 404 from now on).
    while (sessions.size >= maxSessions) {
      const [oldestId, oldest] = sessions.entries().next().value as [string, HttpSession];
      oldest.end();
      sessions.delete(oldestId);
    }
    sessions.set(id, session);
    expiry.start();
    const answered = jsonResponse(200, response);
    answered.headers[HEADER.sessionId] = id;
    return answered;
  }

  /**
   * A request: JSON when the response is the only thing the server sends for it, SSE when it
   * carries a progress token (it will get notifications) or when the server sends anything
   * related to it before the response; the choice is made when the first of those happens.
   */
  function answer(session: HttpSession, request: JsonRpcRequest): Promise<HttpResponse> {
    return new Promise<HttpResponse>((resolve) => {
      let stream: EventStream | null = null;
      let answeredWithJson = false;
      const openStream = (): EventStream => {
        stream = session.openRequestStream(request);
        resolve(streamResponse(stream.connect()));
        return stream;
      };
      if (hasProgressToken(request) || options.streamRequest?.(request) === true) openStream();

      const context: RequestContext = {
        send(message: JsonRpcMessage): void {
          if (session.ended) return;
          if (answeredWithJson) return session.sendUnrelated(message); // its request is answered: one stream only
          (stream ?? openStream()).send(message);
        },
        closeConnection(): void {
          if (session.ended || answeredWithJson) return;
          (stream ?? openStream()).closeConnection();
        },
      };
      const finish = (response: JsonRpcResponse | null): void => {
        if (stream !== null) {
          if (response !== null && !session.ended) stream.send(response);
          if (!stream.done) stream.finish();
          return;
        }
        answeredWithJson = true;
        // A request the client cancelled gets no JSON-RPC response; the HTTP request still ends.
        resolve(response === null ? { status: 202, headers: {}, body: { type: 'none' } } : jsonResponse(200, response));
      };
      Promise.resolve()
        .then(() => session.server.handle(request, context))
        .then(finish, () => finish({ jsonrpc: '2.0', id: request.id, error: { code: ErrorCode.InternalError, message: 'Internal error' } }));
    });
  }

  function get(request: HttpRequest): HttpResponse {
    if (!acceptsEventStream(request.headers)) return errorResponse(406, TRANSPORT_ERROR, 'Not Acceptable: Accept must list text/event-stream');
    const session = sessionOf(request);
    if (!(session instanceof HttpSession)) return session;

    const lastEventId = headerValue(request.headers, HEADER.lastEventId);
    if (lastEventId !== undefined) {
      const cursor = parseEventId(lastEventId);
      const stream = cursor === null ? undefined : session.findStream(cursor.key);
      if (cursor === null || stream === undefined) return errorResponse(400, TRANSPORT_ERROR, `Bad Request: no stream to resume for Last-Event-ID ${JSON.stringify(lastEventId)}`);
      // Replays only this stream's own events: never a message that belongs on another stream.
      return streamResponse(stream.connect(cursor.seq));
    }
    if (session.standalone.connected) return errorResponse(409, TRANSPORT_ERROR, 'Conflict: the standalone SSE stream is already open for this session');
    return streamResponse(session.standalone.connect());
  }

  function remove(request: HttpRequest): HttpResponse {
    const session = sessionOf(request);
    if (!(session instanceof HttpSession)) return session;
    session.end();
    sessions.delete(session.id);
    return { status: 200, headers: {}, body: { type: 'none' } };
  }

  /**
   * The idle rules. A session with a connection open is in use (a client listens), so its count
   * starts only when its last connection is gone; an idle connection closes; a session that nothing
   * named or listened to for sessionIdleMs ends. A client whose idle stream was closed thus has
   * the whole sessionIdleMs to resume it.
   */
  function sweep(): void {
    const time = now();
    for (const [id, session] of sessions) {
      if (session.listening) session.lastUsed = time;
      session.closeConnectionsIdleSince(time - streamIdleMs);
      if (!session.listening && session.lastUsed <= time - sessionIdleMs) {
        session.end();
        sessions.delete(id);
      }
    }
    if (sessions.size === 0) expiry.stop();
  }

  return {
    handle,
    get sessionCount() {
      return sessions.size;
    },
    closeAll() {
      for (const session of sessions.values()) session.end();
      sessions.clear();
      expiry.stop();
    },
  };
}


function hasProgressToken(request: JsonRpcRequest): boolean {
  const params = request.params;
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return false;
  const meta = (params as { _meta?: unknown })._meta;
  if (typeof meta !== 'object' || meta === null) return false;
  const token = (meta as { progressToken?: unknown }).progressToken;
  return typeof token === 'string' || typeof token === 'number';
}

const utf8 = new TextEncoder();

function jsonResponse(status: number, body: unknown): HttpResponse {
  return { status, headers: { 'content-type': 'application/json' }, body: { type: 'bytes', bytes: utf8.encode(JSON.stringify(body)) } };
}

/** An HTTP error whose body is a JSON-RPC error without an id, as the specification allows. */
function errorResponse(status: number, code: number, message: string): HttpResponse {
  return jsonResponse(status, { jsonrpc: '2.0', error: { code, message } });
}

function streamResponse(stream: PushStream): HttpResponse {
  return {
    status: 200,
    // no-cache: a proxy must not store the stream; no-transform: nor buffer or compress it.
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform' },
    body: { type: 'stream', stream },
  };
}
