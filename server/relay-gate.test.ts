import { describe, expect, it } from 'vitest';
import { judgeFirstRequest, MAX_HEAD_BYTES } from './relay-gate.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const request = (...headers: string[]) => bytes(`POST /mcp HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n{"jsonrpc":"2.0"}`);

describe('judgeFirstRequest', () => {
  it('waits for the end of the head, then passes loopback hosts and origins', () => {
    expect(judgeFirstRequest(bytes('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\n'))).toEqual({ kind: 'more' });
    for (const host of ['127.0.0.1:4000', 'localhost', 'LOCALHOST:1', '[::1]:80']) expect(judgeFirstRequest(request(`Host: ${host}`))).toEqual({ kind: 'pass' });
    expect(judgeFirstRequest(request('host: 127.0.0.1:1', 'Origin: http://localhost:5173'))).toEqual({ kind: 'pass' });
  });

  it('refuses what DNS rebinding or a foreign page would send, and what is not HTTP/1.x', () => {
    const cases: Array<[Uint8Array, number, RegExp]> = [
      [request('Host: evil.example:4000'), 403, /Host "evil.example:4000"/],
      [request('Host: 127.0.0.1.evil.example'), 403, /not a loopback name/],
      [request('Content-Type: application/json'), 403, /Host ""/],
      [request('Host: 127.0.0.1:1', 'Origin: http://evil.example'), 403, /Origin "http:\/\/evil.example"/],
      [request('Host: 127.0.0.1:1', 'Origin: null'), 403, /Origin/],
      [request('Host: 127.0.0.1:1', 'Host: evil.example'), 400, /two host headers/],
      [bytes('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'), 400, /not an HTTP\/1.x request/],
      [request('Host 127.0.0.1'), 400, /malformed header line/],
      [bytes(`GET / HTTP/1.1\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`), 431, /over/],
    ];
    for (const [input, status, reason] of cases) {
      expect(judgeFirstRequest(input)).toEqual({ kind: 'refuse', status, reason: expect.stringMatching(reason) });
    }
  });
});
