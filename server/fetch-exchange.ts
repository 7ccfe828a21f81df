// The client transport's HttpExchange over the platform's fetch (Node 18+ and browsers), so the
// project's McpClient can reach any Streamable HTTP server.

import type { HttpClientResponse, HttpExchange } from '../src/protocol/http/types.ts';

/**
 * `redirect: 'manual'` hands back a 3xx as it came, as the page's own HTTP/1.1 exchange does (the
 * browser steps of the authorization flow read each redirect); the default follows them.
 */
export function createFetchExchange(options: { redirect?: 'follow' | 'manual' } = {}): HttpExchange {
  return (request) => exchange(request, options.redirect ?? 'follow');
}

export const fetchExchange: HttpExchange = createFetchExchange();

async function exchange(request: Parameters<HttpExchange>[0], redirect: 'follow' | 'manual'): Promise<HttpClientResponse> {
  const abort = new AbortController();
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    // A copy in a plain ArrayBuffer: what fetch takes as a body.
    body: request.body === undefined ? undefined : new Uint8Array(request.body),
    signal: abort.signal,
    redirect,
  });
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    // Set-Cookie comes one entry per cookie: joined as HTTP joins repeated fields (and as the
    // page's HTTP/1.1 reader does), so none is lost.
    const key = name.toLowerCase();
    headers[key] = headers[key] === undefined ? value : `${headers[key]}, ${value}`;
  });
  const result: HttpClientResponse = {
    status: response.status,
    headers,
    body: chunksOf(response.body),
    cancel: () => abort.abort(),
  };
  return result;
}

async function* chunksOf(body: ReadableStream<Uint8Array> | null): AsyncIterable<Uint8Array> {
  if (body === null) return;
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      yield value;
    }
  } catch (error) {
    // An aborted read is how cancel() ends a stream: that is an end, not a failure.
    if ((error as Error).name === 'AbortError') return;
    throw error;
  } finally {
    reader.releaseLock();
  }
}
