// 一个最小的 MCP 客户端：一个字节传输、一种分帧方式、一张待响应表和一个状态机。
// 生命周期（握手时代，协议版本截至 2025-11-25）：
//
//   new --initialize() answered--> initialized --notifyInitialized()--> ready --close()/exit--> closed
//   （initialize 失败或超时，客户端会留在 'new'，所以可以重试）
//
// 只有 'ready' 允许 tools/list、tools/call 和 ping。客户端发出或收到的一切也都会作为事件发出，
// 这样界面可以一帧一帧地画出整段对话。服务器也可能发来请求：ping 总是回答；其他请求
// （sampling/createMessage 等）只有在调用方声明了相应能力、并提供了处理函数时才回答。

import { encodeError, encodeNotification, encodeRequest, encodeResult, ErrorCode, isErrorResponse, isNotification, isRequest, validateMessage } from './jsonrpc.ts';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from './jsonrpc.ts';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from './mcp.ts';
import type { CallToolResult, Implementation, InitializeResult, ListToolsResult, ToolInfo } from './mcp.ts';
import type { ByteTransport, Unsubscribe } from './transport.ts';
import type { FrameReader, Framing, FramingName, ReadItem } from './framing/types.ts';
import { FRAMING_NAMES, getFraming } from './framing/index.ts';
import { PendingRequests, type PendingRequest } from './pending-requests.ts';
import { Listeners, type ClientEvent } from './client-events.ts';
import { ClientClosedError, ClientStateError, McpRpcError, ProtocolViolationError, ServerRequestRefused, UnsupportedVersionError, type ClientState } from './client-errors.ts';
import { checkCallToolResult, checkInitializeResult, checkListToolsResult, expectShape } from './client-result-checks.ts';

// 调用方从同一个地方导入客户端、它的事件和它的错误。
export * from './client-errors.ts';
export type { ClientEvent } from './client-events.ts';
export type { PendingRequest } from './pending-requests.ts';

export interface McpClientOptions {
  framing: FramingName;
  clientInfo?: Implementation;
  /** initialize 中提供的版本；默认是这个客户端所知道的最新版本。 */
  protocolVersion?: string;
  /** 客户端在服务器的回答中接受的版本。 */
  supportedVersions?: readonly string[];
  /** 每个请求的超时；官方 SDK 的默认值是 60 秒。`Infinity` 表示永远等待。 */
  requestTimeoutMs?: number;
  /** 第一个请求 id；SDK 从 0 开始，0 和其他 id 一样合法。 */
  firstId?: number;
  /** 客户端在 initialize 中声明的能力，例如 `{ sampling: {} }`。默认为空（`{}`）。 */
  capabilities?: Record<string, unknown>;
  /**
   * 如何回答服务器发来的请求，按方法区分（例如声明了 `sampling` 之后的 `sampling/createMessage`）。
   * 处理函数的返回值就是结果；它抛出的 ServerRequestRefused 会作为对应的错误发回。
   * 没有处理函数的方法得到 -32601。
   */
  serverRequests?: Readonly<Record<string, (params: unknown) => Promise<unknown>>>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-playground-client', version: '0.1.0' };
// 否则一个永远发新游标的服务器会让 listTools() 永远忙下去。
const MAX_TOOL_PAGES = 1000;

export class McpClient {
  private currentState: ClientState = 'new';
  private initializing = false;
  private closeReason = '';
  private handshake: InitializeResult | undefined;
  private nextId: number;
  private readonly framing: Framing;
  private readonly reader: FrameReader;
  private readonly pending = new PendingRequests();
  private readonly listeners = new Listeners<ClientEvent>();
  private readonly detach: Unsubscribe[];
  private readonly settings: Required<Omit<McpClientOptions, 'framing' | 'firstId'>>;

  constructor(
    private readonly transport: ByteTransport,
    options: McpClientOptions,
  ) {
    // 在这里检查，是因为学员也会在普通 JavaScript 里调用它，那里拼写错误不会是类型错误。
    if (!FRAMING_NAMES.includes(options.framing)) throw new TypeError(`Unknown framing "${options.framing}"; use one of: ${FRAMING_NAMES.join(', ')}.`);
    this.framing = getFraming(options.framing);
    this.reader = this.framing.createReader();
    this.nextId = options.firstId ?? 0;
    this.settings = {
      clientInfo: options.clientInfo ?? DEFAULT_CLIENT_INFO,
      protocolVersion: options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
      supportedVersions: options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS,
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      capabilities: options.capabilities ?? {},
      serverRequests: options.serverRequests ?? {},
    };
    // 从一开始就监听：服务器可能在我们开口之前就发消息（日志通知、ping）。
    this.detach = [
      transport.onData((chunk) => this.receiveBytes(chunk)),
      transport.onClose((reason) => this.shutdown(`the server closed the connection: ${reason}`, false)),
    ];
  }

  get state(): ClientState {
    return this.currentState;
  }
  get serverInfo(): Implementation | undefined {
    return this.handshake?.serverInfo;
  }
  get negotiatedVersion(): string | undefined {
    return this.handshake?.protocolVersion;
  }
  /** 服务器给出的关于如何使用它的自由文本；客户端可以展示它，或交给模型。 */
  get instructions(): string | undefined {
    return this.handshake?.instructions;
  }

  on(listener: (event: ClientEvent) => void): Unsubscribe {
    return this.listeners.add(listener);
  }

  // ---- 生命周期 ----

  /** 发送 initialize 并等待服务器回答。只允许在 'new' 状态下调用一次（失败后可以再次调用）。 */
  async initialize(): Promise<InitializeResult> {
    if (this.currentState !== 'new') throw this.stateError('initialize');
    if (this.initializing) throw new ClientStateError('initialize', 'new', 'an initialize request is already in flight; wait for its answer');

    this.initializing = true;
    let raw: unknown;
    try {
      const { protocolVersion, clientInfo } = this.settings;
      // 规范禁止取消 initialize，所以它超时时只 reject。
      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, false);
    } finally {
      this.initializing = false;
    }
    // 回答和连接结束可能互相赛跑；一旦关闭，就保持关闭。（通过 getter 读取：TypeScript
    // 仍相信 await 之前的检查，但状态可能已经变了。）
    if (this.state === 'closed') throw new ClientClosedError('initialize', this.closeReason);

    const result = checkInitializeResult(raw);
    if (typeof result === 'string') {
      this.shutdown(`invalid initialize result: ${result}`, true);
      throw new ProtocolViolationError('initialize', result);
    }
    if (!this.settings.supportedVersions.includes(result.protocolVersion)) {
      // 服务器没法在我们支持的版本上和我们达成一致：按规范，客户端断开连接。
      this.shutdown(`unsupported protocol version "${result.protocolVersion}"`, true);
      throw new UnsupportedVersionError(result.protocolVersion, this.settings.supportedVersions);
    }
    this.handshake = result;
    this.setState('initialized', `initialize answered by ${result.serverInfo.name} (protocol ${result.protocolVersion})`);
    return result;
  }

  /** 告诉服务器握手已完成。只允许在 'initialized' 状态下调用。 */
  notifyInitialized(): void {
    if (this.currentState !== 'initialized') throw this.stateError('notifyInitialized');
    this.send(encodeNotification('notifications/initialized'));
    this.setState('ready', 'sent notifications/initialized');
  }

  /** 整个握手：initialize，然后 notifications/initialized。 */
  async connect(): Promise<InitializeResult> {
    const result = await this.initialize();
    this.notifyInitialized();
    return result;
  }

  /** 关闭服务器的 stdin（stdio 上道别的方式），并 reject 所有待响应的请求。可重复调用。 */
  close(): void {
    this.shutdown('closed by the client', true);
  }

  // ---- 请求（只在 'ready' 状态下） ----

  async listToolsPage(cursor?: string): Promise<ListToolsResult> {
    this.requireReady('tools/list');
    const raw = await this.request('tools/list', cursor === undefined ? undefined : { cursor }, this.settings.requestTimeoutMs, true);
    return expectShape('tools/list', raw, checkListToolsResult);
  }

  /** 所有工具：顺着 `nextCursor` 一页一页取，直到服务器不再给出游标。 */
  async listTools(): Promise<ToolInfo[]> {
    const tools: ToolInfo[] = [];
    const seenCursors = new Set<string>();
    let cursor: string | undefined;
    for (let page = 0; page < MAX_TOOL_PAGES; page++) {
      const result = await this.listToolsPage(cursor);
      tools.push(...result.tools);
      if (result.nextCursor === undefined) return tools;
      if (seenCursors.has(result.nextCursor)) {
        throw new ProtocolViolationError('tools/list', `cursor ${JSON.stringify(result.nextCursor)} came back twice, so the pages loop`);
      }
      seenCursors.add(result.nextCursor);
      cursor = result.nextCursor;
    }
    throw new ProtocolViolationError('tools/list', `still paginating after ${MAX_TOOL_PAGES} pages`);
  }

  /** 运行了但失败的工具仍然是一个结果（`isError: true`）；只有协议层面的失败才会 reject。 */
  async callTool(name: string, args?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<CallToolResult> {
    this.requireReady('tools/call');
    const timeoutMs = options?.timeoutMs ?? this.settings.requestTimeoutMs;
    const raw = await this.request('tools/call', { name, arguments: args ?? {} }, timeoutMs, true);
    return expectShape('tools/call', raw, checkCallToolResult);
  }

  async ping(): Promise<void> {
    this.requireReady('ping');
    await this.request('ping', undefined, this.settings.requestTimeoutMs, true);
  }

  /**
   * 规范中的任何其他请求（resources/read、prompts/get、logging/setLevel 等）：与上面的调用相同的
   * 生命周期规则、待响应表和超时；结果按发来的样子原样返回，不做检查，由调用方自己读。
   */
  async sendRequest(method: string, params?: Record<string, unknown>): Promise<unknown> {
    this.requireReady(method);
    return this.request(method, params, this.settings.requestTimeoutMs, true);
  }

  /** 仍在等待响应的请求，最早的在前。 */
  pendingRequests(): ReadonlyArray<PendingRequest> {
    return this.pending.snapshot();
  }

  // ---- 发送 ----

  private request(method: string, params: unknown, timeoutMs: number, cancelOnTimeout: boolean): Promise<unknown> {
    const id = this.nextId++;
    const onTimeout = cancelOnTimeout ? (request: PendingRequest) => this.sendCancellation(request, timeoutMs) : undefined;
    const response = this.pending.add(id, method, timeoutMs, onTimeout);
    try {
      this.send(encodeRequest(id, method, params));
    } catch (error) {
      this.pending.take(id)?.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return response;
  }

  /** 让服务器停止处理一个我们不再等待的请求。 */
  private sendCancellation(request: PendingRequest, timeoutMs: number): void {
    if (this.currentState === 'closed') return;
    this.trySend(encodeNotification('notifications/cancelled', { requestId: request.id, reason: `No response within ${timeoutMs} ms` }));
  }

  private send(message: JsonRpcMessage): void {
    const bytes = this.framing.encode(message);
    this.transport.write(bytes);
    this.listeners.emit({ type: 'sent', message, bytes });
  }

  /** 用于没有人等待的消息（取消通知、对服务器的回答）：失败只报告，不抛出。 */
  private trySend(message: JsonRpcMessage): void {
    try {
      this.send(message);
    } catch (error) {
      const what = 'method' in message ? message.method : `the response to id ${JSON.stringify(message.id)}`;
      this.reportProtocolError(`could not send ${what}: ${String(error)}`);
    }
  }

  // ---- 接收 ----

  private receiveBytes(chunk: Uint8Array): void {
    for (const item of this.reader.push(chunk)) this.receiveItem(item);
  }

  private receiveItem(item: ReadItem): void {
    if (item.type === 'error') return this.reportProtocolError(`unreadable frame at byte ${item.offset} (${item.kind}): ${item.detail}`);
    const parsed = validateMessage(item.value);
    if (!parsed.ok) return this.reportProtocolError(`invalid JSON-RPC message at byte ${item.offset}: ${parsed.reason}`);

    const message = parsed.message;
    this.listeners.emit({ type: 'received', message, offset: item.offset, length: item.length });
    if (isRequest(message)) this.answerServerRequest(message);
    else if (isNotification(message)) this.listeners.emit({ type: 'notification', message });
    else this.settle(message);
  }

  private settle(response: JsonRpcResponse): void {
    // 没有 id（MCP 的写法）或 id 为 null（JSON-RPC 的写法）：服务器读不出我们的某个请求。
    if (response.id === null || response.id === undefined) {
      const reason = isErrorResponse(response) ? response.error.message : 'no reason given';
      return this.reportProtocolError(`error response without a request id (the server could not read a request): ${reason}`);
    }
    const waiter = this.pending.take(response.id);
    // 绝不要把一个配不上的响应交给“最近的”等待者：回答正是这样被张冠李戴的。
    if (waiter === undefined) {
      // 我们已经放弃的请求仍可能得到回答：服务器没有及时看到我们的取消通知。
      // 规范预料到了这种竞争，所以这个迟到的回答被悄悄丢弃，不算服务器的错。
      const late = this.pending.takeTimedOut(response.id);
      if (late !== undefined) return this.listeners.emit({ type: 'late-response', id: late.id, method: late.method });
      return this.reportProtocolError(`response for unknown id ${JSON.stringify(response.id)} (never sent, or already answered)`);
    }

    if (isErrorResponse(response)) {
      const { code, message, data } = response.error;
      waiter.reject(new McpRpcError(waiter.method, code, message, data));
    } else {
      waiter.resolve(response.result);
    }
  }

  /** 服务器也可能向我们提问；绝不要让它一直等着。 */
  private answerServerRequest(request: JsonRpcRequest): void {
    const handler = this.settings.serverRequests[request.method];
    if (request.method === 'ping' || handler === undefined) {
      return this.trySend(
        request.method === 'ping'
          ? encodeResult(request.id, {})
          : encodeError(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method} (this client handles only ping)`),
      );
    }
    // 处理函数可能要很久（需要人来决定）：客户端在此期间继续读取，等它有了结果再回答
    // ——除非那时连接已经关闭。
    void Promise.resolve()
      .then(() => handler(request.params))
      .then(
        (result) => encodeResult(request.id, result),
        (error: unknown) =>
          error instanceof ServerRequestRefused
            ? encodeError(request.id, error.code, error.rpcMessage)
            : encodeError(request.id, ErrorCode.InternalError, `${request.method} failed in the client: ${error instanceof Error ? error.message : String(error)}`),
      )
      .then((answer) => {
        if (this.currentState !== 'closed') this.trySend(answer);
      });
  }

  private reportProtocolError(detail: string): void {
    this.listeners.emit({ type: 'protocol-error', detail });
  }

  // ---- 状态 ----

  private requireReady(operation: string): void {
    if (this.currentState !== 'ready') throw this.stateError(operation);
  }

  private stateError(operation: string): Error {
    if (this.currentState === 'closed') return new ClientClosedError(operation, this.closeReason);
    return new ClientStateError(operation, this.currentState);
  }

  private setState(to: ClientState, cause: string): void {
    const from = this.currentState;
    this.currentState = to;
    this.listeners.emit({ type: 'state', from, to, cause });
  }

  private shutdown(reason: string, endStdin: boolean): void {
    if (this.currentState === 'closed') return;
    this.closeReason = reason;
    this.setState('closed', reason);
    for (const unsubscribe of this.detach) unsubscribe();
    this.pending.rejectAll((request) => new ClientClosedError(`${request.method} (id ${JSON.stringify(request.id)})`, reason));
    if (!endStdin) return;
    try {
      this.transport.end();
    } catch (error) {
      this.reportProtocolError(`could not close the server's stdin: ${String(error)}`);
    }
  }
}
