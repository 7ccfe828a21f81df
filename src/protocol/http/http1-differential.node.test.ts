// The HTTP/1.1 writer and reader against Node's own HTTP parser (llhttp), over real loopback
// sockets: what our writer sends, node:http reads the same way; what a real node:http server
// writes, our reader reads however the bytes are cut; and a response our writer produces reads
// the same through Node's client as through our reader.

import fc from 'fast-check';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createTcpServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cutAt } from '../../../tests/support/byte-chunks.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { mergedItems, messagesOf, readAll } from '../../../tests/support/http1-items.ts';
import { serializeRequest, serializeResponse, type HeaderLine } from './http1-writer.ts';
import type { HttpResponse } from './types.ts';

const utf8 = new TextEncoder();

/** Send raw bytes to 127.0.0.1:port and collect every byte until the server closes. */
function rawExchange(port: number, bytes: Uint8Array): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.on('data', (chunk) => chunks.push(new Uint8Array(chunk)));
    socket.on('end', () => resolve(concatBytes(chunks)));
    socket.on('error', reject);
  });
}

function listen(server: Server | ReturnType<typeof createTcpServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));
}

const token = fc.stringMatching(/^X-[A-Za-z0-9]{1,10}$/);
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/);
const headers = fc.uniqueArray(fc.tuple(token, headerValue) as fc.Arbitrary<HeaderLine>, { maxLength: 5, selector: ([name]) => name.toLowerCase() });
const body = fc.string({ unit: 'grapheme', maxLength: 60 }).map((text) => utf8.encode(text));

describe('HTTP/1.1 against node:http', () => {
  let seen: { method?: string; url?: string; headers: IncomingMessage['headers']; body: Uint8Array }[] = [];
  let server: Server;
  let port = 0;

  beforeAll(async () => {
    // Echoes nothing of its own: it records what Node parsed, then answers in the framing asked for.
    server = createServer((req, res) => {
      const chunks: Uint8Array[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(new Uint8Array(chunk)));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, headers: req.headers, body: concatBytes(chunks) });
        const pieces = String(req.headers['x-pieces'] ?? '').split(',').filter((piece) => piece !== '');
        if (req.headers['x-chunked'] === '1') {
          res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'abc' });
          res.flushHeaders();
          for (const piece of pieces) res.write(piece);
          res.end();
        } else if (pieces.length === 0) {
          res.writeHead(202).end();
        } else res.writeHead(200, { 'content-type': 'application/json' }).end(pieces.join(''));
      });
    });
    port = await listen(server);
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('node:http reads what serializeRequest writes: method, target, every header, the body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('POST', 'GET', 'DELETE'), headers, fc.option(body, { nil: undefined }), async (method, extra, payload) => {
        seen = [];
        const wire = serializeRequest({ method, target: '/mcp', headers: [['Host', `127.0.0.1:${port}`], ['Connection', 'close'], ...extra], body: payload });
        await rawExchange(port, wire);
        expect(seen).toHaveLength(1);
        expect(seen[0]).toMatchObject({ method, url: '/mcp' });
        for (const [name, value] of extra) expect(seen[0]!.headers[name.toLowerCase()]).toBe(value);
        expect([...seen[0]!.body]).toEqual([...(payload ?? [])]);
      }),
      { numRuns: 25 },
    );
  });

  it('our reader reads a real node:http response the same however it is cut: Content-Length, chunked and 202', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.array(fc.stringMatching(/^[a-z0-9{}":]{1,12}$/), { maxLength: 4 }), fc.array(fc.nat(), { maxLength: 16 }), async (chunked, pieces, cuts) => {
        const wire = serializeRequest({
          method: 'POST',
          target: '/mcp',
          headers: [['Host', `127.0.0.1:${port}`], ['Connection', 'close'], ['X-Chunked', chunked ? '1' : '0'], ['X-Pieces', pieces.join(',')]],
          body: utf8.encode('{}'),
        });
        const raw = await rawExchange(port, wire);
        const whole = readAll('response', [raw], true);
        expect(whole.some((item) => item.type === 'error')).toBe(false);
        expect(mergedItems(readAll('response', cutAt(raw, cuts), true))).toEqual(mergedItems(whole));
        const [message] = messagesOf(whole);
        const head = message!.head as { status: number; headers: Record<string, string> };
        expect(message!.body).toBe(pieces.join(''));
        if (chunked) expect(head).toMatchObject({ status: 200, headers: { 'transfer-encoding': 'chunked', 'mcp-session-id': 'abc' } });
        else expect(head.status).toBe(pieces.length === 0 ? 202 : 200);
      }),
      { numRuns: 25 },
    );
  });

  it('node:http reads what serializeResponse writes exactly as our reader does', async () => {
    let next: Uint8Array[] = [];
    const tcp = createTcpServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', () => {
        for (const part of next) socket.write(part);
        socket.end();
      });
    });
    const tcpPort = await listen(tcp);
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(200, 202, 400, 404), headers, fc.boolean(), fc.array(body.filter((b) => b.length > 0), { maxLength: 4 }), async (status, extra, stream, pieces) => {
          const response: HttpResponse = {
            status,
            headers: Object.fromEntries(extra),
            body: stream
              ? { type: 'stream', stream: Object.assign((async function* () { yield* pieces; })(), { cancel() {} }) }
              : { type: 'bytes', bytes: concatBytes(pieces) },
          };
          next = [];
          for await (const part of serializeResponse(response, { close: true })) next.push(part);
          const ours = messagesOf(readAll('response', next))[0]!;
          const theirs = await new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
            const req = httpRequest({ host: '127.0.0.1', port: tcpPort, path: '/mcp', method: 'GET' }, (res) => {
              const chunks: Uint8Array[] = [];
              res.on('data', (chunk: Buffer) => chunks.push(new Uint8Array(chunk)));
              res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: new TextDecoder().decode(concatBytes(chunks)) }));
            });
            req.on('error', reject);
            req.end();
          });
          expect((ours.head as { status: number }).status).toBe(theirs.status);
          expect((ours.head as { headers: unknown }).headers).toEqual(theirs.headers);
          expect(ours.body).toBe(theirs.body);
        }),
        { numRuns: 25 },
      );
    } finally {
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
    }
  });
});
