import { describe, expect, it } from 'vitest';
import { Http1Reader } from './http1-reader.ts';
import { readAll } from '../../../tests/support/http1-items.ts';
import { encodeChunk, LAST_CHUNK, serializeRequest, serializeResponse, serializeResponseHead } from './http1-writer.ts';

const utf8 = new TextEncoder();
const bytes = (text: string) => utf8.encode(text);

async function collect(iterable: AsyncIterable<Uint8Array>): Promise<Uint8Array[]> {
  const parts: Uint8Array[] = [];
  for await (const part of iterable) parts.push(part);
  return parts;
}

describe('Http1Reader', () => {
  it('reads a request: start line, each header, the blank line, a Content-Length body', () => {
    const wire = serializeRequest({ method: 'POST', target: '/mcp', headers: [['Host', '127.0.0.1:3000'], ['Content-Type', 'application/json']], body: bytes('{"a":"你好"}') });
    const items = readAll('request', [wire]);
    expect(items.map((item) => item.type)).toEqual(['start-line', 'header', 'header', 'header', 'head-end', 'data', 'end']);
    expect(items[0]).toEqual({ type: 'start-line', offset: 0, length: 20, text: 'POST /mcp HTTP/1.1' });
    // The byte count, not the character count: 你好 is six bytes.
    expect(items[3]).toMatchObject({ type: 'header', name: 'Content-Length', value: '14' });
    const head = items[4]!;
    expect(head).toMatchObject({ type: 'head-end', length: 2, framing: 'content-length', contentLength: 14 });
    if (head.type === 'head-end' && head.head.kind === 'request') expect(head.head.headers['content-type']).toBe('application/json');
    expect(new TextDecoder().decode((items[5] as { bytes: Uint8Array }).bytes)).toBe('{"a":"你好"}');
    expect(items[6]).toEqual({ type: 'end', offset: wire.length, length: 0 });
  });

  it('reads a chunked response: size lines, chunk data, the CRLF after each, the last chunk', async () => {
    const parts = await collect(
      serializeResponse({
        status: 200,
        headers: { 'content-type': 'text/event-stream' },
        body: { type: 'stream', stream: Object.assign((async function* () { yield bytes('data: 1\n\n'); yield bytes('data: 22\n\n'); })(), { cancel() {} }) },
      }),
    );
    const items = readAll('response', parts);
    expect(items.map((item) => item.type)).toEqual([
      'start-line', 'header', 'header', 'head-end',
      'chunk-size', 'data', 'chunk-end', 'chunk-size', 'data', 'chunk-end', 'chunk-size', 'end',
    ]);
    expect(items.filter((item) => item.type === 'chunk-size').map((item) => (item as { size: number }).size)).toEqual([9, 10, 0]);
    expect(items.at(-1)).toMatchObject({ type: 'end', length: 2 });
  });

  it('reads a body that runs until the connection closes, and ends it on finish()', () => {
    const reader = new Http1Reader('response');
    const items = reader.push(bytes('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello'));
    expect(items.find((item) => item.type === 'head-end')).toMatchObject({ framing: 'until-close' });
    expect(reader.push(bytes(' world')).map((item) => item.type)).toEqual(['data']);
    expect(reader.finish()).toEqual([{ type: 'end', offset: 56, length: 0 }]);
  });

  it('gives 202, 204 and 1xx responses the body their headers say, and none where HTTP says none', () => {
    const stream = [
      serializeResponseHead(202, [['Content-Length', '0']]),
      bytes('HTTP/1.1 100 Continue\r\n\r\n'),
      serializeResponseHead(204, []),
    ];
    const items = readAll('response', stream);
    expect(items.filter((item) => item.type === 'end')).toHaveLength(3);
    expect(items.some((item) => item.type === 'error')).toBe(false);
  });

  it('reads several messages on one connection (keep-alive)', () => {
    const one = serializeRequest({ method: 'POST', target: '/mcp', headers: [['Host', 'x']], body: bytes('{}') });
    const two = serializeRequest({ method: 'DELETE', target: '/mcp', headers: [['Host', 'x']] });
    const items = readAll('request', [one, two]);
    expect(items.filter((item) => item.type === 'end').map((item) => item.offset)).toEqual([one.length, one.length + two.length]);
  });

  it.each([
    ['a bare LF', 'POST /mcp HTTP/1.1\nHost: x\r\n\r\n'],
    ['both framings', 'POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n'],
    ['two different lengths', 'POST /mcp HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n'],
    ['a folded header', 'POST /mcp HTTP/1.1\r\nA: b\r\n c\r\n\r\n'],
    ['a header without a colon', 'POST /mcp HTTP/1.1\r\nHost x\r\n\r\n'],
    ['HTTP/2 in a request line', 'POST /mcp HTTP/2\r\n\r\n'],
  ])('refuses %s', (_, text) => {
    const items = readAll('request', [bytes(text)]);
    expect(items.at(-1)?.type).toBe('error');
  });

  it('refuses a chunk whose data is not followed by CRLF (a wrong size)', () => {
    const items = readAll('response', [bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcd\r\n0\r\n\r\n')]);
    expect(items.at(-1)).toMatchObject({ type: 'error', detail: expect.stringContaining('CRLF') });
  });

  it('refuses a head over the limit before it has all of it', () => {
    const reader = new Http1Reader('request', { maxHeadBytes: 64 });
    const items = reader.push(bytes(`GET /mcp HTTP/1.1\r\nX-Long: ${'a'.repeat(80)}`));
    expect(items.at(-1)).toMatchObject({ type: 'error', detail: expect.stringContaining('over 64 bytes') });
  });

  it('reports a connection that closes mid-message', () => {
    const reader = new Http1Reader('response');
    reader.push(bytes('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc'));
    expect(reader.finish()).toMatchObject([{ type: 'error', detail: expect.stringContaining('closed in the middle') }]);
  });

  it('writes chunks and refuses header injection', () => {
    expect(new TextDecoder().decode(encodeChunk(bytes('你')))).toBe('3\r\n你\r\n');
    expect(new TextDecoder().decode(LAST_CHUNK)).toBe('0\r\n\r\n');
    expect(() => serializeRequest({ method: 'GET', target: '/mcp', headers: [['X', 'a\r\nEvil: 1']] })).toThrow(TypeError);
    expect(() => serializeRequest({ method: 'GET', target: 'http://elsewhere/', headers: [] })).toThrow(TypeError);
  });
});
