// Exercise 6: Streamable HTTP. You write the SSE reader and the client side of a session. McpClient
// (exercise 3) runs over your transport unchanged: HttpClientPipe (given) turns each line it writes
// into a call of send(), and gives you receive(), deliver(), ask(), fail(), report() and `closed`.
// HTTP itself is options.exchange(request). Each piece throws until you write it.

import type { ReaderOptions } from '@protocol/framing/types';
import type { SseEvent, SseReadItem } from '@protocol/framing/sse';
import { idKey, isRequest, type JsonRpcId, type JsonRpcMessage, type JsonRpcRequest } from '@protocol/jsonrpc';
import { HttpClientPipe } from '@protocol/http/client-pipe';
import { bodyText, drain, errorText } from '@protocol/http/response-body';
import { HEADER, headerValue, type HttpClientResponse, type HttpExchange } from '@protocol/http/types';

// The writing side of SSE is the server's: given.
export { encodeSseEvent, encodeSseText } from '@protocol/framing/sse';
export type { SseEvent, SseEventInit, SseReadItem } from '@protocol/framing/sse';

// 1. The SSE reader

export class SseReader {
  constructor(options?: ReaderOptions) {}

  /** The last event ID so far ('' before any): what a client sends as Last-Event-ID. */
  get lastEventId(): string {
    throw new Error('TODO: lastEventId');
  }

  /** The latest valid `retry`, in ms, or undefined when the stream has sent none. */
  get retry(): number | undefined {
    throw new Error('TODO: retry');
  }

  /** Bytes held back waiting for the end of a line (the inspector shows them). */
  get bufferedBytes(): number {
    return 0;
  }

  /** Take the next chunk (any size); return every event it completed, in order: { type: 'event', event, offset, length }. */
  push(chunk: Uint8Array): SseReadItem[] {
    throw new Error('TODO: SseReader.push — lines, fields, dispatch at the blank line');
  }
}

// 2. The client side of a session

/** The framing McpClient must use over this transport. */
export const HTTP_CLIENT_FRAMING = 'ndjson' as const;

export interface HttpClientTransportOptions {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  exchange: HttpExchange;
  /** Open the server's own stream (GET) after the handshake. Default true. */
  listen?: boolean;
  /** Wait before resuming a stream when the server sent no `retry`. Default 1000 ms. */
  defaultRetryMs?: number;
  /** Failed resume attempts in a row before a stream is given up. Default 3. */
  maxResumeAttempts?: number;
  /** Waits between resumes; tests pass one that does not wait. */
  sleep?: (ms: number) => Promise<void>;
  /** Things that went wrong without a request to blame (for logs). */
  onError?: (detail: string) => void;
}

export class HttpClientTransport extends HttpClientPipe {
  private readonly retryDefault: number;
  private readonly maxResumeAttempts: number;
  private readonly sleep: (ms: number) => Promise<void>;
  /** Response bodies still being read: closing() cancels them. */
  private readonly active = new Set<HttpClientResponse>();
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;

  constructor(private readonly options: HttpClientTransportOptions) {
    super(options.onError);
    this.retryDefault = options.defaultRetryMs ?? 1000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 3;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** The session this transport is in, once initialize has been answered. */
  get session(): string | undefined {
    return this.sessionId;
  }

  /** `extra` plus Mcp-Session-Id and MCP-Protocol-Version once the session has them. */
  private headers(extra: Record<string, string>): Record<string, string> {
    throw new Error('TODO: headers — the session headers on every request after initialize');
  }

  /** POST one message (write it as an async method): 202, JSON or an SSE stream; 404 with a session: initialize again, send once more. */
  protected send(message: JsonRpcMessage, retried = false): Promise<void> {
    throw new Error('TODO: send — headers, 202, JSON, SSE, session id, 404');
  }

  /** A new handshake with the client's own initialize params (ask() it), then initialized; true when it worked. */
  private async reinitialize(): Promise<boolean> {
    throw new Error('TODO: reinitialize — after a 404');
  }

  /** Read an SSE response to its end; until `requestId` is answered, resume with GET + Last-Event-ID after `retry`. */
  private async readStream(response: HttpClientResponse, requestId: JsonRpcId | undefined): Promise<void> {
    throw new Error('TODO: readStream — events, the cursor, retry, resume');
  }

  /** After notifications/initialized (and options.listen !== false): GET the server's own stream; 405 means it has none. */
  private listen(): void {
    throw new Error('TODO: listen — the standalone GET stream');
  }

  /** end() calls this once: cancel the responses still open, DELETE the session (nobody waits for the answer). */
  protected closing(): void {
    throw new Error('TODO: closing — DELETE');
  }
}
