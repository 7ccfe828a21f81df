// Exercise 3: the MCP client's lifecycle.
//
//   new --initialize() answered--> initialized --notifyInitialized()--> ready --close()/exit--> closed
//   (a failed or timed-out initialize leaves the client in 'new', so it may be retried)
//
// Already done for you: picking the framing, turning bytes into messages (exercise 2), sending a
// message, events for observers. Your part is the TODOs: the pending table, the state machine and
// the public methods. The error classes come ready-made from client-errors.

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
  /** The version offered in initialize; defaults to the latest this client knows. */
  protocolVersion?: string;
  /** Versions the client accepts in the server's answer. */
  supportedVersions?: readonly string[];
  /** Per-request timeout; the official SDK's default is 60 s. */
  requestTimeoutMs?: number;
  /** The first request id; the SDK starts at 0, which is a valid id like any other. */
  firstId?: number;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
export const DEFAULT_CLIENT_INFO: Implementation = { name: 'mcp-playground-client', version: '0.1.0' };

/** One row of the pending table: a request still waiting for its response. */
interface Waiter {
  id: JsonRpcId;
  method: string;
  resolve(result: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class McpClient {
  private currentState: ClientState = 'new';
  /** True while an initialize request waits for its answer. */
  private initializing = false;
  private nextId: number;
  /** The pending table, keyed by idKey(id): 1 and "1" differ, and 0 is an id like any other. */
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
    // Listen from the start: a server may speak before we do.
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

  // ---- lifecycle ----

  /** Send initialize and wait for the answer. Allowed once in 'new' (again after a failure). */
  async initialize(): Promise<InitializeResult> {
    // TODO:
    // 1. Refuse unless the state is 'new' (this.stateError), and refuse a second initialize while
    //    one is in flight (ClientStateError) — use this.initializing, and reset it in a finally.
    // 2. Send initialize with { protocolVersion, capabilities: {}, clientInfo } through this.request,
    //    WITHOUT cancel-on-timeout: the spec forbids cancelling initialize.
    // 3. If the answered protocolVersion is not in settings.supportedVersions: shut down (ending
    //    stdin) and throw UnsupportedVersionError.
    // 4. Otherwise move to 'initialized' and return the result.
    throw new Error('TODO: initialize()');
  }

  /** Tell the server the handshake is complete. Allowed only in 'initialized'. */
  notifyInitialized(): void {
    // TODO: refuse unless 'initialized'; send the notifications/initialized notification; move to 'ready'.
    throw new Error('TODO: notifyInitialized()');
  }

  /** The whole handshake: initialize, then notifications/initialized. */
  async connect(): Promise<InitializeResult> {
    throw new Error('TODO: connect()');
  }

  /** Close the server's stdin (the stdio way to say goodbye) and reject everything pending. Idempotent. */
  close(): void {
    throw new Error('TODO: close() — one line, using shutdown()');
  }

  // ---- requests (only in 'ready') ----

  /** Every tool the server offers (a page may carry nextCursor; follow it if you like). */
  async listTools(): Promise<ToolInfo[]> {
    // TODO: require 'ready', send tools/list, return the result's tools.
    throw new Error('TODO: listTools()');
  }

  /** A tool that runs and fails is still a result (`isError: true`); only protocol failures reject. */
  async callTool(name: string, args?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<CallToolResult> {
    // TODO: require 'ready', send tools/call with { name, arguments }, return the result.
    // options.timeoutMs overrides settings.requestTimeoutMs for this one call.
    throw new Error(`TODO: callTool(${JSON.stringify(name)}, ${JSON.stringify(args)}, ${JSON.stringify(options)})`);
  }

  // ---- the pending table ----

  /**
   * Send a request and return a promise for its result.
   * - Take a fresh id (this.nextId++), file a Waiter under idKey(id) BEFORE writing: a fast server
   *   can answer before write() even returns.
   * - Start a timer when timeoutMs is finite: on expiry remove the row, remember that this id timed
   *   out, reject with RequestTimeoutError, and — only when cancelOnTimeout — send
   *   notifications/cancelled with { requestId: id, reason }.
   */
  private request(method: string, params: unknown, timeoutMs: number, cancelOnTimeout: boolean): Promise<unknown> {
    throw new Error(`TODO: request(${method}, ${JSON.stringify(params)}, ${timeoutMs}, ${cancelOnTimeout})`);
  }

  /**
   * A response arrived: find its row BY ID, remove it, stop its timer, then resolve with `result`
   * or reject with McpRpcError(method, code, message, data). An id with no row is never thrown and
   * never handed to some other waiter: if it timed out, its late answer is expected (the server may
   * not have seen the cancellation yet) and is dropped quietly, once; otherwise (never sent, already
   * answered) report it with reportProtocolError. An error response with no id (MCP's form) or a
   * null one (JSON-RPC's) says the server could not read one of our requests: report it too.
   */
  private settle(response: JsonRpcResponse): void {
    throw new Error(`TODO: settle the response with id ${JSON.stringify(response.id)}`);
  }

  /**
   * Move to 'closed' once: stop listening to the transport, reject every pending request with
   * ClientClosedError, and when endStdin is true call transport.end() (stdin EOF).
   */
  private shutdown(reason: string, endStdin: boolean): void {
    throw new Error(`TODO: shutdown(${JSON.stringify(reason)}, ${endStdin})`);
  }

  // ---- given: sending, receiving, events ----

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

  /** The server may ask us things too (ping); never leave it waiting. */
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

  /** The error for calling `operation` in the current state. */
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

