// The echo server over Streamable HTTP built with the OFFICIAL SDK 1.32.2, not with anything in
// this project: "Check my client" in its HTTP mode points the learner's exercise-6 transport at it.
// One McpServer (the same echo tool as sdk-echo-server) and one
// WebStandardStreamableHTTPServerTransport per session, the SDK's documented stateful pattern.
//
// It is written as the project's HttpHandler (request objects in, response objects out) so it
// runs the same on every host: behind node:http (server/sdk-http-server.ts, the bridge) and served
// over HTTP/1.1 bytes in a Web Worker (sdk-http-worker.ts), the way mcp-http is. Between the two
// sit the Web standard Request and Response the SDK's transport speaks.
//
// Before the SDK sees a request, the rules every local server here keeps: the endpoint is /mcp,
// Host must be a loopback name and Origin, when sent, an origin on one (403: DNS rebinding). An
// unknown session id is 404, as the specification says (the client then initializes again).

import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isAllowedHost, isAllowedOrigin, LOOPBACK_HOSTS, newSessionId } from '../protocol/http/request-checks.ts';
import type { HttpHandler } from '../protocol/http/server-handler.ts';
import { HEADER, headerValue, type ByteStream, type HttpRequest, type HttpResponse } from '../protocol/http/types.ts';
import { registerSdkEchoTool } from './sdk-echo-tool.ts';

export const SDK_HTTP_SERVER_INFO = { name: 'sdk-http-server', version: '1.32.2' } as const;
export const SDK_HTTP_ENDPOINT = '/mcp';

const jsonError = (status: number, code: number, message: string): HttpResponse => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: { type: 'bytes', bytes: new TextEncoder().encode(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })) },
});

export function createSdkHttpHandler(): HttpHandler {
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();

  async function handle(request: HttpRequest): Promise<HttpResponse> {
    if (request.path.split('?')[0] !== SDK_HTTP_ENDPOINT) return jsonError(404, -32000, `Not found: the MCP endpoint is ${SDK_HTTP_ENDPOINT}`);
    if (!isAllowedHost(request.headers, LOOPBACK_HOSTS)) return jsonError(403, -32000, 'Forbidden: Host is not a name of this server');
    if (!isAllowedOrigin(request.headers, LOOPBACK_HOSTS, [])) return jsonError(403, -32000, 'Forbidden: Origin not allowed');
    const id = headerValue(request.headers, HEADER.sessionId);
    let transport = id === undefined ? undefined : sessions.get(id);
    if (id !== undefined && transport === undefined) return jsonError(404, -32001, 'Session not found');
    if (transport === undefined) {
      if (request.method !== 'POST' || !isInitialize(request.body)) return jsonError(400, -32000, 'Bad Request: Mcp-Session-Id header is required');
      transport = await openSession(sessions);
    }
    return fromWebResponse(await transport.handleRequest(toWebRequest(request)));
  }

  return {
    handle,
    get sessionCount() {
      return sessions.size;
    },
    closeAll() {
      for (const transport of sessions.values()) void transport.close();
      sessions.clear();
    },
  };
}

/** A new session: a fresh SDK server on a fresh SDK transport, kept by the id the SDK hands out. */
async function openSession(sessions: Map<string, WebStandardStreamableHTTPServerTransport>): Promise<WebStandardStreamableHTTPServerTransport> {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: newSessionId,
    onsessioninitialized: (id) => void sessions.set(id, transport),
    onsessionclosed: (id) => void sessions.delete(id),
  });
  const server = new McpServer({ ...SDK_HTTP_SERVER_INFO }, { capabilities: { tools: {} } });
  registerSdkEchoTool(server);
  await server.connect(transport);
  return transport;
}

function isInitialize(body: Uint8Array | undefined): boolean {
  if (body === undefined) return false;
  try {
    const value = JSON.parse(new TextDecoder().decode(body)) as { method?: unknown };
    return value?.method === 'initialize';
  } catch {
    return false;
  }
}

function toWebRequest(request: HttpRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, value);
  const host = headerValue(request.headers, 'host') ?? '127.0.0.1';
  const init: RequestInit = { method: request.method, headers };
  if (request.body !== undefined && request.method !== 'GET' && request.method !== 'HEAD') init.body = request.body as unknown as NonNullable<RequestInit['body']>;
  return new Request(`http://${host}${request.path}`, init);
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'content-length', 'transfer-encoding']);

async function fromWebResponse(response: Response): Promise<HttpResponse> {
  const headers: Record<string, string> = {};
  // Framing and hop-by-hop headers belong to whoever writes the HTTP/1.1 bytes (node:http, http1-server).
  response.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name.toLowerCase())) headers[name.toLowerCase()] = value;
  });
  if (response.body === null) return { status: response.status, headers, body: { type: 'none' } };
  if ((headers['content-type'] ?? '').startsWith('text/event-stream')) return { status: response.status, headers, body: { type: 'stream', stream: readableAsStream(response.body) } };
  const bytes = new Uint8Array(await response.arrayBuffer());
  return { status: response.status, headers, body: bytes.length === 0 ? { type: 'none' } : { type: 'bytes', bytes } };
}

/** A Web ReadableStream as the handler's ByteStream: read chunk by chunk, cancelled when the reader goes. */
function readableAsStream(body: ReadableStream<Uint8Array>): ByteStream {
  const reader = body.getReader();
  let cancelled = false;
  return {
    cancel() {
      if (cancelled) return;
      cancelled = true;
      void reader.cancel().catch(() => {});
    },
    [Symbol.asyncIterator]() {
      return {
        next: async (): Promise<IteratorResult<Uint8Array>> => {
          if (cancelled) return { value: undefined, done: true };
          const { value, done } = await reader.read();
          return done ? { value: undefined, done: true } : { value, done: false };
        },
        return: async (): Promise<IteratorResult<Uint8Array>> => {
          this.cancel();
          return { value: undefined, done: true };
        },
      };
    },
  };
}
