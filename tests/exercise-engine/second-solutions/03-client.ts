// A second correct solution to exercise 3, in another style than the reference: no pending-table
// class and no codec helpers, a table of which state allows which operation, ids counting from 1
// unless firstId says otherwise, one Map of waiters keyed by the id itself, and messages told apart
// by hand. second-solutions.test.ts requires the spec to pass on it.

import { ClientClosedError, ClientStateError, McpRpcError, ProtocolViolationError, RequestTimeoutError, UnsupportedVersionError, type ClientState } from '@protocol/client-errors';
import type { ClientEvent } from '@protocol/client-events';
import { getFraming } from '@protocol/framing/index';
import type { FramingName } from '@protocol/framing/types';
import type { JsonRpcId, JsonRpcMessage } from '@protocol/jsonrpc';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, type CallToolResult, type Implementation, type InitializeResult, type ToolInfo } from '@protocol/mcp';
import type { ByteTransport } from '@protocol/transport';

export * from '@protocol/client-errors';
export type { ClientEvent } from '@protocol/client-events';

export interface McpClientOptions {
  framing: FramingName;
  clientInfo?: Implementation;
  protocolVersion?: string;
  supportedVersions?: readonly string[];
  requestTimeoutMs?: number;
  firstId?: number;
}

type Operation = 'initialize' | 'notifyInitialized' | 'tools/list' | 'tools/call' | 'ping';
const ALLOWED: Record<Operation, ClientState> = { initialize: 'new', notifyInitialized: 'initialized', 'tools/list': 'ready', 'tools/call': 'ready', ping: 'ready' };

interface Waiter {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer?: ReturnType<typeof setTimeout>;
}

export class McpClient {
  state: ClientState = 'new';
  private busyInitializing = false;
  private why = '';
  private next: number;
  private readonly waiters = new Map<unknown, Waiter>();
  /** Ids this client gave up on (timed out), so their late answers are ignored quietly. */
  private readonly gaveUp = new Map<unknown, string>();
  private readonly listeners: Array<(event: ClientEvent) => void> = [];
  private readonly framing;
  private readonly reader;
  private readonly unsubscribe: Array<() => void>;

  constructor(
    private readonly transport: ByteTransport,
    private readonly options: McpClientOptions,
  ) {
    this.framing = getFraming(options.framing);
    this.reader = this.framing.createReader();
    this.next = options.firstId ?? 1;
    this.unsubscribe = [
      transport.onData((chunk) => {
        for (const item of this.reader.push(chunk)) {
          if (item.type === 'error') this.emit({ type: 'protocol-error', detail: `unreadable frame (${item.kind})` });
          else this.receive(item.value as Record<string, unknown>);
        }
      }),
      transport.onClose((reason) => this.finish(`the server went away: ${reason}`, false)),
    ];
  }

  on(listener: (event: ClientEvent) => void): () => void {
    this.listeners.push(listener);
    return () => void this.listeners.splice(this.listeners.indexOf(listener) >>> 0, 1);
  }

  async initialize(): Promise<InitializeResult> {
    this.check('initialize');
    if (this.busyInitializing) throw new ClientStateError('initialize', this.state, 'initialize is already in flight');
    this.busyInitializing = true;
    let answer: InitializeResult;
    try {
      answer = (await this.call('initialize', {
        protocolVersion: this.options.protocolVersion ?? LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: this.options.clientInfo ?? { name: 'second-client', version: '1.0.0' },
      })) as InitializeResult;
    } finally {
      this.busyInitializing = false;
    }
    if ((this.state as ClientState) === 'closed') throw new ClientClosedError('initialize', this.why);
    if (typeof answer?.protocolVersion !== 'string') {
      this.finish('the initialize result has no protocolVersion', true);
      throw new ProtocolViolationError('initialize', 'no protocolVersion');
    }
    const supported = this.options.supportedVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
    if (!supported.includes(answer.protocolVersion)) {
      this.finish(`unsupported version ${answer.protocolVersion}`, true);
      throw new UnsupportedVersionError(answer.protocolVersion, supported);
    }
    this.move('initialized');
    return answer;
  }

  notifyInitialized(): void {
    this.check('notifyInitialized');
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
    this.move('ready');
  }

  async connect(): Promise<InitializeResult> {
    const answer = await this.initialize();
    this.notifyInitialized();
    return answer;
  }

  close(): void {
    this.finish('closed by the client', true);
  }

  async listTools(): Promise<ToolInfo[]> {
    this.check('tools/list');
    const tools: ToolInfo[] = [];
    let cursor: string | undefined;
    do {
      const page = (await this.call('tools/list', cursor === undefined ? undefined : { cursor })) as { tools: ToolInfo[]; nextCursor?: string };
      tools.push(...page.tools);
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  async callTool(name: string, args?: Record<string, unknown>, options?: { timeoutMs?: number }): Promise<CallToolResult> {
    this.check('tools/call');
    return (await this.call('tools/call', { name, arguments: args ?? {} }, options?.timeoutMs)) as CallToolResult;
  }

  async ping(): Promise<void> {
    this.check('ping');
    await this.call('ping', undefined);
  }

  private check(operation: Operation): void {
    if (this.state === 'closed') throw new ClientClosedError(operation, this.why);
    if (this.state !== ALLOWED[operation]) throw new ClientStateError(operation, this.state);
  }

  private call(method: string, params: unknown, timeoutMs = this.options.requestTimeoutMs ?? 60_000): Promise<unknown> {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      const waiter: Waiter = { method, resolve, reject };
      if (Number.isFinite(timeoutMs)) {
        waiter.timer = setTimeout(() => {
          this.waiters.delete(id);
          this.gaveUp.set(id, method);
          reject(new RequestTimeoutError(method, id, timeoutMs));
          if (method !== 'initialize' && this.state !== 'closed') {
            try {
              this.write({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'timed out' } });
            } catch {
              // nobody waits for a cancellation
            }
          }
        }, timeoutMs);
      }
      this.waiters.set(id, waiter);
      try {
        this.write(params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params });
      } catch (error) {
        this.waiters.delete(id);
        clearTimeout(waiter.timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  }

  private receive(message: Record<string, unknown>): void {
    this.emit({ type: 'received', message: message as unknown as JsonRpcMessage, offset: 0, length: 0 });
    if (typeof message.method === 'string') {
      if (!('id' in message)) return this.emit({ type: 'notification', message: message as never });
      const answer = message.method === 'ping' ? { result: {} } : { error: { code: -32601, message: `Method not found: ${message.method}` } };
      try {
        this.write({ jsonrpc: '2.0', id: message.id, ...answer } as JsonRpcMessage);
      } catch {
        // the server is gone
      }
      return;
    }
    // A late answer to a request we gave up on is the race the spec expects: ignored quietly.
    const gaveUpOn = this.gaveUp.get(message.id);
    if (gaveUpOn !== undefined && !this.waiters.has(message.id)) {
      this.gaveUp.delete(message.id);
      return this.emit({ type: 'late-response', id: message.id as JsonRpcId, method: gaveUpOn });
    }
    const waiter = this.waiters.get(message.id);
    if (waiter === undefined || message.id === null || message.id === undefined) return this.emit({ type: 'protocol-error', detail: `no request is waiting for id ${JSON.stringify(message.id)}` });
    this.waiters.delete(message.id);
    clearTimeout(waiter.timer);
    const error = message.error as { code: number; message: string; data?: unknown } | undefined;
    if (error) waiter.reject(new McpRpcError(waiter.method, error.code, error.message, error.data));
    else waiter.resolve(message.result);
  }

  private write(message: JsonRpcMessage): void {
    const bytes = this.framing.encode(message);
    this.transport.write(bytes);
    this.emit({ type: 'sent', message, bytes });
  }

  private move(to: ClientState): void {
    const from = this.state;
    this.state = to;
    this.emit({ type: 'state', from, to, cause: `${from} -> ${to}` });
  }

  private finish(reason: string, endStdin: boolean): void {
    if (this.state === 'closed') return;
    this.why = reason;
    this.move('closed');
    this.unsubscribe.forEach((stop) => stop());
    const waiting = [...this.waiters.values()];
    this.waiters.clear();
    for (const waiter of waiting) {
      clearTimeout(waiter.timer);
      waiter.reject(new ClientClosedError(waiter.method, reason));
    }
    if (endStdin) this.transport.end();
  }

  private emit(event: ClientEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}
