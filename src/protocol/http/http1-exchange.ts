// The page's own HTTP/1.1 client: an HttpExchange (what HttpClientTransport needs) that writes a
// request's exact bytes on a fresh connection and reads the response with Http1Reader. The page
// uses it instead of `fetch` because fetch normalises headers and hides chunk boundaries: here
// every byte the inspector shows is a byte this code wrote or read.
//
// One connection per request, `Connection: close`: a Streamable HTTP client holds a POST's SSE
// stream and the GET stream open at the same time anyway, and a connection that carries exactly
// one exchange is the easiest to read in the inspector.

import type { ByteConnection, ConnectionOpener } from './byte-connection.ts';
import { Http1Reader } from './http1-reader.ts';
import { canonicalHeaderName, serializeRequest, type HeaderLine } from './http1-writer.ts';
import type { HttpClientResponse, HttpExchange, HttpHeaders } from './types.ts';

export interface Http1ExchangeOptions {
  /** The page's origin, sent as `Origin` as a browser would (the server checks it: DNS rebinding). */
  origin?: string;
}

export function http1Exchange(open: ConnectionOpener, options: Http1ExchangeOptions = {}): HttpExchange {
  return async (request) => {
    const url = new URL(request.url);
    const headers: HeaderLine[] = [['Host', url.host]];
    if (options.origin !== undefined) headers.push(['Origin', options.origin]);
    for (const [name, value] of Object.entries(request.headers)) headers.push([canonicalHeaderName(name), value]);
    headers.push(['Connection', 'close']);
    const bytes = serializeRequest({ method: request.method, target: `${url.pathname}${url.search}`, headers, body: request.body });
    const connection = await open();
    return readResponse(connection, bytes);
  };
}

/** Write the request, then resolve with the response once its head has arrived. */
function readResponse(connection: ByteConnection, requestBytes: Uint8Array): Promise<HttpClientResponse> {
  return new Promise((resolve, reject) => {
    const reader = new Http1Reader('response');
    const body = new ChunkQueue();
    let head: { status: number; headers: HttpHeaders } | null = null;
    let done = false;
    const finish = (error?: string): void => {
      if (done) return;
      done = true;
      stopData();
      stopEnd();
      connection.close();
      if (head === null) reject(new Error(error ?? 'the connection closed before a response arrived'));
      else if (error !== undefined) body.fail(new Error(error));
      else body.end();
    };
    const take = (items: ReturnType<Http1Reader['push']>): void => {
      for (const item of items) {
        if (done) return;
        switch (item.type) {
          case 'head-end':
            // An interim 1xx response is not the answer: wait for the final one.
            if (item.head.kind === 'response' && item.head.status >= 200) {
              head = { status: item.head.status, headers: item.head.headers };
              resolve({ status: head.status, headers: head.headers, body, cancel: () => finish() });
            }
            break;
          case 'data':
            body.push(item.bytes);
            break;
          case 'end':
            if (head !== null) finish();
            break;
          case 'error':
            finish(`unreadable HTTP response: ${item.detail}`);
            break;
        }
      }
    };
    const stopData = connection.onData((chunk) => take(reader.push(chunk)));
    const stopEnd = connection.onEnd((error) => {
      take(reader.finish());
      finish(error ?? (head === null ? undefined : 'the connection closed before the response body ended'));
    });
    connection.write(requestBytes);
  });
}

/** The response body as an async iterable: chunks queue until read; an error ends the reading with a throw. */
class ChunkQueue implements AsyncIterable<Uint8Array> {
  private readonly queue: Uint8Array[] = [];
  private waiting: { resolve(result: IteratorResult<Uint8Array>): void; reject(error: Error): void } | null = null;
  private ended = false;
  private error: Error | null = null;

  push(chunk: Uint8Array): void {
    if (this.ended) return;
    if (this.waiting) {
      const { resolve } = this.waiting;
      this.waiting = null;
      resolve({ value: chunk, done: false });
    } else this.queue.push(chunk);
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.waiting?.resolve({ value: undefined, done: true });
    this.waiting = null;
  }

  fail(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    this.error = error;
    this.waiting?.reject(error);
    this.waiting = null;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    return {
      next: () => {
        const chunk = this.queue.shift();
        if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false });
        if (this.error) return Promise.reject(this.error);
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve, reject) => (this.waiting = { resolve, reject }));
      },
    };
  }
}
