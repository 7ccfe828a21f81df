// The pure handler behind one HTTP/1.1 connection, without node:http: read each request with
// Http1Reader, hand it to the handler, write the answer with serializeResponse (a Content-Length
// body, or an event stream chunked as node:http sends one). The in-browser worker host serves
// the page's connections with it, so the worker produces the same kind of bytes the Node server
// does and the inspector reads both alike.

import type { ByteConnection } from './byte-connection.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { Http1Reader, type Http1Head } from './http1-reader.ts';
import { serializeResponse } from './http1-writer.ts';
import type { HttpHandler } from './server-handler.ts';
import type { HttpResponse } from './types.ts';

const utf8 = new TextEncoder();

/** The request body limit of the Node adapter (server/http-node-adapter.ts), kept the same here. */
export const MAX_HTTP1_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

/** Serve every request that arrives on `connection`, one after another, until either side closes. */
export function serveHttp1Connection(handler: Pick<HttpHandler, 'handle'>, connection: ByteConnection): void {
  const reader = new Http1Reader('request');
  const queue: { head: Http1Head & { kind: 'request' }; body: Uint8Array }[] = [];
  let current: { head: Http1Head & { kind: 'request' }; parts: Uint8Array[]; size: number } | null = null;
  let busy = false;
  let closed = false;
  let cancelStream: (() => void) | null = null;

  const stopEnd = connection.onEnd(() => {
    closed = true;
    cancelStream?.(); // the client went away: its event stream keeps its events for a resume
    stopData();
    stopEnd();
  });
  const stopData = connection.onData((chunk) => {
    for (const item of reader.push(chunk)) {
      if (item.type === 'head-end' && item.head.kind === 'request') current = { head: item.head, parts: [], size: 0 };
      else if (item.type === 'data' && current) {
        current.size += item.bytes.length;
        if (current.size > MAX_HTTP1_REQUEST_BODY_BYTES) return refuse(413, `Payload too large: over ${MAX_HTTP1_REQUEST_BODY_BYTES} bytes`);
        current.parts.push(item.bytes);
      } else if (item.type === 'end' && current) {
        // A body of one piece is copied all the same: the handler keeps its own bytes, not a view into the reader's chunk.
        queue.push({ head: current.head, body: current.parts.length === 1 ? current.parts[0]!.slice() : concatBytes(current.parts) });
        current = null;
      } else if (item.type === 'error') return refuse(400, `Bad Request: ${item.detail}`);
    }
    void next();
  });

  async function next(): Promise<void> {
    if (busy || closed) return;
    const request = queue.shift();
    if (!request) return;
    busy = true;
    const { head, body } = request;
    const response = await handler.handle({ method: head.method, path: head.target, headers: head.headers, body });
    const close = head.headers.connection?.toLowerCase().split(',').some((token) => token.trim() === 'close') === true;
    await write(response, close);
    busy = false;
    if (close) return connection.close();
    void next();
  }

  async function write(response: HttpResponse, close: boolean): Promise<void> {
    if (response.body.type === 'stream') {
      const stream = response.body.stream;
      cancelStream = () => stream.cancel();
    }
    for await (const part of serializeResponse(response, { close })) {
      if (closed) break;
      connection.write(part);
    }
    cancelStream = null;
  }

  /** The bytes are not HTTP we can serve: answer once and close, as node:http does. */
  function refuse(status: number, message: string): void {
    closed = true;
    const body = utf8.encode(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message } }));
    void (async () => {
      for await (const part of serializeResponse({ status, headers: { 'content-type': 'application/json' }, body: { type: 'bytes', bytes: body } }, { close: true })) connection.write(part);
      connection.close();
    })();
  }
}
