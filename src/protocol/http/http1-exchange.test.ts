// The page's HTTP/1.1 client on its own, against a scripted server end: what it writes, and how it
// treats a connection that ends early, an interim response, and a body cut short.

import { describe, expect, it } from 'vitest';
import { concatBytes } from '../inspect/concat-bytes.ts';
import { connectionPair, type ByteConnection } from './byte-connection.ts';
import { http1Exchange } from './http1-exchange.ts';

const utf8 = new TextEncoder();
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** An exchange whose server end answers each request with `answer(requestText, server)`. */
function scripted(answer: (request: string, server: ByteConnection) => void) {
  const requests: string[] = [];
  const closes: number[] = [];
  let opened = 0;
  const exchange = http1Exchange(
    async () => {
      const [client, server] = connectionPair();
      const index = opened++;
      let buffered = '';
      server.onData((chunk) => {
        buffered += text(chunk);
        if (!buffered.includes('\r\n\r\n')) return;
        requests.push(buffered);
        answer(buffered, server);
      });
      server.onEnd(() => closes.push(index));
      return client;
    },
    { origin: 'http://127.0.0.1:5173' },
  );
  return { exchange, requests, closes };
}

async function readBody(body: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return text(concatBytes(parts));
}

describe('http1Exchange', () => {
  it('writes Host, Origin, the headers in canonical spelling, Connection: close and a byte-counted body', async () => {
    const { exchange, requests } = scripted((_, server) => {
      server.write(utf8.encode('HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n'));
      server.close();
    });
    const response = await exchange({ method: 'POST', url: 'http://127.0.0.1/mcp', headers: { 'mcp-session-id': 'abc', 'content-type': 'application/json' }, body: utf8.encode('"你好"') });
    expect(response.status).toBe(202);
    expect(await readBody(response.body)).toBe('');
    expect(requests[0]).toBe('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:5173\r\nMcp-Session-Id: abc\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: 8\r\n\r\n"你好"');
  });

  it('rejects when the connection ends before any response', async () => {
    const { exchange } = scripted((_, server) => server.close());
    await expect(exchange({ method: 'GET', url: 'http://127.0.0.1/mcp', headers: {} })).rejects.toThrow(/before a response arrived/);
  });

  it('skips an interim 100 Continue and answers with the final response', async () => {
    const { exchange } = scripted((_, server) => {
      server.write(utf8.encode('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}'));
      server.close();
    });
    const response = await exchange({ method: 'GET', url: 'http://127.0.0.1/mcp', headers: {} });
    expect(response.status).toBe(200);
    expect(await readBody(response.body)).toBe('{}');
  });

  it('throws from the body when the connection ends in the middle of it', async () => {
    const { exchange } = scripted((_, server) => {
      server.write(utf8.encode('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
      server.close();
    });
    const response = await exchange({ method: 'GET', url: 'http://127.0.0.1/mcp', headers: {} });
    await expect(readBody(response.body)).rejects.toThrow(/closed in the middle of a message/);
  });

  it('closes the connection when the reader cancels a stream', async () => {
    const { exchange, closes } = scripted((_, server) => {
      server.write(utf8.encode('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n: hi\n\r\n'));
    });
    const response = await exchange({ method: 'GET', url: 'http://127.0.0.1/mcp', headers: {} });
    const iterator = response.body[Symbol.asyncIterator]();
    expect(text((await iterator.next()).value as Uint8Array)).toBe(': hi\n');
    response.cancel();
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(closes).toEqual([0]);
  });
});
