// The client side of Streamable HTTP as a ByteTransport, so the project's McpClient runs over HTTP
// unchanged: the client writes NDJSON lines (create it with `framing: 'ndjson'`), each message
// becomes its own POST, and every message the server sends — in a JSON body, on a POST's SSE
// stream or on the standalone GET stream — comes back to the client as an NDJSON line.
//
// What the transport does on its own, as the specification asks of a client:
//   * Accept lists both types; Content-Type is JSON; Mcp-Session-Id from the initialize response
//     and MCP-Protocol-Version from its result go on every later request;
//   * a 404 for a request that carried a session id means the session is gone: initialize again
//     (with the client's own initialize parameters) and send the message once more;
//   * an SSE stream that ends before its response arrived is resumed with GET + Last-Event-ID,
//     after the server's `retry` (the spec says the client MUST wait that long);
//   * after the handshake it opens the standalone GET stream (405 means the server has none);
//   * end() sends DELETE for the session.
// Failures that leave a request without an answer reach the client as a JSON-RPC error for that
// id, so its promise rejects instead of waiting for a timeout.

import { encodeLine, LineReader } from '../framing/ndjson.ts';
import { SseReader } from '../framing/sse.ts';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc.ts';
import type { ByteTransport, Unsubscribe } from '../transport.ts';
import { bodyText, drain, errorText } from './response-body.ts';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from './types.ts';

/** The framing McpClient must use over this transport. */
export const HTTP_CLIENT_FRAMING = 'ndjson' as const;

export interface HttpClientTransportOptions {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  exchange: HttpExchange;
  /** Open the standalone GET stream after the handshake. Default true. */
  listen?: boolean;
  /** Wait before resuming a stream when the server sent no `retry`. Default 1000 ms. */
  defaultRetryMs?: number;
  /** Failed resume attempts in a row before a stream is given up. Default 3. */
  maxResumeAttempts?: number;
  /** Waits between resumes; injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  /** Things that went wrong without a request to blame (for logs). */
  onError?: (detail: string) => void;
}

/** -32000: implementation-defined, the code the SDK uses for transport failures too. */
const TRANSPORT_ERROR = -32000;
const ACCEPT_POST = 'application/json, text/event-stream';

export class HttpClientTransport implements ByteTransport {
  private readonly lines = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly active = new Set<HttpClientResponse>();
  /** Answers to the transport's own requests (a re-initialize), kept from the client. */
  private readonly internal = new Map<string, (message: JsonRpcMessage) => void>();
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private initializeRequest: JsonRpcRequest | undefined;
  private reinitializing: Promise<boolean> | undefined;
  private internalIds = 0;
  /** Notifications and responses are sent one after another, so `initialized` lands before the next request. */
  private barrier: Promise<void> = Promise.resolve();
  private listening = false;
  private closed = false;
  private readonly retryDefault: number;
  private readonly maxResumeAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: HttpClientTransportOptions) {
    this.retryDefault = options.defaultRetryMs ?? 1000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The session this transport is in, once initialize has been answered. */
  get session(): string | undefined {
    return this.sessionId;
  }

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
      else void this.send(outcome.message);
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    for (const response of this.active) response.cancel();
    this.active.clear();
    if (this.sessionId !== undefined) {
      // Tell the server it may forget the session; nobody waits for the answer.
      this.options.exchange({ method: 'DELETE', url: this.options.url, headers: this.headers({}) }).then(
        (response) => response.cancel(),
        () => {},
      );
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

  // ---- sending ----

  private async send(message: JsonRpcMessage, retried = false): Promise<void> {
    const request = isRequest(message) ? message : undefined;
    if (request?.method === 'initialize') {
      // A new handshake starts a new session; remembered so a lost session can be re-established.
      this.initializeRequest = request;
      this.sessionId = undefined;
      this.protocolVersion = undefined;
    }
    const before = this.barrier;
    let release = () => {};
    if (request === undefined) this.barrier = new Promise((resolve) => (release = resolve));
    await before;

    let response: HttpClientResponse;
    const hadSession = this.sessionId !== undefined;
    try {
      response = await this.options.exchange({
        method: 'POST',
        url: this.options.url,
        headers: this.headers({ accept: ACCEPT_POST, 'content-type': 'application/json' }),
        body: new TextEncoder().encode(JSON.stringify(message)),
      });
    } catch (error) {
      release();
      return this.fail(request, `POST failed: ${String(error)}`);
    }
    release();
    if (this.closed) return response.cancel();

    if (response.status === 404 && hadSession && request?.method !== 'initialize' && !retried) {
      response.cancel();
      if (await this.reinitialize()) return this.send(message, true);
      return this.fail(request, 'the session ended (HTTP 404) and initializing again failed');
    }
    if (response.status < 200 || response.status >= 300) {
      return this.fail(request, `HTTP ${response.status}: ${await errorText(response)}`);
    }
    if (request?.method === 'initialize') this.sessionId = headerValue(response.headers, HEADER.sessionId) ?? undefined;
    if (message.jsonrpc === '2.0' && 'method' in message && message.method === 'notifications/initialized' && !retried) this.startListening();

    const type = (headerValue(response.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (response.status === 202 || request === undefined) return drain(response);
    if (type === 'text/event-stream') return this.readStream(response, request.id);
    if (type === 'application/json') {
      const text = await bodyText(response);
      try {
        this.receive(JSON.parse(text));
      } catch (error) {
        this.fail(request, `the JSON response body is not JSON: ${String(error)}`);
      }
      return;
    }
    return this.fail(request, `unexpected response type ${JSON.stringify(type)} for a request`);
  }

  /** The headers every request carries once the session exists. */
  private headers(extra: Record<string, string>): Record<string, string> {
    const headers = { ...extra };
    if (this.sessionId !== undefined) headers[HEADER.sessionId] = this.sessionId;
    if (this.protocolVersion !== undefined) headers[HEADER.protocolVersion] = this.protocolVersion;
    return headers;
  }

  /** The server forgot our session: run the handshake again with the client's own parameters. */
  private reinitialize(): Promise<boolean> {
    this.reinitializing ??= (async () => {
      const original = this.initializeRequest;
      if (original === undefined || this.closed) return false;
      const id = `http-transport-reinitialize-${++this.internalIds}`;
      const answered = new Promise<JsonRpcMessage>((resolve) => this.internal.set(idKey(id), resolve));
      await this.send({ ...original, id });
      this.initializeRequest = original;
      const answer = await answered;
      if (!('result' in answer) || this.sessionId === undefined) return false;
      await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);
      if (this.listening) {
        this.listening = false;
        this.startListening();
      }
      return true;
    })().finally(() => (this.reinitializing = undefined));
    return this.reinitializing;
  }

  // ---- receiving ----

  /** Read one SSE response; resume it with Last-Event-ID until the response to `requestId` arrived. */
  private async readStream(first: HttpClientResponse, requestId: JsonRpcId | undefined): Promise<void> {
    let response: HttpClientResponse | undefined = first;
    let cursor = '';
    let retryMs = this.retryDefault;
    let failures = 0;
    const wanted = requestId === undefined ? undefined : idKey(requestId);
    while (!this.closed) {
      if (response !== undefined) {
        const reader = new SseReader();
        let answered = false;
        this.active.add(response);
        try {
          for await (const chunk of response.body) {
            for (const item of reader.push(chunk)) {
              if (item.type !== 'event') {
                this.report(`SSE: ${item.detail}`);
                continue;
              }
              if (item.event.id !== '') cursor = item.event.id;
              if (item.event.data === '') continue; // the priming event, or a keep-alive
              const message = this.receiveText(item.event.data);
              if (wanted !== undefined && message !== undefined && !('method' in message) && message.id !== null && message.id !== undefined && idKey(message.id) === wanted) answered = true;
            }
            if (answered) break;
          }
        } catch (error) {
          this.report(`SSE connection dropped: ${String(error)}`);
        } finally {
          this.active.delete(response);
          response.cancel();
        }
        retryMs = reader.retry ?? retryMs;
        if (answered || this.closed) return;
        if (requestId === undefined && !this.listening) return;
      }
      if (cursor === '' && requestId !== undefined) return this.fail({ id: requestId }, 'the SSE stream ended before the response, with no event id to resume from');
      await this.sleep(retryMs); // the server's retry: a MUST before reconnecting
      if (this.closed) return;
      response = await this.reconnect(cursor);
      if (response === undefined || response.status === 405) {
        failures++;
        if (response?.status === 405 || failures >= this.maxResumeAttempts) {
          if (requestId !== undefined) this.fail({ id: requestId }, `could not resume the SSE stream after ${failures} attempts`);
          return;
        }
      } else {
        failures = 0;
      }
    }
  }

  /** GET the stream again: with Last-Event-ID to resume, or fresh (the standalone stream with no id yet). */
  private async reconnect(cursor: string): Promise<HttpClientResponse | undefined> {
    const headers = this.headers({ accept: 'text/event-stream' });
    if (cursor !== '') headers[HEADER.lastEventId] = cursor;
    try {
      const response = await this.options.exchange({ method: 'GET', url: this.options.url, headers });
      if (response.status === 405) return response;
      if (response.status < 200 || response.status >= 300) {
        this.report(`resuming the SSE stream: HTTP ${response.status}: ${await errorText(response)}`);
        return undefined;
      }
      return response;
    } catch (error) {
      this.report(`resuming the SSE stream failed: ${String(error)}`);
      return undefined;
    }
  }

  /** The standalone stream: the server's own requests and notifications. Best effort; 405 means none. */
  private startListening(): void {
    if (this.options.listen === false || this.listening || this.closed) return;
    this.listening = true;
    void (async () => {
      const response = await this.reconnect('');
      if (response === undefined || response.status === 405) {
        response?.cancel();
        this.listening = false;
        return;
      }
      await this.readStream(response, undefined);
    })();
  }

  private receiveText(text: string): JsonRpcMessage | undefined {
    try {
      return this.receive(JSON.parse(text));
    } catch (error) {
      this.report(`SSE event data is not JSON: ${String(error)}`);
      return undefined;
    }
  }

  /** One message from the server: kept when it answers the transport itself, else handed to the client. */
  private receive(value: unknown): JsonRpcMessage | undefined {
    const outcome = validateMessage(value);
    if (!outcome.ok) {
      this.deliverValue(value); // the client reports it; the transport does not judge the server
      return undefined;
    }
    const message = outcome.message;
    if (!('method' in message) && message.id !== null && message.id !== undefined) {
      const key = idKey(message.id);
      const own = this.internal.get(key);
      if (own !== undefined) {
        this.internal.delete(key);
        this.noteVersion(message);
        own(message);
        return message;
      }
      if (this.initializeRequest !== undefined && key === idKey(this.initializeRequest.id)) this.noteVersion(message);
    }
    this.deliverValue(message);
    return message;
  }

  private noteVersion(message: JsonRpcMessage): void {
    const version = 'result' in message ? (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion : undefined;
    if (typeof version === 'string') this.protocolVersion = version;
  }

  private deliverValue(value: unknown): void {
    if (this.closed) return;
    const bytes = encodeLine(value);
    for (const listener of this.dataListeners) listener(bytes);
  }

  /** A request that will get no answer from the server gets one from the transport. */
  private fail(request: { id: JsonRpcId } | undefined, detail: string): void {
    if (request === undefined) return this.report(detail);
    const own = this.internal.get(idKey(request.id));
    const answer: JsonRpcMessage = { jsonrpc: '2.0', id: request.id, error: { code: TRANSPORT_ERROR, message: detail } };
    if (own !== undefined) {
      this.internal.delete(idKey(request.id));
      own(answer);
      return;
    }
    this.deliverValue(answer);
  }

  private report(detail: string): void {
    this.options.onError?.(detail);
  }
}
