// 练习 3：MCP 客户端的生命周期。
//
//   new --initialize() answered--> initialized --notifyInitialized()--> ready --close()/exit--> closed
//   （initialize 失败或超时后，客户端仍处在 'new'，可以重试）
//
// 已经替你写好的：选分帧、把字节变成消息（练习 2）、发送消息、给观察者的事件。你要写的是那些 TODO：
// 待响应表、状态机和公开方法。错误类型直接从 client-errors 导入。

import { encodeError, encodeNotification, encodeRequest, encodeResult, ErrorCode, idKey, isErrorResponse, isNotification, isRequest, validateMessage } from '@protocol/jsonrpc';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '@protocol/jsonrpc';
import { FRAMING_NAMES, getFraming } from '@protocol/framing/index';
import type { FrameReader, Framing, FramingName } from '@protocol/framing/types';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@protocol/mcp';
import type { CallToolResult, Implementation, InitializeResult, ListToolsResult, ToolInfo } from '@protocol/mcp';
import { ClientClosedError, ClientStateError, McpRpcError, RequestTimeoutError, UnsupportedVersionError, type ClientState } from '@protocol/client-errors';
import { Listeners, type ClientEvent } from '@protocol/client-events';
import type { ByteTransport, Unsubscribe } from '@protocol/transport';

export * from '@protocol/client-errors';
export type { ClientEvent } from '@protocol/client-events';

export interface McpClientOptions {
  framing: FramingName;
  clientInfo?: Implementation;
  /** initialize 里报上的版本；默认是这个客户端认识的最新版。 */
  protocolVersion?: string;
  /** 服务器回答的版本中，客户端接受哪些。 */
  supportedVersions?: readonly string[];
  /** 每个请求的超时时间；官方 SDK 默认 60 秒。 */
  requestTimeoutMs?: number;
  /** 第一个请求 id；SDK 从 0 开始，0 和其他 id 一样合法。 */
  firstId?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-playground-client', version: '0.1.0' };

/** 待响应表里的一行：一个还在等响应的请求。 */
interface Waiter {
  id: JsonRpcId;
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class McpClient {
  private currentState: ClientState = 'new';
  /** 有 initialize 请求在等回答时为 true。 */
  private initializing = false;
  private nextId: number;
  /** 待响应表，以 idKey(id) 为键：1 和 "1" 不同，0 和其他 id 一样。 */
  private readonly pending = new Map<string, Waiter>();
  private readonly framing: Framing;
  private readonly reader: FrameReader;
  private readonly listeners = new Listeners<ClientEvent>();
  private readonly detach: Unsubscribe[];
  private readonly settings: Required<Omit<McpClientOptions, 'framing' | 'firstId'>>;

  constructor(
    private readonly transport: ByteTransport,
    options: McpClientOptions,
  ) {
    if (!FRAMING_NAMES.includes(options.framing)) throw new TypeError(`Unknown framing "${options.framing}"; use one of: ${FRAMING_NAMES.join(', ')}.`);
    this.framing = getFraming(options.framing);
    this.reader = this.framing.createReader();
    this.nextId = options.firstId ?? 0;
    this.settings = {
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      supportedVersions: options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
    };
    // 一开始就监听：服务器可能比我们先开口。
    this.detach = [
      transport.onData((chunk) => this.receiveBytes(chunk)),
      transport.onClose((reason) => this.shutdown(`the server closed the connection: ${reason}`, false)),
    ];
  }

  get state(): ClientState {
    return this.currentState;
  }

  on(listener: (event: ClientEvent) => void): Unsubscribe {
    return this.listeners.add(listener);
  }

  // ---- 生命周期 ----

  /** 发出 initialize 并等待回答。只能在 'new' 时调用一次（失败后可以再来）。 */
  async initialize(): Promise<InitializeResult> {
    // TODO：
    // 1. 状态不是 'new' 就拒绝（this.stateError）；已有一个 initialize 在途时，再来一个也拒绝
    //    （ClientStateError）：用 this.initializing，并在 finally 里复位。
    // 2. 通过 this.request 发出带 { protocolVersion, capabilities: {}, clientInfo } 的 initialize，
    //    超时时*不*发取消通知：规范禁止取消 initialize。
    // 3. 回答里的 protocolVersion 不在 settings.supportedVersions 中：关闭（结束 stdin），
    //    并抛出 UnsupportedVersionError。
    // 4. 否则进入 'initialized'，返回结果。
    throw new Error('TODO: initialize()');
  }

  /** 告诉服务器握手完成了。只能在 'initialized' 时调用。 */
  notifyInitialized(): void {
    // TODO：不是 'initialized' 就拒绝；发出 notifications/initialized 通知；进入 'ready'。
    throw new Error('TODO: notifyInitialized()');
  }

  /** 完整的握手：先 initialize，再 notifications/initialized。 */
  async connect(): Promise<InitializeResult> {
    throw new Error('TODO: connect()');
  }

  /** 关闭服务器的 stdin（stdio 上道别的方式），并 reject 所有在途请求。调用多次也无妨。 */
  close(): void {
    throw new Error('TODO: close() — one line, using shutdown()');
  }

  // ---- 请求（只在 'ready' 时） ----

  /** 服务器提供的全部工具（一页结果可能带 nextCursor；愿意的话就跟着翻页）。 */
  async listTools(): Promise<ToolInfo[]> {
    // TODO：要求 'ready'，发出 tools/list，返回结果里的 tools。
    throw new Error('TODO: listTools()');
  }

  /** 工具运行失败时仍然是一个结果（`isError: true`）；只有协议层面的失败才 reject。 */
  async callTool(name: string, args?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<CallToolResult> {
    // TODO：要求 'ready'，发出带 { name, arguments } 的 tools/call，返回结果。
    // options.timeoutMs 只对这一次调用覆盖 settings.requestTimeoutMs。
    throw new Error(`TODO: callTool(${JSON.stringify(name)}, ${JSON.stringify(args)}, ${JSON.stringify(options)})`);
  }

  // ---- 待响应表 ----

  /**
   * 发出一个请求，返回它结果的 promise。
   * - 取一个新 id（this.nextId++），在写出*之前*把 Waiter 登记在 idKey(id) 下：快的服务器可能在
   *   write() 返回之前就回答了。
   * - timeoutMs 是有限值时启动计时器：到点后删掉这一行，记下这个 id 已经超时，以 RequestTimeoutError
   *   reject，并且（只在 cancelOnTimeout 时）发出带 { requestId: id, reason } 的 notifications/cancelled。
   */
  private request(method: string, params: unknown, timeoutMs: number, cancelOnTimeout: boolean): Promise<unknown> {
    throw new Error(`TODO: request(${method}, ${JSON.stringify(params)}, ${timeoutMs}, ${cancelOnTimeout})`);
  }

  /**
   * 来了一个响应：*按 id* 找到它那一行，删掉，停掉计时器，然后以 `result` resolve，或者以
   * McpRpcError(method, code, message, data) reject。表里没有这个 id 时，不抛异常，也绝不交给别的
   * 等待者：如果它超时过，迟到的回答在意料之中（服务器可能还没看到取消通知），悄悄丢掉一次；
   * 否则（从没发过、已经回答过）用 reportProtocolError 报告。没有 id（MCP 的写法）或 id 为 null
   * （JSON-RPC 的写法）的错误响应，说明服务器读不懂我们的某个请求：同样报告出来。
   */
  private settle(response: JsonRpcResponse): void {
    throw new Error(`TODO: settle the response with id ${JSON.stringify(response.id)}`);
  }

  /**
   * 只进入一次 'closed'：停止监听 transport，用 ClientClosedError reject 所有在途请求，
   * endStdin 为 true 时调用 transport.end()（stdin 的 EOF）。
   */
  private shutdown(reason: string, endStdin: boolean): void {
    throw new Error(`TODO: shutdown(${JSON.stringify(reason)}, ${endStdin})`);
  }

  // ---- 现成的：发送、接收、事件 ----

  private send(message: JsonRpcMessage): void {
    const bytes = this.framing.encode(message);
    this.transport.write(bytes);
    this.listeners.emit({ type: 'sent', message, bytes });
  }

  private receiveBytes(chunk: Uint8Array): void {
    for (const item of this.reader.push(chunk)) {
      if (item.type === 'error') {
        this.reportProtocolError(`unreadable frame at byte ${item.offset} (${item.kind}): ${item.detail}`);
        continue;
      }
      const parsed = validateMessage(item.value);
      if (!parsed.ok) {
        this.reportProtocolError(`invalid JSON-RPC message at byte ${item.offset}: ${parsed.reason}`);
        continue;
      }
      const message = parsed.message;
      this.listeners.emit({ type: 'received', message, offset: item.offset, length: item.length });
      if (isRequest(message)) this.answerServerRequest(message);
      else if (isNotification(message)) this.listeners.emit({ type: 'notification', message });
      else this.settle(message);
    }
  }

  /** 服务器也可能问我们（ping）；别让它干等。 */
  private answerServerRequest(request: JsonRpcRequest): void {
    this.send(
      request.method === 'ping'
        ? encodeResult(request.id, {})
        : encodeError(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method}`),
    );
  }

  private reportProtocolError(detail: string): void {
    this.listeners.emit({ type: 'protocol-error', detail });
  }

  private requireReady(operation: string): void {
    if (this.currentState !== 'ready') throw this.stateError(operation);
  }

  /** 在当前状态下调用 `operation` 时该抛的错误。 */
  private stateError(operation: string): Error {
    if (this.currentState === 'closed') return new ClientClosedError(operation, 'the client is closed');
    return new ClientStateError(operation, this.currentState);
  }

  private setState(to: ClientState, cause: string): void {
    const from = this.currentState;
    this.currentState = to;
    this.listeners.emit({ type: 'state', from, to, cause });
  }
}

