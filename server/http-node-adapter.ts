// Node's http module on one side, the pure Streamable HTTP handler on the other: read the request
// body, hand the handler a plain request object, write its answer back — bytes at once, or an
// SSE stream chunk by chunk until it ends or the client goes away.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HttpHandler } from '../src/protocol/http/server-handler.ts';
import type { HttpRequest, HttpResponse } from '../src/protocol/http/types.ts';
import { splitIntoWrites } from '../src/protocol/faults.ts';

/** A larger POST body is refused with 413 before it is read to the end. */
export const MAX_REQUEST_BODY_BYTES = 4 * 1024 * 1024;

export interface NodeListenerOptions {
  log?: (line: string) => void;
  /** The split-writes fault: every body leaves in pieces of 1 to 7 bytes, as a network may deliver it. */
  splitWrites?: () => number;
}

export function nodeListener(handler: Pick<HttpHandler, 'handle'>, options: NodeListenerOptions = {}) {
  const log = options.log ?? (() => {});
  return (req: IncomingMessage, res: ServerResponse): void => {
    void serve(handler, req, res, options.splitWrites).catch((error: unknown) => {
      log(`request failed: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  };
}

async function serve(handler: Pick<HttpHandler, 'handle'>, req: IncomingMessage, res: ServerResponse, random: (() => number) | undefined): Promise<void> {
  const body = await readBody(req);
  if (body === null) {
    res.writeHead(413, { 'content-type': 'application/json', connection: 'close' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Payload too large: over ${MAX_REQUEST_BODY_BYTES} bytes` } }));
    return;
  }
  const request: HttpRequest = { method: req.method ?? 'GET', path: req.url ?? '/', headers: plainHeaders(req), body };
  await writeResponse(await handler.handle(request), res, random === undefined ? (bytes) => [bytes] : (bytes) => splitIntoWrites(bytes, random));
}

/** Node gives repeated headers as arrays; HTTP says they mean the values joined with commas. */
function plainHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function readBody(req: IncomingMessage): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BODY_BYTES) {
        req.removeAllListeners('data');
        req.resume(); // drain without keeping it
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      const whole = Buffer.concat(chunks);
      resolve(new Uint8Array(whole.buffer, whole.byteOffset, whole.byteLength));
    });
    req.on('error', reject);
  });
}

async function writeResponse(response: HttpResponse, res: ServerResponse, pieces: (bytes: Uint8Array) => Uint8Array[]): Promise<void> {
  const { body } = response;
  if (body.type === 'none') {
    // An explicit zero length: some clients wait forever for the end of a 202 sent as chunked.
    res.writeHead(response.status, { ...response.headers, 'content-length': '0' });
    res.end();
    return;
  }
  if (body.type === 'bytes') {
    res.writeHead(response.status, { ...response.headers, 'content-length': String(body.bytes.length) });
    for (const piece of pieces(body.bytes)) res.write(piece);
    res.end();
    return;
  }
  res.writeHead(response.status, response.headers);
  res.flushHeaders(); // the client learns it got a stream before the first event
  // The client hung up: the stream keeps its events for a resume, this connection stops.
  res.on('close', () => body.stream.cancel());
  for await (const chunk of body.stream) {
    if (res.destroyed) break;
    for (const piece of pieces(chunk)) res.write(piece);
  }
  res.end();
}
