// A second correct solution of exercise 6, in another style than the reference: the SSE reader
// decodes each chunk to text and cuts lines with a regular expression (the reference scans bytes),
// keeps its resume cursor from the reader's lastEventId (so an id-only block moves it too); the
// transport writes its pipe to McpClient inline instead of extending the starter's HttpClientPipe,
// sends its own initialize through ask(), spells header names in their usual capitals and lists
// the stream type first in Accept.

import { encodeLine, LineReader } from '@protocol/framing/ndjson';
import type { ReaderOptions } from '@protocol/framing/types';
import type { SseEvent, SseReadItem } from '@protocol/framing/sse';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '@protocol/jsonrpc';
import type { ByteTransport, Unsubscribe } from '@protocol/transport';
import { bodyText, drain, errorText } from '@protocol/http/response-body';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from '@protocol/http/types';

const utf8 = new TextEncoder();

export { encodeSseEvent, encodeSseText } from '@protocol/framing/sse';
export type { SseEvent, SseEventInit, SseReadItem } from '@protocol/framing/sse';

// 1. The SSE reader

export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  /** The text of a line whose end has not arrived. */
  private pending = '';
  /** The last chunk ended in CR: a LF at the start of the next one belongs to it. */
  private afterCr = false;
  /** Bytes before the pending line, and where the current event began (-1: nothing yet). */
  private consumed = 0;
  private eventStart = -1;
  private data: string[] | null = null;
  private type = '';
  private idBuffer = '';
  private last = '';
  private retryMs: number | undefined;

  constructor(_options?: ReaderOptions) {}

  get lastEventId(): string {
    return this.last;
  }

  get retry(): number | undefined {
    return this.retryMs;
  }

  get bufferedBytes(): number {
    return utf8.encode(this.pending).length;
  }

  push(chunk: Uint8Array): SseReadItem[] {
    const items: SseReadItem[] = [];
    let text = this.decoder.decode(chunk, { stream: true });
    if (this.afterCr && text.startsWith('\n')) {
      text = text.slice(1);
      this.consumed += 1;
    }
    if (text.length > 0) this.afterCr = false;
    text = this.pending + text;
    let at = 0;
    for (const end of text.matchAll(/\r\n|\r|\n/g)) {
      const line = text.slice(at, end.index);
      this.line(line, items);
      this.consumed += utf8.encode(line).length + end[0].length;
      at = end.index + end[0].length;
    }
    this.pending = text.slice(at);
    if (text.endsWith('\r')) this.afterCr = true;
    return items;
  }

  private line(line: string, items: SseReadItem[]): void {
    if (line === '') {
      this.last = this.idBuffer;
      if (this.data !== null) {
        const event: SseEvent = { type: this.type === '' ? 'message' : this.type, data: this.data.join('\n'), id: this.last };
        items.push({ type: 'event', event, offset: this.eventStart, length: this.consumed - this.eventStart });
      }
      this.data = null;
      this.type = '';
      this.eventStart = -1;
      return;
    }
    if (this.eventStart === -1) this.eventStart = this.consumed;
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    const raw = colon === -1 ? '' : line.slice(colon + 1);
    const value = raw.startsWith(' ') ? raw.slice(1) : raw;
    if (name === 'data') (this.data ??= []).push(value);
    else if (name === 'event') this.type = value;
    else if (name === 'id' && !value.includes('\u0000')) this.idBuffer = value;
    else if (name === 'retry' && /^[0-9]+$/.test(value)) this.retryMs = Number(value);
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

  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  /** The params of the client's initialize, to start again after a 404; the id of the latest one sent. */
  private initializeParams: JsonRpcRequest['params'];
  private initializeId: string | undefined;
  private reinitializing: Promise<boolean> | undefined;
  private listening = false;

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

  private headers(extra: Record<string, string>): Record<string, string> {
    return {
      ...extra,
      ...(this.sessionId === undefined ? {} : { 'Mcp-Session-Id': this.sessionId }),
      ...(this.protocolVersion === undefined ? {} : { 'MCP-Protocol-Version': this.protocolVersion }),
    };
  }

  private async send(message: JsonRpcMessage, retried = false): Promise<void> {
    const request = isRequest(message) ? message : undefined;
    if (request?.method === 'initialize') {
      this.initializeParams = request.params;
      this.initializeId = idKey(request.id);
      this.sessionId = undefined;
      this.protocolVersion = undefined;
    }
    const carriedSession = this.sessionId !== undefined;
    let response: HttpClientResponse;
    try {
      response = await this.options.exchange({
        method: 'POST',
        url: this.options.url,
        headers: this.headers({ Accept: 'text/event-stream, application/json', 'Content-Type': 'application/json' }),
        body: utf8.encode(JSON.stringify(message)),
      });
    } catch (error) {
      return this.fail(request?.id, `POST failed: ${String(error)}`);
    }
    if (this.closed) return response.cancel();
    if (response.status === 404 && carriedSession && !retried && request?.method !== 'initialize') {
      response.cancel();
      if (await this.reinitialize()) return this.send(message, true);
      return this.fail(request?.id, 'the session is gone (404) and a new one could not be started');
    }
    if (response.status < 200 || response.status > 299) return this.fail(request?.id, `HTTP ${response.status}: ${await errorText(response)}`);
    if (request?.method === 'initialize') this.sessionId = headerValue(response.headers, HEADER.sessionId);
    if (request === undefined || response.status === 202) {
      if ('method' in message && message.method === 'notifications/initialized' && !retried) this.listen();
      return drain(response);
    }
    const type = (headerValue(response.headers, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    if (type === 'application/json') {
      let value: unknown;
      try {
        value = JSON.parse(await bodyText(response));
      } catch (error) {
        return this.fail(request.id, `the response body is not JSON: ${String(error)}`);
      }
      this.note(this.receive(value));
      return;
    }
    if (type === 'text/event-stream') return this.readStream(response, request.id);
    return this.fail(request.id, `a request answered with ${JSON.stringify(type)}`);
  }

  /** The answer to initialize names the version of the session. */
  private note(message: JsonRpcMessage | undefined): void {
    if (message === undefined || !('result' in message) || message.id === null || idKey(message.id) !== this.initializeId) return;
    const version = (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion;
    if (typeof version === 'string') this.protocolVersion = version;
  }

  private reinitialize(): Promise<boolean> {
    this.reinitializing ??= (async () => {
      if (this.initializeParams === undefined || this.closed) return false;
      const answer = await this.ask({ jsonrpc: '2.0', method: 'initialize', params: this.initializeParams });
      if (!('result' in answer) || this.sessionId === undefined) return false;
      await this.send({ jsonrpc: '2.0', method: 'notifications/initialized' }, true);
      return true;
    })().finally(() => (this.reinitializing = undefined));
    return this.reinitializing;
  }

  private async readStream(response: HttpClientResponse, requestId: JsonRpcId | undefined): Promise<void> {
    let current: HttpClientResponse | undefined = response;
    let cursor = '';
    let wait = this.retryDefault;
    let failures = 0;
    const wanted = requestId === undefined ? undefined : idKey(requestId);
    for (;;) {
      if (this.closed) return;
      if (current !== undefined) {
        const reader = new SseReader();
        let answered = false;
        this.active.add(current);
        try {
          for await (const chunk of current.body) {
            for (const item of reader.push(chunk)) {
              if (item.type !== 'event' || item.event.data === '') continue;
              let value: unknown;
              try {
                value = JSON.parse(item.event.data);
              } catch {
                this.report('an SSE event whose data is not JSON');
                continue;
              }
              const message = this.receive(value);
              this.note(message);
              if (message !== undefined && !('method' in message) && message.id !== null && message.id !== undefined && idKey(message.id) === wanted) answered = true;
            }
            if (reader.lastEventId !== '') cursor = reader.lastEventId;
            if (answered) break;
          }
        } catch (error) {
          this.report(`the SSE connection dropped: ${String(error)}`);
        } finally {
          this.active.delete(current);
          current.cancel();
        }
        wait = reader.retry ?? wait;
        if (answered || this.closed || (requestId === undefined && !this.listening)) return;
      }
      if (cursor === '' && requestId !== undefined) return this.fail(requestId, 'the stream ended before the answer, with no event id to resume from');
      await this.sleep(wait);
      if (this.closed) return;
      current = await this.get(cursor);
      if (current !== undefined && current.status !== 405) {
        failures = 0;
        continue;
      }
      failures++;
      if (current?.status === 405 || failures >= this.maxResumeAttempts) {
        if (requestId !== undefined) this.fail(requestId, `the stream could not be resumed (${failures} attempts)`);
        return;
      }
      current = undefined;
    }
  }

  /** GET the endpoint's stream: resumed from `cursor`, or the server's own when there is none. 405 is returned as it is. */
  private async get(cursor: string): Promise<HttpClientResponse | undefined> {
    const headers = this.headers(cursor === '' ? { Accept: 'text/event-stream' } : { Accept: 'text/event-stream', 'Last-Event-ID': cursor });
    try {
      const response = await this.options.exchange({ method: 'GET', url: this.options.url, headers });
      if (response.status === 405 || (response.status >= 200 && response.status <= 299)) return response;
      this.report(`GET: HTTP ${response.status}: ${await errorText(response)}`);
    } catch (error) {
      this.report(`GET failed: ${String(error)}`);
    }
    return undefined;
  }

  private listen(): void {
    if (this.options.listen === false || this.listening || this.closed) return;
    this.listening = true;
    void this.get('').then((response) => {
      if (response === undefined || response.status === 405) {
        response?.cancel();
        this.listening = false;
        return;
      }
      return this.readStream(response, undefined);
    });
  }

  private endSession(): void {
    if (this.sessionId === undefined) return;
    this.options.exchange({ method: 'DELETE', url: this.options.url, headers: this.headers({}) }).then(
      (response) => response.cancel(),
      () => {},
    );
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
