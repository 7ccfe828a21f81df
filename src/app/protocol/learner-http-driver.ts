// "Drive with your code" over Streamable HTTP: the learner's exercise-6 module (HttpClientTransport
// with their SseReader) runs in the learner worker under the project's McpClient, never on the
// page's thread, with the same 2 s heartbeat limit as the other learner code. Its HTTP exchanges
// come here as messages and go out through `exchange` — the page's own HTTP/1.1 client over the
// live wire's relayed connection — so the bytes still cross the real TCP connection and the
// inspector shows them exactly. The worker gets the response back as data: head, chunks, end.

import type { HttpClientRequest, HttpClientResponse, HttpExchange } from '../../protocol/http/types.ts';
import type { Unsubscribe } from '../../protocol/transport.ts';
import type { CallOutcome, DriverEvent, DriverOp, ErrorInfo } from '../../sandbox/client-driver.ts';
import { LearnerWorkerHandle, type LearnerWorkerLike, type LearnerWorkerOptions } from '../../sandbox/learner-worker-client.ts';
import type { LearnerSource, LearnerToPage } from '../../sandbox/learner-worker-messages.ts';

const crashed = (reason: string): ErrorInfo => ({ name: 'Stopped', message: reason, line: null, code: null });

/** Headers the page's HTTP/1.1 client writes itself: a learner's copy would be a second, conflicting line. */
const PAGE_OWNED_HEADERS = new Set(['host', 'origin', 'connection', 'content-length', 'transfer-encoding']);
const METHODS = new Set(['GET', 'POST', 'DELETE']);
/** A request body the learner's code may hand the page: far above any MCP message the stepper sends. */
export const MAX_LEARNER_REQUEST_BYTES = 1024 * 1024;
/**
 * McpClient's request timeout in the worker. Over HTTP nothing holds an answer back (the stdio
 * stepper does, one arrow at a time), so a transport that never delivers one fails within this.
 */
export const LEARNER_HTTP_REQUEST_TIMEOUT_MS = 15_000;

export class LearnerHttpDriver {
  readonly kind = 'learner' as const;
  private handle: LearnerWorkerHandle | null = null;
  private readonly listeners = new Set<(event: DriverEvent) => void>();
  private readonly calls = new Map<number, (outcome: CallOutcome) => void>();
  private readonly responses = new Map<number, HttpClientResponse>();
  private nextId = 1;
  private crashReason: string | null = null;

  constructor(
    private readonly source: LearnerSource,
    private readonly createWorker: () => LearnerWorkerLike,
    private readonly options: LearnerWorkerOptions = {},
  ) {}

  /** Load the learner's module in a fresh worker and build McpClient over their transport; `ok: false` when it could not. */
  start(exchange: HttpExchange, url: string): Promise<CallOutcome> {
    const handle = new LearnerWorkerHandle(this.createWorker, this.options);
    this.handle = handle;
    return new Promise((resolve) => {
      let started: ((outcome: CallOutcome) => void) | null = resolve;
      handle.onCrash((reason) => {
        this.crashReason = reason;
        started?.({ ok: false, error: crashed(reason) });
        started = null;
        for (const settle of this.calls.values()) settle({ ok: false, error: crashed(reason) });
        this.calls.clear();
        this.cancelAll();
        this.emit({ type: 'crashed', reason });
      });
      handle.onMessage((message: LearnerToPage) => {
        switch (message.type) {
          case 'client-started':
            started?.(message.outcome);
            started = null;
            return;
          case 'client-settled':
            this.calls.get(message.callId)?.(message.outcome);
            this.calls.delete(message.callId);
            return;
          case 'client-event':
            this.emit(message.event);
            return;
          case 'http-request':
            void this.serve(exchange, message.reqId, message.request);
            return;
          case 'http-cancel':
            this.responses.get(message.reqId)?.cancel();
            this.responses.delete(message.reqId);
            return;
          default:
            return;
        }
      });
      handle.post({ type: 'http-client-start', source: this.source, url, requestTimeoutMs: LEARNER_HTTP_REQUEST_TIMEOUT_MS });
    });
  }

  perform(op: DriverOp): Promise<CallOutcome> {
    const handle = this.handle;
    if (handle === null || this.crashReason !== null) return Promise.resolve({ ok: false, error: crashed(this.crashReason ?? 'the client was not started') });
    const callId = this.nextId++;
    return new Promise((resolve) => {
      this.calls.set(callId, resolve);
      handle.post({ type: 'client-call', callId, op });
    });
  }

  onEvent(listener: (event: DriverEvent) => void): Unsubscribe {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  dispose(): void {
    this.handle?.dispose();
    this.handle = null;
    this.cancelAll();
    for (const settle of this.calls.values()) settle({ ok: false, error: crashed('the session was stopped') });
    this.calls.clear();
    this.listeners.clear();
  }

  /** One exchange for the worker: checked, sent over the wire, answered as head, chunks and end. */
  private async serve(exchange: HttpExchange, reqId: number, request: HttpClientRequest): Promise<void> {
    const post = (message: Parameters<LearnerWorkerHandle['post']>[0]) => this.handle?.post(message);
    const problem = requestProblem(request);
    if (problem !== null) return post({ type: 'http-failed', reqId, error: problem });
    let response: HttpClientResponse;
    try {
      response = await exchange(pageRequest(request));
    } catch (error) {
      return post({ type: 'http-failed', reqId, error: error instanceof Error ? error.message : String(error) });
    }
    if (this.handle === null) return response.cancel();
    this.responses.set(reqId, response);
    post({ type: 'http-head', reqId, status: response.status, headers: definedHeaders(response.headers) });
    try {
      for await (const chunk of response.body) post({ type: 'http-body', reqId, bytes: chunk.slice() });
      post({ type: 'http-end', reqId });
    } catch (error) {
      post({ type: 'http-end', reqId, error: error instanceof Error ? error.message : String(error) });
    } finally {
      this.responses.delete(reqId);
    }
  }

  private cancelAll(): void {
    for (const response of this.responses.values()) response.cancel();
    this.responses.clear();
  }

  private emit(event: DriverEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }
}

/** Why the page will not send this request for the learner's code (null: it will). */
function requestProblem(request: HttpClientRequest): string | null {
  if (!METHODS.has(request.method)) return `the page sends only GET, POST and DELETE, not ${JSON.stringify(request.method)}`;
  if (request.body !== undefined && request.body.length > MAX_LEARNER_REQUEST_BYTES) return `a request body of ${request.body.length} bytes is over the page's limit of ${MAX_LEARNER_REQUEST_BYTES}`;
  try {
    const url = new URL(request.url);
    if (url.protocol !== 'http:') return `the stepper's server speaks http:, not ${url.protocol}`;
  } catch {
    return `not a URL: ${JSON.stringify(request.url)}`;
  }
  return null;
}

/** The learner's request without the headers the page's HTTP/1.1 client writes itself. */
function pageRequest(request: HttpClientRequest): HttpClientRequest {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) if (!PAGE_OWNED_HEADERS.has(name.toLowerCase())) headers[name] = value;
  return { ...request, headers };
}

function definedHeaders(headers: HttpClientResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) out[name] = value;
  return out;
}
