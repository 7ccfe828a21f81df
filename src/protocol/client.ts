// A minimal MCP client: a byte transport, a framing, a pending table and a state machine.
// Lifecycle (handshake era, up to protocol 2025-11-25):
//
//   new --initialize() answered--> initialized --notifyInitialized()--> ready --close()/exit--> closed
//   (a failed or timed-out initialize leaves the client in 'new', so it may be retried)
//
// Only 'ready' allows tools/list, tools/call and ping. Everything the client sends or receives is
// also emitted as an event, so a UI can draw the conversation frame by frame. The server may send
// requests too: ping is always answered; others (sampling/createMessage, ...) only by a handler
// the caller gave, for a capability the caller declared.

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

// Callers import the client, its events and its errors from one place.
export * from './client-errors.ts';
export type { ClientEvent } from './client-events.ts';
export type { PendingRequest } from './pending-requests.ts';

export interface McpClientOptions {
  framing: FramingName;
  clientInfo?: Implementation;
  /** The version offered in initialize; defaults to the latest this client knows. */
  protocolVersion?: string;
  /** Versions the client accepts in the server's answer. */
  supportedVersions?: readonly string[];
  /** Per-request timeout; the official SDK's default is 60 s. `Infinity` waits forever. */
  requestTimeoutMs?: number;
  /** The first request id; the SDK starts at 0, which is a valid id like any other. */
  firstId?: number;
  /** What the client declares in initialize, e.g. `{ sampling: {} }`. Default none (`{}`). */
  capabilities?: Record<string, unknown>;
  /**
   * How to answer requests the server sends, by method (say `sampling/createMessage`, after
   * declaring `sampling`). The handler's value is the result; a ServerRequestRefused it throws is
   * sent as that error. A method with no handler gets -32601.
   */
  serverRequests?: Readonly<Record<string, (params: unknown) => Promise<unknown>>>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-playground-client', version: '0.1.0' };
// A server handing out fresh cursors forever would otherwise keep listTools() busy forever.
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
    // Checked here because learners call this from plain JavaScript too, where a typo is not a type error.
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
    // Listen from the start: a server may speak (log notifications, pings) before we do.
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
  /** Free text from the server about how to use it; the client may show it or pass it to the model. */
  get instructions(): string | undefined {
    return this.handshake?.instructions;
  }

  on(listener: (event: ClientEvent) => void): Unsubscribe {
    return this.listeners.add(listener);
  }

  // ---- lifecycle ----

  /** Send initialize and wait for the server's answer. Allowed once in 'new' (again after a failure). */
  async initialize(): Promise<InitializeResult> {
    if (this.currentState !== 'new') throw this.stateError('initialize');
    if (this.initializing) throw new ClientStateError('initialize', 'new', 'an initialize request is already in flight; wait for its answer');

    this.initializing = true;
    let raw: unknown;
    try {
      const { protocolVersion, clientInfo } = this.settings;
      // The spec forbids cancelling initialize, so its timeout only rejects.
      raw = await this.request('initialize', { protocolVersion, capabilities: this.settings.capabilities, clientInfo }, this.settings.requestTimeoutMs, false);
    } finally {
      this.initializing = false;
    }
    // The answer and the end of the connection can race; once closed, stay closed. (Read through
    // the getter: TypeScript still believes the pre-await check, but the state may have moved.)
    if (this.state === 'closed') throw new ClientClosedError('initialize', this.closeReason);

    const result = checkInitializeResult(raw);
    if (typeof result === 'string') {
      this.shutdown(`invalid initialize result: ${result}`, true);
      throw new ProtocolViolationError('initialize', result);
    }
    if (!this.settings.supportedVersions.includes(result.protocolVersion)) {
      // The server could not meet us on a version we speak: per the spec, the client disconnects.
      this.shutdown(`unsupported protocol version "${result.protocolVersion}"`, true);
      throw new UnsupportedVersionError(result.protocolVersion, this.settings.supportedVersions);
    }
    this.handshake = result;
    this.setState('initialized', `initialize answered by ${result.serverInfo.name} (protocol ${result.protocolVersion})`);
    return result;
  }

  /** Tell the server the handshake is complete. Allowed only in 'initialized'. */
  notifyInitialized(): void {
    if (this.currentState !== 'initialized') throw this.stateError('notifyInitialized');
    this.send(encodeNotification('notifications/initialized'));
    this.setState('ready', 'sent notifications/initialized');
  }

  /** The whole handshake: initialize, then notifications/initialized. */
  async connect(): Promise<InitializeResult> {
    const result = await this.initialize();
    this.notifyInitialized();
    return result;
  }

  /** Close the server's stdin (the stdio way to say goodbye) and reject everything pending. Idempotent. */
  close(): void {
    this.shutdown('closed by the client', true);
  }

  // ---- requests (only in 'ready') ----

  async listToolsPage(cursor?: string): Promise<ListToolsResult> {
    this.requireReady('tools/list');
    const raw = await this.request('tools/list', cursor === undefined ? undefined : { cursor }, this.settings.requestTimeoutMs, true);
    return expectShape('tools/list', raw, checkListToolsResult);
  }

  /** Every tool, following `nextCursor` page by page until the server stops giving one. */
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

  /** A tool that runs and fails is still a result (`isError: true`); only protocol failures reject. */
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
   * Any other request of the specification (resources/read, prompts/get, logging/setLevel, ...):
   * the same lifecycle rule, pending table and timeout as the calls above; the result comes back
   * as sent, unchecked, for the caller to read.
   */
  async sendRequest(method: string, params?: Record<string, unknown>): Promise<unknown> {
    this.requireReady(method);
    return this.request(method, params, this.settings.requestTimeoutMs, true);
  }

  /** Requests still waiting for a response, oldest first. */
  pendingRequests(): ReadonlyArray<PendingRequest> {
    return this.pending.snapshot();
  }

  // ---- sending ----

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

  /** Tell the server to stop working on a request we no longer wait for. */
  private sendCancellation(request: PendingRequest, timeoutMs: number): void {
    if (this.currentState === 'closed') return;
    this.trySend(encodeNotification('notifications/cancelled', { requestId: request.id, reason: `No response within ${timeoutMs} ms` }));
  }

  private send(message: JsonRpcMessage): void {
    const bytes = this.framing.encode(message);
    this.transport.write(bytes);
    this.listeners.emit({ type: 'sent', message, bytes });
  }

  /** For messages nobody awaits (cancellations, answers to the server): a failure is reported, not thrown. */
  private trySend(message: JsonRpcMessage): void {
    try {
      this.send(message);
    } catch (error) {
      const what = 'method' in message ? message.method : `the response to id ${JSON.stringify(message.id)}`;
      this.reportProtocolError(`could not send ${what}: ${String(error)}`);
    }
  }

  // ---- receiving ----

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
    // No id (MCP's form) or a null one (JSON-RPC's): the server could not read one of our requests.
    if (response.id === null || response.id === undefined) {
      const reason = isErrorResponse(response) ? response.error.message : 'no reason given';
      return this.reportProtocolError(`error response without a request id (the server could not read a request): ${reason}`);
    }
    const waiter = this.pending.take(response.id);
    // Never hand an unmatched response to "the latest" waiter: that is exactly how answers get mixed up.
    if (waiter === undefined) {
      // A request we gave up on may still be answered: the server did not see our cancellation in
      // time. The specification expects that race, so the answer is dropped quietly, not blamed.
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

  /** The server may ask us things too; never leave it waiting. */
  private answerServerRequest(request: JsonRpcRequest): void {
    const handler = this.settings.serverRequests[request.method];
    if (request.method === 'ping' || handler === undefined) {
      return this.trySend(
        request.method === 'ping'
          ? encodeResult(request.id, {})
          : encodeError(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method} (this client handles only ping)`),
      );
    }
    // The handler may take long (a person deciding): the client keeps reading meanwhile, and
    // answers once it settles — unless the connection has closed by then.
    void Promise.resolve()
      .then(() => handler(request.params))
      .then(
      (result) => encodeResult(request.id, result),
      (error: unknown) =>
        error instanceof ServerRequestRefused
          ? encodeError(request.id, error.code, error.rpcMessage)
          : encodeError(request.id, ErrorCode.InternalError, `${request.method} failed in the client: ${error instanceof Error ? error.message : String(error)}`),
    ).then((answer) => {
      if (this.currentState !== 'closed') this.trySend(answer);
    });
  }

  private reportProtocolError(detail: string): void {
    this.listeners.emit({ type: 'protocol-error', detail });
  }

  // ---- state ----

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
