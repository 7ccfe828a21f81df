import { describe, expect, it } from 'vitest';
import type { ReadItem } from '../framing/types.ts';
import { HttpMessageReader } from './http-message-reader.ts';

const encode = (text: string) => new TextEncoder().encode(text);

const body = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"name":"é"}}';
const REQUEST = `POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${encode(body).length}\r\n\r\n${body}`;
const sse = [': comment\n\n', 'id: 1\ndata:\n\n', 'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}\n\n', 'data: {"jsonrpc":"2.0","id":1,\ndata: "result":{}}\n\n'];
const chunked = sse.map((part) => `${encode(part).length.toString(16)}\r\n${part}\r\n`).join('');
const RESPONSE = `HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}0\r\n\r\n`;

function read(kind: 'request' | 'response', bytes: Uint8Array, cuts: number[]): ReadItem[] {
  const reader = new HttpMessageReader(kind);
  const items: ReadItem[] = [];
  let at = 0;
  for (const cut of [...cuts, bytes.length]) {
    items.push(...reader.push(bytes.subarray(at, cut)));
    at = cut;
  }
  return items;
}

describe('HttpMessageReader', () => {
  it('reads a JSON body as one message spanning the whole request, wherever the bytes are cut', () => {
    const bytes = encode(REQUEST);
    const whole = read('request', bytes, []);
    expect(whole).toEqual([{ type: 'message', value: JSON.parse(body), offset: 0, length: bytes.length }]);
    for (let cut = 1; cut < bytes.length; cut++) expect(read('request', bytes, [cut])).toEqual(whole);
  });

  it("reads an event stream's events as the messages their data carries (priming and comments carry none)", () => {
    const bytes = encode(RESPONSE);
    const whole = read('response', bytes, []);
    expect(whole.map((item) => (item.type === 'message' ? item.value : item.kind))).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: 1 } },
      { jsonrpc: '2.0', id: 1, result: {} },
    ]);
    // Each message's bytes on the wire start at its first field line.
    const text = RESPONSE;
    expect(whole[0]!.offset).toBe(text.indexOf('event: message'));
    expect(whole[1]!.offset).toBe(text.indexOf('data: {"jsonrpc":"2.0","id":1'));
    for (let cut = 1; cut < bytes.length; cut += 7) expect(read('response', bytes, [cut, Math.min(bytes.length, cut + 3)])).toEqual(whole);
  });

  it('names bad JSON and broken HTTP as errors instead of throwing', () => {
    const broken = 'POST /mcp HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 3\r\n\r\n{x}';
    expect(read('request', encode(broken), [])).toMatchObject([{ type: 'error', kind: 'bad-json' }]);
    expect(read('request', encode('POST /mcp HTTP/1.1\nHost: x\n\n'), [])).toMatchObject([{ type: 'error', kind: 'bad-header' }]);
  });

  it('leaves a JSON body that is no JSON-RPC at all (an OAuth document) to HTTP, and still reads a broken JSON-RPC message as one', () => {
    const json = (text: string) => encode(`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${encode(text).length}\r\n\r\n${text}`);
    expect(read('response', json('{"issuer":"http://127.0.0.1:1","token_endpoint":"http://127.0.0.1:1/token"}'), [])).toEqual([]);
    expect(read('response', json('{"error":"invalid_grant","error_description":"grant request is invalid"}'), [])).toEqual([]);
    for (const rpc of ['{"jsonrpc":"1.0","id":1,"result":{}}', '{"id":1,"method":"ping"}', '{"id":1,"error":{"code":-1,"message":"x"}}', '[{"jsonrpc":"2.0","method":"x"}]', '42']) {
      expect(read('response', json(rpc), [])).toEqual([expect.objectContaining({ type: 'message', value: JSON.parse(rpc) })]);
    }
  });
});
