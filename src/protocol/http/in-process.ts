// An HttpExchange that calls a handler directly: the client and the server of this layer meet
// without a socket. Tests use it, and so can a page that wants to show Streamable HTTP without a
// server process. It behaves like a real exchange where it matters: the Host header comes from
// the URL, and a cancelled stream is cancelled on the server's side too.

import type { HttpHandler } from './server-handler.ts';
import type { HttpBody, HttpClientResponse, HttpExchange } from './types.ts';

export function inProcessExchange(handler: Pick<HttpHandler, 'handle'>): HttpExchange {
  return async (request) => {
    const url = new URL(request.url);
    const headers: Record<string, string> = { host: url.host };
    for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
    const response = await handler.handle({ method: request.method, path: `${url.pathname}${url.search}`, headers, body: request.body });
    const result: HttpClientResponse = {
      status: response.status,
      headers: response.headers,
      body: bodyChunks(response.body),
      cancel: () => {
        if (response.body.type === 'stream') response.body.stream.cancel();
      },
    };
    return result;
  };
}

async function* bodyChunks(body: HttpBody): AsyncIterable<Uint8Array> {
  if (body.type === 'bytes') yield body.bytes;
  else if (body.type === 'stream') yield* body.stream;
}
