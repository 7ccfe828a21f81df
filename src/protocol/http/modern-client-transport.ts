// The client side of Streamable HTTP in the 2026-07-28 revision, as a ByteTransport (NDJSON lines
// in and out, like HttpClientTransport, so the same clients run over it). Next to the 2025-11-25
// transport (client-transport.ts) it is mostly things left out:
//
//   * POST only, one message each: no GET stream, no DELETE, no session id, no Last-Event-ID;
//   * every POST carries MCP-Protocol-Version equal to the body's `_meta` protocolVersion, and
//     Mcp-Method; tools/call, resources/read and prompts/get also carry Mcp-Name, and tools/call
//     carries Mcp-Param-* for the tool's x-mcp-header arguments (param-headers.ts);
//   * an SSE response that ends before its answer is not resumed: the request is lost and the
//     client hears so (a new request would have a new id);
//   * notifications/cancelled is not sent: closing the request's response stream IS the
//     cancellation on HTTP;
//   * a 4xx carries a JSON-RPC error in its body (-32022, -32020, -32601 …): that error is handed
//     to the client as the answer to its request; a status without one becomes a made-up error
//     marked as local (era/local-failure.ts), which is how a dual-era client recognises a legacy server.
//
// The transport also keeps the tools/list answers it carries, for two jobs only HTTP has: it
// leaves out tools whose x-mcp-header annotations are invalid (the spec says the client MUST
// exclude them, and report why) and it knows each tool's annotations when a tools/call goes out.

import { encodeLine, LineReader } from '../framing/ndjson.ts';
import { SseReader } from '../framing/sse.ts';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc.ts';
import type { ByteTransport, Unsubscribe } from '../transport.ts';
import { META_PROTOCOL_VERSION, requestMeta } from '../era/meta.ts';
import { bodyText, drain } from './response-body.ts';
import { LOCAL_FAILURE_CODE, localFailureData, type LocalHttpFailure } from '../era/local-failure.ts';
import { paramHeaders, readHeaderAnnotations, standardHeaders, type HeaderParam } from './param-headers.ts';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from './types.ts';

export interface ModernHttpClientTransportOptions {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  exchange: HttpExchange;
  /** Things that went wrong without a request to blame, and tools left out (for logs). */
  onError?: (detail: string) => void;
}

const ACCEPT = 'application/json, text/event-stream';

export class ModernHttpClientTransport implements ByteTransport {
  private readonly lines = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** Response streams still open, by request id: cancelling a request closes its stream. */
  private readonly open = new Map<string, HttpClientResponse>();
  /** Request ids of tools/list calls in flight: their answers teach us the tools' header params. */
  private readonly toolLists = new Set<string>();
  private readonly toolParams = new Map<string, HeaderParam[]>();
  private closed = false;

  constructor(private readonly options: ModernHttpClientTransportOptions) {}

  // ---- ByteTransport ----

  write(bytes: Uint8Array): void {
    if (this.closed) throw new Error('the HTTP transport is closed');
    for (const item of this.lines.push(bytes)) {
      if (item.type !== 'message') {
        this.report(`unreadable line from the client: ${item.detail}`);
        continue;
      }
      const outcome = validateMessage(item.value);
      if (!outcome.ok) this.report(`invalid message from the client: ${outcome.reason}`);
      else this.dispatch(outcome.message);
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    for (const response of this.open.values()) response.cancel();
    this.open.clear();
    for (const listener of this.closeListeners) listener('closed by the client');
  }

  onData(listener: (chunk: Uint8Array) => void): Unsubscribe {
    this.dataListeners.add(listener);
    return () => this.dataListeners.delete(listener);
  }

  onClose(listener: (reason: string) => void): Unsubscribe {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  // ---- sending ----

  private dispatch(message: JsonRpcMessage): void {
    if ('method' in message && message.method === 'notifications/cancelled') return this.cancel(message.params);
    if ('method' in message) {
      // A body that breaks off while being read still owes the request an answer.
      this.post(message).catch((error: unknown) => this.fail(isRequest(message) ? message : undefined, `reading the response failed: ${String(error)}`, {}));
      return;
    }
    // A response: nothing on this transport asks the client anything, so there is nobody to answer.
    this.report(`dropped a response to id ${JSON.stringify(message.id)}: a 2026-07-28 client never sends responses over HTTP`);
  }

  /** Closing a request's response stream is how HTTP cancels it (no notification goes out). */
  private cancel(params: unknown): void {
    const requestId = typeof params === 'object' && params !== null ? (params as { requestId?: unknown }).requestId : undefined;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    const key = idKey(requestId);
    this.open.get(key)?.cancel();
    this.open.delete(key);
  }

  private async post(message: JsonRpcMessage): Promise<void> {
    const request = isRequest(message) ? message : undefined;
    if (request?.method === 'tools/list') this.toolLists.add(idKey(request.id));
    let response: HttpClientResponse;
    try {
      response = await this.options.exchange({ method: 'POST', url: this.options.url, headers: this.headersFor(message), body: new TextEncoder().encode(JSON.stringify(message)) });
    } catch (error) {
      return this.fail(request, `POST failed: ${String(error)}`, {});
    }
    if (this.closed) return response.cancel();
    if (request === undefined) return drain(response); // a notification: 202, nothing to read

    if (response.status < 200 || response.status >= 300) return this.answerFromErrorBody(request, response);
    const type = (headerValue(response.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'text/event-stream') return this.readStream(request, response);
    if (type === 'application/json') {
      const text = await bodyText(response);
      try {
        this.receive(JSON.parse(text), request);
      } catch (error) {
        this.fail(request, `the JSON response body is not JSON: ${String(error)}`, { status: response.status, body: text.slice(0, 200) });
      }
      return;
    }
    await drain(response);
    this.fail(request, `HTTP ${response.status} with ${JSON.stringify(type)} is no answer to a request`, { status: response.status });
  }

  /** MCP-Protocol-Version from the body's own `_meta`, so the two can never disagree; then the mirrored fields. */
  private headersFor(message: JsonRpcMessage): Record<string, string> {
    const headers: Record<string, string> = { accept: ACCEPT, 'content-type': 'application/json' };
    if (!('method' in message)) return headers;
    const version = requestMeta(message.params)?.[META_PROTOCOL_VERSION];
    if (typeof version === 'string') headers[HEADER.protocolVersion] = version;
    Object.assign(headers, standardHeaders(message.method, message.params));
    if (message.method === 'tools/call' && typeof message.params === 'object' && message.params !== null) {
      const { name, arguments: args } = message.params as { name?: unknown; arguments?: unknown };
      const params = typeof name === 'string' ? this.toolParams.get(name) : undefined;
      if (params !== undefined) Object.assign(headers, paramHeaders(params, args));
    }
    return headers;
  }

  // ---- receiving ----

  /** A 4xx/5xx: its JSON-RPC error body is the server's answer; without one, the client gets a local one. */
  private async answerFromErrorBody(request: JsonRpcRequest, response: HttpClientResponse): Promise<void> {
    const text = await bodyText(response).catch(() => '');
    let error: unknown;
    try {
      error = (JSON.parse(text) as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    if (typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'number') {
      // One POST carries one request, so the error answers it even when the server wrote no id.
      return this.deliver({ jsonrpc: '2.0', id: request.id, error: error as { code: number; message: string } });
    }
    this.fail(request, `HTTP ${response.status} without a JSON-RPC error body${text === '' ? '' : `: ${text.slice(0, 200)}`}`, { status: response.status, body: text.slice(0, 200) });
  }

  /** An SSE response: notifications about this request, then its answer. Never resumed. */
  private async readStream(request: JsonRpcRequest, response: HttpClientResponse): Promise<void> {
    const key = idKey(request.id);
    this.open.set(key, response);
    const reader = new SseReader();
    let answered = false;
    try {
      for await (const chunk of response.body) {
        for (const item of reader.push(chunk)) {
          if (item.type !== 'event') {
            this.report(`SSE: ${item.detail}`);
            continue;
          }
          if (item.event.data === '') continue; // a keep-alive or priming event
          try {
            answered = this.receive(JSON.parse(item.event.data), request) || answered;
          } catch (error) {
            this.report(`SSE event data is not JSON: ${String(error)}`);
          }
        }
        if (answered) break;
      }
    } catch (error) {
      this.report(`SSE connection dropped: ${String(error)}`);
    } finally {
      this.open.delete(key);
      response.cancel();
    }
    if (!answered && !this.closed) {
      // Cancelled by the client, or cut off: either way no answer will come. The 2026-07-28
      // revision has no resumption, so the request is lost; saying so beats a timeout.
      this.fail(request, 'the response stream ended before the answer (streams are not resumed in 2026-07-28: send the request again)', { status: response.status });
    }
  }

  /** One message from the server. Returns whether it was the answer to `request`. */
  private receive(value: unknown, request: JsonRpcRequest): boolean {
    const outcome = validateMessage(value);
    if (!outcome.ok) {
      this.deliver(value); // the client reports it; the transport does not judge the server
      return false;
    }
    const message = outcome.message;
    if ('method' in message) {
      this.deliver(message);
      return false;
    }
    const answers = message.id !== null && message.id !== undefined && idKey(message.id) === idKey(request.id);
    if (answers && this.toolLists.delete(idKey(request.id)) && 'result' in message) {
      this.deliver({ ...message, result: this.checkTools(message.result) });
      return true;
    }
    this.deliver(message);
    return answers;
  }

  /** Learn each tool's header params; leave out the tools whose annotations are invalid. */
  private checkTools(result: unknown): unknown {
    if (typeof result !== 'object' || result === null || !Array.isArray((result as { tools?: unknown }).tools)) return result;
    const kept: unknown[] = [];
    for (const tool of (result as { tools: unknown[] }).tools) {
      const { name, inputSchema } = (typeof tool === 'object' && tool !== null ? tool : {}) as { name?: unknown; inputSchema?: unknown };
      const annotations = readHeaderAnnotations(inputSchema);
      if (!annotations.ok) {
        this.report(`left out tool ${JSON.stringify(name)}: ${annotations.reason}`);
        continue;
      }
      if (typeof name === 'string') this.toolParams.set(name, annotations.params);
      kept.push(tool);
    }
    return { ...result, tools: kept };
  }

  private deliver(value: unknown): void {
    if (this.closed) return;
    const bytes = encodeLine(value);
    for (const listener of this.dataListeners) listener(bytes);
  }

  /** A request the server will not answer gets an answer from the transport, marked as local. */
  private fail(request: { id: JsonRpcId } | undefined, detail: string, failure: LocalHttpFailure): void {
    if (request === undefined) return this.report(detail);
    this.toolLists.delete(idKey(request.id));
    this.deliver({ jsonrpc: '2.0', id: request.id, error: { code: LOCAL_FAILURE_CODE, message: detail, data: localFailureData(failure) } });
  }

  private report(detail: string): void {
    this.options.onError?.(detail);
  }
}
