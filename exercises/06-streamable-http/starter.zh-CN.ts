// 练习 6：Streamable HTTP。你来写 SSE 读取器和会话的客户端一侧；McpClient（练习 3）原封不动地
// 跑在你的传输之上，它写出 NDJSON 行，下面的 write() 把它们变成交给 send() 的消息。给定的有：
// 通往 McpClient 的管道（write、onData、onClose、deliver、fail、ask）、承载一个 HTTP 请求的
// exchange，以及下面导入的辅助函数。每一块在你写好之前都会抛错。

import { encodeLine, LineReader } from '@protocol/framing/ndjson';
import type { ReaderOptions } from '@protocol/framing/types';
import type { SseEvent, SseReadItem } from '@protocol/framing/sse';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '@protocol/jsonrpc';
import type { ByteTransport, Unsubscribe } from '@protocol/transport';
import { bodyText, drain, errorText } from '@protocol/http/response-body';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from '@protocol/http/types';

// SSE 的写入一侧属于服务器：给定。
export { encodeSseEvent, encodeSseText } from '@protocol/framing/sse';
export type { SseEvent, SseEventInit, SseReadItem } from '@protocol/framing/sse';

// 1. SSE 读取器

export class SseReader {
  constructor(options?: ReaderOptions) {}

  /** 到目前为止的最后事件 ID（还没有时为 ''）：客户端作为 Last-Event-ID 发送的值。 */
  get lastEventId(): string {
    throw new Error('TODO: lastEventId');
  }

  /** 最近一个有效的 `retry`（毫秒），流还没发过时为 undefined。 */
  get retry(): number | undefined {
    throw new Error('TODO: retry');
  }

  /** 在等待行尾而暂存的字节数（查看器会显示）。 */
  get bufferedBytes(): number {
    return 0;
  }

  /** 接收下一个分块（任意大小）；按顺序返回它补全的每个事件：{ type: 'event', event, offset, length }。 */
  push(chunk: Uint8Array): SseReadItem[] {
    throw new Error('TODO: SseReader.push — lines, fields, dispatch at the blank line');
  }
}

// 2. 会话的客户端一侧

/** McpClient 在这个传输上必须使用的帧格式。 */
export const HTTP_CLIENT_FRAMING = 'ndjson' as const;

export interface HttpClientTransportOptions {
  /** MCP 端点，例如 http://127.0.0.1:3000/mcp。 */
  url: string;
  exchange: HttpExchange;
  /** 握手之后打开服务器自己的流（GET）。默认 true。 */
  listen?: boolean;
  /** 服务器没发 `retry` 时，恢复流之前等待的时间。默认 1000 毫秒。 */
  defaultRetryMs?: number;
  /** 连续失败多少次恢复尝试后放弃这条流。默认 3。 */
  maxResumeAttempts?: number;
  /** 两次恢复之间的等待；测试会传入一个不真正等待的函数。 */
  sleep?: (ms: number) => Promise<void>;
  /** 出了错但没有对应请求可归咎的情况（用于日志）。 */
  onError?: (detail: string) => void;
}

export class HttpClientTransport implements ByteTransport {
  // ---- 给定：通往 McpClient 的管道 ----
  private readonly lines = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  /** 传输自己发出的请求（ask()）的回答，不交给客户端。 */
  private readonly waiting = new Map<string, (answer: JsonRpcMessage) => void>();
  /** 打开着的响应体，由 end() 取消。 */
  private readonly active = new Set<HttpClientResponse>();
  private ownIds = 0;
  private closed = false;
  private readonly retryDefault: number;
  private readonly maxResumeAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;

  // ---- 你的：会话保存的东西 ----
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;

  constructor(private readonly options: HttpClientTransportOptions) {
    this.retryDefault = options.defaultRetryMs ?? 1000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** initialize 得到回答之后，这个传输所在的会话。 */
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
      // send() 抛出的任何错误都会让那个请求失败，调用方立刻就能知道。
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

  // ---- 你的 ----

  /** `extra`，会话有了之后再加上 Mcp-Session-Id 和 MCP-Protocol-Version。 */
  private headers(extra: Record<string, string>): Record<string, string> {
    throw new Error('TODO: headers — the session headers on every request after initialize');
  }

  /** POST 一条消息：202、JSON 或 SSE 流；带会话时收到 404：重新 initialize，再发一次。 */
  private async send(message: JsonRpcMessage, retried = false): Promise<void> {
    throw new Error('TODO: send — headers, 202, JSON, SSE, session id, 404');
  }

  /** 用客户端自己的 initialize 参数重新握手（用 ask() 发），然后发 initialized；成功时返回 true。 */
  private async reinitialize(): Promise<boolean> {
    throw new Error('TODO: reinitialize — after a 404');
  }

  /** 把 SSE 响应读到结束；在 `requestId` 得到回答之前，等 `retry` 之后用 GET + Last-Event-ID 恢复。 */
  private async readStream(response: HttpClientResponse, requestId: JsonRpcId | undefined): Promise<void> {
    throw new Error('TODO: readStream — events, the cursor, retry, resume');
  }

  /** 在 notifications/initialized 之后（且 options.listen !== false）：GET 服务器自己的流；405 表示没有。 */
  private listen(): void {
    throw new Error('TODO: listen — the standalone GET stream');
  }

  /** end()：DELETE 会话（没人等回答）。 */
  private endSession(): void {
    throw new Error('TODO: endSession — DELETE');
  }

  // ---- 给定的辅助方法 ----

  /** 服务器发来的一条消息（已解析的 JSON 值）：对 ask() 的回答交给 ask()，其余交给客户端。 */
  private receive(value: unknown): JsonRpcMessage | undefined {
    const outcome = validateMessage(value);
    if (!outcome.ok) {
      this.deliver(value); // 由客户端报告它；传输不评判服务器
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

  /** 把一条消息交给 McpClient，形式是它读取的 NDJSON 行。 */
  private deliver(value: unknown): void {
    if (this.closed) return;
    const bytes = encodeLine(value);
    for (const listener of this.dataListeners) listener(bytes);
  }

  /** 经 send() 发送传输自己的请求（新的 id）；以它的回答解析，McpClient 永远看不到这个回答。 */
  private ask(request: Omit<JsonRpcRequest, 'id'>): Promise<JsonRpcMessage> {
    const id = `http-transport-${++this.ownIds}`;
    const answered = new Promise<JsonRpcMessage>((resolve) => this.waiting.set(idKey(id), resolve));
    void this.send(Object.assign({}, request, { id }) as JsonRpcRequest);
    return answered;
  }

  /** 服务器不会回答的请求，由传输给出回答（-32000），于是调用方的 promise 会拒绝。 */
  private fail(id: JsonRpcId | undefined, detail: string): void {
    if (id === undefined) return this.report(detail);
    this.receive({ jsonrpc: '2.0', id, error: { code: -32000, message: detail } });
  }

  private report(detail: string): void {
    this.options.onError?.(detail);
  }
}
