// Exercise 6: Streamable HTTP. You write the SSE reader and the client side of a session; McpClient
// (exercise 3) runs over your transport unchanged, writing NDJSON lines that write() below turns
// into messages for send(). Given: the plumbing to McpClient (write, onData, onClose, deliver,
// fail, ask), the exchange that carries one HTTP request, and the helpers imported below.
// Each piece throws until you write it.

import { encodeLine, LineReader } from '@protocol/framing/ndjson';
import type { ReaderOptions } from '@protocol/framing/types';
import type { SseEvent, SseReadItem } from '@protocol/framing/sse';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '@protocol/jsonrpc';
import type { ByteTransport, Unsubscribe } from '@protocol/transport';
import { bodyText, drain, errorText } from '@protocol/http/response-body';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from '@protocol/http/types';

// The writing side of SSE is the server's: given.
export { encodeSseEvent, encodeSseText } from '@protocol/framing/sse';
export type { SseEvent, SseEventInit, SseReadItem } from '@protocol/framing/sse';

// 1. The SSE reader

export class SseReader {
  constructor(options?: ReaderOptions) {}

  /** The last event ID so far ('' before any): what a client sends as Last-Event-ID. */
  get lastEventId(): string {
    throw new Error('TODO: lastEventId');
  }

  /** The latest valid `retry`, in ms, or undefined when the stream has sent none. */
  get retry(): number | undefined {
    throw new Error('TODO: retry');
  }

  /** Bytes held back waiting for the end of a line (the inspector shows them). */
  get bufferedBytes(): number {
    return 0;
  }

  /** Take the next chunk (any size); return every event it completed, in order: { type: 'event', event, offset, length }. */
  push(chunk: Uint8Array): SseReadItem[] {
    throw new Error('TODO: SseReader.push — lines, fields, dispatch at the blank line');
  }
}

// 2. The client side of a session

/** The framing McpClient must use over this transport. */
export const HTTP_CLIENT_FRAMING = 'ndjson' as const;

export interface HttpClientTransportOptions {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  exchange: HttpExchange;
  /** Open the server's own stream (GET) after the handshake. Default true. */
  listen?: boolean;
  /** Wait before resuming a stream when the server sent no `retry`. Default 1000 ms. */
  defaultRetryMs?: number;
  /** Failed resume attempts in a row before a stream is given up. Default 3. */
  maxResumeAttempts?: number;
  /** Waits between resumes; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Things that went wrong without a request to blame (for logs). */
  onError?: (detail: string) => void;
}

export class HttpClientTransport implements ByteTransport {
  // ---- given: the pipe to McpClient ----
  private readonly lines = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** Answers to the transport's own requests (ask()), kept from the client. */
  private readonly waiting = new Map<string, (answer: JsonRpcMessage) => void>();
  /** Open response bodies, cancelled by end(). */
  private readonly active = new Set<HttpClientResponse>();
  private ownIds = 0;
  private closed = false;
  private readonly retryDefault: number;
  private readonly maxResumeAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;

  // ---- yours: what the session holds ----
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;

  constructor(private readonly options: HttpClientTransportOptions) {
    this.retryDefault = options.defaultRetryMs ?? 1000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The session this transport is in, once initialize has been answered. */
  get session(): string | undefined {
    return this.sessionId;
  }

  write(bytes: Uint8Array): void {
    if (this.closed) throw new Error('the HTTP transport is closed');
    for (const item of this.lines.push(bytes)) {
      if (item.type !== 'message') continue;
      const outcome = validateMessage(item.value);
      if (!outcome.ok) continue;
      const message = outcome.message;
      // Whatever send() throws fails that request, so its caller hears of it at once.
      this.send(message).catch((error: unknown) => this.fail(isRequest(message) ? message.id : undefined, String(error)));
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    for (const response of this.active) response.cancel();
    this.active.clear();
    try {
      this.endSession();
    } catch (error) {
      this.report(String(error));
    }
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

  // ---- yours ----

  /** `extra` plus Mcp-Session-Id and MCP-Protocol-Version once the session has them. */
  private headers(extra: Record<string, string>): Record<string, string> {
    throw new Error('TODO: headers — the session headers on every request after initialize');
  }

  /** POST one message: 202, JSON or an SSE stream; 404 with a session: initialize again, send once more. */
  private async send(message: JsonRpcMessage, retried = false): Promise<void> {
    throw new Error('TODO: send — headers, 202, JSON, SSE, session id, 404');
  }

  /** A new handshake with the client's own initialize params (ask() it), then initialized; true when it worked. */
  private async reinitialize(): Promise<boolean> {
    throw new Error('TODO: reinitialize — after a 404');
  }

  /** Read an SSE response to its end; until `requestId` is answered, resume with GET + Last-Event-ID after `retry`. */
  private async readStream(response: HttpClientResponse, requestId: JsonRpcId | undefined): Promise<void> {
    throw new Error('TODO: readStream — events, the cursor, retry, resume');
  }

  /** After notifications/initialized (and options.listen !== false): GET the server's own stream; 405 means it has none. */
  private listen(): void {
    throw new Error('TODO: listen — the standalone GET stream');
  }

  /** end(): DELETE the session (nobody waits for the answer). */
  private endSession(): void {
    throw new Error('TODO: endSession — DELETE');
  }

  // ---- given helpers ----

  /** One message from the server (a parsed JSON value): an answer to ask() goes there, the rest to the client. */
  private receive(value: unknown): JsonRpcMessage | undefined {
    const outcome = validateMessage(value);
    if (!outcome.ok) {
      this.deliver(value); // the client reports it; the transport does not judge the server
      return undefined;
    }
    const message = outcome.message;
    const id = 'method' in message ? undefined : message.id;
    const waiter = id === undefined || id === null ? undefined : this.waiting.get(idKey(id));
    if (waiter !== undefined) {
      this.waiting.delete(idKey(id!));
      waiter(message);
    } else {
      this.deliver(message);
    }
    return message;
  }

  /** Hand a message to McpClient, as the NDJSON line it reads. */
  private deliver(value: unknown): void {
    if (this.closed) return;
    const bytes = encodeLine(value);
    for (const listener of this.dataListeners) listener(bytes);
  }

  /** Send a request of the transport's own through send() (a fresh id); resolves with its answer, which McpClient never sees. */
  private ask(request: Omit<JsonRpcRequest, 'id'>): Promise<JsonRpcMessage> {
    const id = `http-transport-${++this.ownIds}`;
    const answered = new Promise<JsonRpcMessage>((resolve) => this.waiting.set(idKey(id), resolve));
    void this.send(Object.assign({}, request, { id }) as JsonRpcRequest);
    return answered;
  }

  /** A request that will get no answer from the server gets one from the transport (-32000), so its caller's promise rejects. */
  private fail(id: JsonRpcId | undefined, detail: string): void {
    if (id === undefined) return this.report(detail);
    this.receive({ jsonrpc: '2.0', id, error: { code: -32000, message: detail } });
  }

  private report(detail: string): void {
    this.options.onError?.(detail);
  }
}
