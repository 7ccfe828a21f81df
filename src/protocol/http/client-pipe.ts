// What exercise 6 gives the learner around their Streamable HTTP client: the pipe to McpClient
// (exercises/06-streamable-http/starter.ts extends it). McpClient writes NDJSON lines; write()
// turns each into one message for send(), and a send() that throws answers its request with an
// error, so the caller hears of it at once instead of at its timeout. Messages for the client go
// back as NDJSON lines (deliver); answers to the transport's own requests (ask) are kept from it.
// The reference transport (client-transport.ts) does the same in its own body; this class exists
// so the learner's file, which the page inlines in its first paint, holds only what they write.

import { encodeLine, LineReader } from '../framing/ndjson.ts';
import { idKey, isRequest, validateMessage, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '../jsonrpc.ts';
import type { ByteTransport, Unsubscribe } from '../transport.ts';

/** -32000: implementation-defined, the code the SDK uses for transport failures too. */
export const TRANSPORT_ERROR = -32000;

export abstract class HttpClientPipe implements ByteTransport {
  private readonly lines = new LineReader();
  private readonly dataListeners = new Set<(chunk: Uint8Array) => void>();
  private readonly closeListeners = new Set<(reason: string) => void>();
  private readonly waiting = new Map<string, (answer: JsonRpcMessage) => void>();
  private ownIds = 0;
  /** True once end() ran: nothing more is sent, nothing more delivered. */
  protected closed = false;

  constructor(private readonly onError?: (detail: string) => void) {}

  /** Send one message from the client (or from ask()) to the server. */
  protected abstract send(message: JsonRpcMessage): Promise<void>;

  /** end() calls this once, after `closed` is set and before the close listeners. */
  protected abstract closing(): void;

  write(bytes: Uint8Array): void {
    if (this.closed) throw new Error('the HTTP transport is closed');
    for (const item of this.lines.push(bytes)) {
      if (item.type !== 'message') {
        this.report(`unreadable line from the client: ${item.detail}`);
        continue;
      }
      const outcome = validateMessage(item.value);
      if (!outcome.ok) {
        this.report(`invalid message from the client: ${outcome.reason}`);
        continue;
      }
      const message = outcome.message;
      this.send(message).catch((error: unknown) => this.fail(isRequest(message) ? message.id : undefined, String(error)));
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.closing();
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

  /** One message from the server (a parsed JSON value): an answer to ask() goes there, the rest to the client. Returns it when it is a valid message. */
  protected receive(value: unknown): JsonRpcMessage | undefined {
    const outcome = validateMessage(value);
    if (!outcome.ok) {
      this.deliver(value); // the client reports it; the transport does not judge the server
      return undefined;
    }
    const message = outcome.message;
    const id = 'method' in message ? undefined : message.id;
    const waiter = id === undefined || id === null ? undefined : this.waiting.get(idKey(id));
    if (waiter !== undefined && id !== undefined && id !== null) {
      this.waiting.delete(idKey(id));
      waiter(message);
    } else {
      this.deliver(message);
    }
    return message;
  }

  /** Hand a value to McpClient, as the NDJSON line it reads. */
  protected deliver(value: unknown): void {
    if (this.closed) return;
    const bytes = encodeLine(value);
    for (const listener of this.dataListeners) listener(bytes);
  }

  /** Send a request of the transport's own through send(), with a fresh id; resolves with its answer, which McpClient never sees. */
  protected ask(request: Omit<JsonRpcRequest, 'id'>): Promise<JsonRpcMessage> {
    const id = `http-transport-${++this.ownIds}`;
    const answered = new Promise<JsonRpcMessage>((resolve) => this.waiting.set(idKey(id), resolve));
    this.send(Object.assign({}, request, { id }) as JsonRpcRequest).catch((error: unknown) => this.fail(id, String(error)));
    return answered;
  }

  /** A request the server will not answer gets an answer from the transport (-32000), so its caller's promise rejects. Without an id: reported. */
  protected fail(id: JsonRpcId | undefined, detail: string): void {
    if (id === undefined) return this.report(detail);
    this.receive({ jsonrpc: '2.0', id, error: { code: TRANSPORT_ERROR, message: detail } });
  }

  /** Something went wrong with no request to blame: onError, for logs. */
  protected report(detail: string): void {
    this.onError?.(detail);
  }
}
