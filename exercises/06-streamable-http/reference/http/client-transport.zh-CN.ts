// Streamable HTTP 的客户端一侧，做成一个 ByteTransport，这样项目的 McpClient 不用改就能在
// HTTP 上运行：客户端写出 NDJSON 行（用 `framing: 'ndjson'` 创建它），每条消息变成一个单独的
// POST；服务器发来的每条消息——无论在 JSON 消息体里、在 POST 的 SSE 流上，还是在独立的 GET
// 流上——都作为一行 NDJSON 回到客户端。
//
// 传输自己完成的事，正是规范对客户端的要求：
//   * Accept 列出两种类型；Content-Type 是 JSON；initialize 响应中的 Mcp-Session-Id 和其结果中的
//     MCP-Protocol-Version 会带在之后的每个请求上；
//   * 一个带会话 id 的请求得到 404，意味着会话已经没了：重新 initialize
//     （用客户端自己的 initialize 参数），再把这条消息发一次；
//   * 在响应到达之前就结束的 SSE 流，用 GET + Last-Event-ID 续传，
//     续传前等待服务器给出的 `retry`（规范说客户端必须（MUST）等这么久）；
//   * 握手之后打开独立的 GET 流（405 表示服务器没有这个流）；
//   * end() 为这个会话发送 DELETE。
// 让某个请求得不到回答的失败，会作为该 id 的一个 JSON-RPC 错误到达客户端，
// 这样它的 promise 会 reject，而不是一直等到超时。

import { encodeLine, LineReader } from '../framing/ndjson.ts';
import { SseReader } from '../framing/sse.ts';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc.ts';
import type { ByteTransport, Unsubscribe } from '../transport.ts';
import { bodyText, drain, errorText } from './response-body.ts';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from './types.ts';

/** McpClient 在这个传输上必须使用的分帧方式。 */
export const HTTP_CLIENT_FRAMING = 'ndjson' as const;

export interface HttpClientTransportOptions {
  /** MCP 端点，例如 http://127.0.0.1:3000/mcp。 */
  url: string;
  exchange: HttpExchange;
  /** 握手之后打开独立的 GET 流。默认 true。 */
  listen?: boolean;
  /** 服务器没有发 `retry` 时，续传一个流之前等待的时间。默认 1000 毫秒。 */
  defaultRetryMs?: number;
  /** 连续失败多少次续传之后放弃一个流。默认 3。 */
  maxResumeAttempts?: number;
  /** 两次续传之间的等待；可以为测试注入。 */
  sleep?: (ms: number) => Promise<void>;
  /** 出了错、却没有哪个请求可以归咎的情况（用于日志）。 */
  onError?: (detail: string) => void;
}

/** -32000：由实现定义，SDK 对传输失败也用这个码。 */
const TRANSPORT_ERROR = -32000;
const ACCEPT_POST = 'application/json, text/event-stream';

export class HttpClientTransport implements ByteTransport {
  private readonly lines = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly active = new Set<HttpClientResponse>();
  /** 对传输自己发出的请求（重新 initialize）的回答，不交给客户端。 */
  private readonly internal = new Map<string, (message: JsonRpcMessage) => void>();
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private initializeRequest: JsonRpcRequest | undefined;
  private reinitializing: Promise<boolean> | undefined;
  private internalIds = 0;
  /** 通知和响应一个接一个地发送，这样 `initialized` 会在下一个请求之前到达。 */
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

  /** 这个传输所在的会话，在 initialize 得到回答之后才有。 */
  get session(): string | undefined {
    return this.sessionId;
  }

  // ---- ByteTransport 接口 ----

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
      // 告诉服务器它可以忘掉这个会话；没有人等待这个回答。
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

  // ---- 发送 ----

  private async send(message: JsonRpcMessage, retried = false): Promise<void> {
    const request = isRequest(message) ? message : undefined;
    if (request?.method === 'initialize') {
      // 新的握手开始一个新的会话；记下它，以便会话丢失时能重新建立。
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

  /** 会话建立之后每个请求都带的请求头。 */
  private headers(extra: Record<string, string>): Record<string, string> {
    const headers = { ...extra };
    if (this.sessionId !== undefined) headers[HEADER.sessionId] = this.sessionId;
    if (this.protocolVersion !== undefined) headers[HEADER.protocolVersion] = this.protocolVersion;
    return headers;
  }

  /** 服务器忘了我们的会话：用客户端自己的参数重新握手。 */
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

  // ---- 接收 ----

  /** 读一个 SSE 响应；用 Last-Event-ID 续传它，直到 `requestId` 的响应到达。 */
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
              if (item.event.data === '') continue; // 起始事件，或者一个保活
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
      await this.sleep(retryMs); // 服务器的 retry：重连之前必须（MUST）遵守
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

  /** 再次 GET 这个流：带 Last-Event-ID 是续传，不带则是全新的（还没有 id 的独立流）。 */
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

  /** 独立流：服务器自己的请求和通知。尽力而为；405 表示没有。 */
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

  /** 来自服务器的一条消息：回答传输自己的就留下，否则交给客户端。 */
  private receive(value: unknown): JsonRpcMessage | undefined {
    const outcome = validateMessage(value);
    if (!outcome.ok) {
      this.deliverValue(value); // 由客户端报告；传输不评判服务器
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

  /** 一个得不到服务器回答的请求，由传输给它一个回答。 */
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
