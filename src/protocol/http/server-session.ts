// One Streamable HTTP session: the MCP server instance behind one Mcp-Session-Id, and its SSE
// streams (one per POST that answered with a stream, plus the standalone stream a GET opens).

import type { JsonRpcMessage, JsonRpcRequest, JsonRpcResponse } from '../jsonrpc.ts';
import { EventStream, HOLD_AFTER_RESUMES_META } from './event-stream.ts';

/**
 * What a server may do while it handles one request over HTTP. `send` puts a message for the
 * client (progress, a sampling request) on that request's stream; `closeConnection` ends the
 * connection but not the stream (SSE polling: the client resumes after `retry`).
 */
export interface RequestContext {
  send(message: JsonRpcMessage): void;
  closeConnection(): void;
}

/** What the handler needs from an MCP server. The reference McpServer takes only the first argument, which is fine. */
export interface HttpMessageServer {
  handle(value: unknown, context?: RequestContext): Promise<JsonRpcResponse | null> | JsonRpcResponse | null;
}

/** Messages the server sends on its own (not tied to a request) go on the standalone stream. */
export interface ServerChannel {
  send(message: JsonRpcMessage): void;
}

export type HttpServerFactory = (channel: ServerChannel) => HttpMessageServer;

const STANDALONE_KEY = 'get';
/**
 * A finished stream is kept so a client whose connection dropped just before the response can
 * still resume it; memory stays bounded by keeping only this many streams (oldest finished go first).
 */
const MAX_STREAMS_KEPT = 64;

export class HttpSession {
  readonly server: HttpMessageServer;
  /** The version agreed in initialize; what a request without MCP-Protocol-Version is taken to speak. */
  protocolVersion: string | undefined;
  private readonly streams = new Map<string, EventStream>();
  private nextStream = 1;
  private closed = false;
  readonly standalone: EventStream;
  /** When a request last named this session (the idle-session rule and the LRU cap read it). */
  lastUsed: number;

  constructor(
    readonly id: string,
    createServer: HttpServerFactory,
    private readonly retryMs: number | undefined,
    /** The close-streams-early fault: request streams end each connection once it is written (SSE polling). */
    private readonly closeStreamsEarly = false,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.lastUsed = now();
    this.standalone = new EventStream(STANDALONE_KEY, retryMs, undefined, false, undefined, now);
    this.streams.set(STANDALONE_KEY, this.standalone);
    this.server = createServer({ send: (message) => this.sendUnrelated(message) });
  }

  get ended(): boolean {
    return this.closed;
  }

  /** A new stream for one POST's request. Only the latest finished streams stay resumable. */
  openRequestStream(request?: JsonRpcRequest): EventStream {
    const stream = new EventStream(String(this.nextStream++), this.retryMs, undefined, this.closeStreamsEarly, this.closeStreamsEarly ? holdAfterResumesOf(request) : undefined, this.now);
    this.streams.set(stream.key, stream);
    if (this.streams.size > MAX_STREAMS_KEPT) {
      for (const [key, old] of this.streams) {
        if (old.done) {
          this.streams.delete(key);
          break;
        }
      }
    }
    return stream;
  }

  /** True while any of its streams has a connection open: a client is listening. */
  get listening(): boolean {
    for (const stream of this.streams.values()) if (stream.connected) return true;
    return false;
  }

  /**
   * The idle-stream rule: end every connection that carried nothing since `before`. The stream
   * itself stays (a client may resume it with Last-Event-ID); the connection and its socket go.
   */
  closeConnectionsIdleSince(before: number): void {
    for (const stream of this.streams.values()) {
      const activeAt = stream.activeAt;
      if (activeAt !== undefined && activeAt <= before) stream.closeConnection();
    }
  }

  findStream(key: string): EventStream | undefined {
    return this.streams.get(key);
  }

  /** Server-initiated messages: on the standalone stream, held for the next GET if none is open. */
  sendUnrelated(message: JsonRpcMessage): void {
    if (!this.closed) this.standalone.send(message);
  }

  /** DELETE or shutdown: every stream ends, and the id is answered with 404 from now on. */
  end(): void {
    this.closed = true;
    for (const stream of this.streams.values()) if (!stream.done) stream.finish();
    this.streams.clear();
  }
}

/** The request's HOLD_AFTER_RESUMES_META, when it is a positive integer. */
function holdAfterResumesOf(request: JsonRpcRequest | undefined): number | undefined {
  const meta = (request?.params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const value = meta?.[HOLD_AFTER_RESUMES_META];
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined;
}

