// 练习 6：Streamable HTTP。你来写 SSE 读取器和会话的客户端一侧。McpClient（练习 3）原封不动地跑在
// 你的传输之上：HttpClientPipe（给定）把它写的每一行变成一次对 send() 的调用，并提供 receive()、
// deliver()、ask()、fail()、report() 和 `closed`。HTTP 本身就是 options.exchange(request)。
// 每一块在你写好之前都会抛错。

import type { ReaderOptions } from '@protocol/framing/types';
import type { SseEvent, SseReadItem } from '@protocol/framing/sse';
import { idKey, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '@protocol/jsonrpc';
import { HttpClientPipe } from '@protocol/http/client-pipe';
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

export class HttpClientTransport extends HttpClientPipe {
  private readonly retryDefault: number;
  private readonly maxResumeAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** 仍在读取的响应体：closing() 会取消它们。 */
  private readonly active = new Set<HttpClientResponse>();
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;

  constructor(private readonly options: HttpClientTransportOptions) {
    super(options.onError);
    this.retryDefault = options.defaultRetryMs ?? 1000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** initialize 得到回答之后，这个传输所在的会话。 */
  get session(): string | undefined {
    return this.sessionId;
  }

  /** `extra`，会话有了之后再加上 Mcp-Session-Id 和 MCP-Protocol-Version。 */
  private headers(extra: Record<string, string>): Record<string, string> {
    throw new Error('TODO: headers — the session headers on every request after initialize');
  }

  /** POST 一条消息（写成 async 方法）：202、JSON 或 SSE 流；带会话时收到 404：重新 initialize，再发一次。 */
  protected send(message: JsonRpcMessage, retried = false): Promise<void> {
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

  /** end() 会调用它一次：取消仍打开的响应，DELETE 会话（没人等回答）。 */
  protected closing(): void {
    throw new Error('TODO: closing — DELETE');
  }
}
