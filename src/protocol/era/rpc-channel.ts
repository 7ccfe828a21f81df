// JSON-RPC requests and responses over a ByteTransport, with no lifecycle at all: the part both
// eras share. McpClient (exercise 3) has the same pieces inside it — a framing, a pending table
// keyed by id, timeouts that send notifications/cancelled, events for the UI — tied to the
// handshake's state machine. The 2026-07-28 revision has no handshake, so the dual-era client
// needs those pieces on their own: this channel carries the `server/discover` probe and every
// modern request, and hands the transport over to an McpClient when the server turns out to be
// a legacy one.

import { encodeError, encodeNotification, encodeRequest, ErrorCode, isErrorResponse, isNotification, isRequest, validateMessage } from '../jsonrpc.ts';
import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc.ts';
import type { ByteTransport, Unsubscribe } from '../transport.ts';
import type { FrameReader, Framing, FramingName, ReadItem } from '../framing/types.ts';
import { getFraming } from '../framing/index.ts';
import { PendingRequests, type PendingRequest } from '../pending-requests.ts';
import { Listeners, type ClientEvent } from '../client-events.ts';
import { ClientClosedError, McpRpcError } from '../client-errors.ts';

/** What the channel reports: the same sent/received/… events McpClient emits, minus its state changes. */
export type ChannelEvent = Exclude<ClientEvent, { type: 'state' }>;

export interface RpcChannelOptions {
  framing: FramingName;
  /** The first request id; later ones count up from it. */
  firstId?: number;
}

export class RpcChannel {
  private nextId: number;
  private closedReason: string | undefined;
  private readonly framing: Framing;
  private readonly reader: FrameReader;
  private readonly pending = new PendingRequests();
  private readonly listeners = new Listeners<ChannelEvent>();
  private readonly detachAll: Unsubscribe[];

  constructor(
    private readonly transport: ByteTransport,
    options: RpcChannelOptions,
  ) {
    this.framing = getFraming(options.framing);
    this.reader = this.framing.createReader();
    this.nextId = options.firstId ?? 0;
    this.detachAll = [
      transport.onData((chunk) => this.receiveBytes(chunk)),
      transport.onClose((reason) => this.stop(`the server closed the connection: ${reason}`)),
    ];
  }

  on(listener: (event: ChannelEvent) => void): Unsubscribe {
    return this.listeners.add(listener);
  }

  /** The id the next request will get: a client taking over the transport continues from here. */
  get peekNextId(): number {
    return this.nextId;
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /**
   * Send a request and wait for its response. An error response rejects with McpRpcError (code,
   * message and data as the server sent them); no answer within `timeoutMs` rejects with
   * RequestTimeoutError and tells the server, with notifications/cancelled, to stop.
   */
  request(method: string, params: unknown, timeoutMs: number): Promise<unknown> {
    if (this.closedReason !== undefined) return Promise.reject(new ClientClosedError(method, this.closedReason));
    const id = this.nextId++;
    const response = this.pending.add(id, method, timeoutMs, (request) => this.cancel(request, timeoutMs));
    try {
      this.send(encodeRequest(id, method, params));
    } catch (error) {
      this.pending.take(id)?.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return response;
  }

  /** Requests still waiting for a response, oldest first. */
  pendingRequests(): ReadonlyArray<PendingRequest> {
    return this.pending.snapshot();
  }

  /**
   * Stop listening to the transport without closing it: another reader (McpClient, after a probe
   * found a legacy server) takes it over. The handover happens between frames; the probe's answer
   * was the last thing the server sent, so nothing is cut in half.
   */
  detach(): void {
    this.stop('handed over to another client', false);
  }

  /** Close the transport (stdin's EOF on stdio) and reject everything still waiting. Idempotent. */
  close(): void {
    this.stop('closed by the client', true);
  }

  // ---- sending ----

  private send(message: JsonRpcMessage): void {
    const bytes = this.framing.encode(message);
    this.transport.write(bytes);
    this.listeners.emit({ type: 'sent', message, bytes });
  }

  private cancel(request: PendingRequest, timeoutMs: number): void {
    if (this.closedReason !== undefined) return;
    try {
      this.send(encodeNotification('notifications/cancelled', { requestId: request.id, reason: `No response within ${timeoutMs} ms` }));
    } catch (error) {
      this.report(`could not send notifications/cancelled: ${String(error)}`);
    }
  }

  // ---- receiving ----

  private receiveBytes(chunk: Uint8Array): void {
    for (const item of this.reader.push(chunk)) this.receiveItem(item);
  }

  private receiveItem(item: ReadItem): void {
    if (item.type === 'error') return this.report(`unreadable frame at byte ${item.offset} (${item.kind}): ${item.detail}`);
    const parsed = validateMessage(item.value);
    if (!parsed.ok) return this.report(`invalid JSON-RPC message at byte ${item.offset}: ${parsed.reason}`);
    const message = parsed.message;
    this.listeners.emit({ type: 'received', message, offset: item.offset, length: item.length });
    if (isRequest(message)) this.refuseServerRequest(message);
    else if (isNotification(message)) this.listeners.emit({ type: 'notification', message });
    else this.settle(message);
  }

  private settle(response: JsonRpcResponse): void {
    if (response.id === null || response.id === undefined) {
      const reason = isErrorResponse(response) ? response.error.message : 'no reason given';
      return this.report(`error response without a request id (the server could not read a request): ${reason}`);
    }
    const waiter = this.pending.take(response.id);
    if (waiter === undefined) {
      const late = this.pending.takeTimedOut(response.id);
      if (late !== undefined) return this.listeners.emit({ type: 'late-response', id: late.id, method: late.method });
      return this.report(`response for unknown id ${JSON.stringify(response.id)} (never sent, or already answered)`);
    }
    if (isErrorResponse(response)) {
      const { code, message, data } = response.error;
      waiter.reject(new McpRpcError(waiter.method, code, message, data));
    } else {
      waiter.resolve(response.result);
    }
  }

  /**
   * A modern server never sends requests (MRTR replaced them), and the probe window is too early
   * for a legacy server to send any: either way the answer is "not here".
   */
  private refuseServerRequest(request: JsonRpcRequest): void {
    try {
      this.send(encodeError(request.id, ErrorCode.MethodNotFound, `Method not found: ${request.method} (servers of the 2026-07-28 revision ask through InputRequiredResult instead)`));
    } catch (error) {
      this.report(`could not answer the server's ${request.method}: ${String(error)}`);
    }
  }

  private report(detail: string): void {
    this.listeners.emit({ type: 'protocol-error', detail });
  }

  private stop(reason: string, endTransport = false): void {
    if (this.closedReason !== undefined) return;
    this.closedReason = reason;
    for (const unsubscribe of this.detachAll) unsubscribe();
    this.pending.rejectAll((request) => new ClientClosedError(`${request.method} (id ${JSON.stringify(request.id)})`, reason));
    if (!endTransport) return;
    try {
      this.transport.end();
    } catch (error) {
      this.report(`could not close the transport: ${String(error)}`);
    }
  }
}
