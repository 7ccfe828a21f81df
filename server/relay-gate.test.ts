import { describe, expect, it } from 'vitest';
import { MAX_HEAD_BYTES, RequestGate } from './relay-gate.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);
const BODY = '{"jsonrpc":"2.0"}';
const request = (...headers: string[]) => `POST /mcp HTTP/1.1\r\n${headers.map((h) => `${h}\r\n`).join('')}Content-Length: ${BODY.length}\r\n\r\n${BODY}`;
const judge = (input: string | Uint8Array) => new RequestGate().push(typeof input === 'string' ? bytes(input) : input);

describe('RequestGate', () => {
  it('holds a head until it has ended, then passes loopback hosts and origins with their bodies', () => {
    const gate = new RequestGate();
    expect(text(gate.push(bytes('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\n')).forward)).toBe('');
    expect(gate.holdsUnjudgedBytes).toBe(true);
    expect(text(gate.push(bytes(`Content-Length: ${BODY.length}\r\n\r\n${BODY}`)).forward)).toBe(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: ${BODY.length}\r\n\r\n${BODY}`);
    expect(gate.holdsUnjudgedBytes).toBe(false);
    for (const host of ['127.0.0.1:4000', 'localhost', 'LOCALHOST:1', '[::1]:80']) expect(judge(request(`Host: ${host}`))).toEqual({ forward: bytes(request(`Host: ${host}`)), refusal: null });
    expect(judge(request('host: 127.0.0.1:1', 'Origin: http://localhost:5173')).refusal).toBeNull();
  });

  it('refuses what DNS rebinding or a foreign page would send, and what is not HTTP/1.x', () => {
    const cases: Array<[string, number, RegExp]> = [
      [request('Host: evil.example:4000'), 403, /Host "evil.example:4000"/],
      [request('Host: 127.0.0.1.evil.example'), 403, /not a loopback name/],
      [request('Content-Type: application/json'), 403, /Host ""/],
      [request('Host: 127.0.0.1:1', 'Origin: http://evil.example'), 403, /Origin "http:\/\/evil.example"/],
      [request('Host: 127.0.0.1:1', 'Origin: null'), 403, /Origin/],
      [request('Host: 127.0.0.1:1', 'Host: evil.example'), 400, /two host headers/],
      [request('Host: 127.0.0.1:1', 'Origin: http://localhost', 'origin: http://evil.example'), 400, /two origin headers/],
      ['PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 400, /not an HTTP\/1.1 request line/],
      [request('Host 127.0.0.1'), 400, /not a header line/],
      [`GET / HTTP/1.1\r\nX: ${'a'.repeat(MAX_HEAD_BYTES)}`, 431, /over/],
    ];
    for (const [input, status, reason] of cases) {
      expect(judge(input)).toEqual({ forward: new Uint8Array(0), refusal: { kind: 'refuse', status, reason: expect.stringMatching(reason) } });
    }
  });

  it('judges every request on a kept-alive connection: the first passes, a forged second one is refused and never released', () => {
    const gate = new RequestGate();
    const first = request('Host: 127.0.0.1:1', 'Origin: http://127.0.0.1:1');
    expect(text(gate.push(bytes(first)).forward)).toBe(first);
    const forged = request('Host: evil.example', 'Origin: http://evil.example');
    const second = gate.push(bytes(forged));
    expect(second.forward).toEqual(new Uint8Array(0));
    expect(second.refusal).toMatchObject({ status: 403, reason: expect.stringMatching(/evil\.example/) });
    // After a refusal nothing passes, not even a good request.
    expect(gate.push(bytes(first))).toMatchObject({ forward: new Uint8Array(0), refusal: { status: 403 } });
  });

  it('pipelined in one chunk, and chunked bodies, cut anywhere: the good request passes, the forged one behind it does not', () => {
    const good = `POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n`;
    const forged = `GET /mcp HTTP/1.1\r\nHost: evil.example\r\n\r\n`;
    const all = bytes(good + forged);
    for (let cut = 1; cut < all.length; cut++) {
      const gate = new RequestGate();
      const a = gate.push(all.subarray(0, cut));
      const b = gate.push(all.subarray(cut));
      expect(text(a.forward) + text(b.forward)).toBe(good);
      expect(b.refusal ?? a.refusal).toMatchObject({ status: 403 });
    }
  });

  it('refuses a request whose length is ambiguous (request smuggling)', () => {
    expect(judge(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n`).refusal).toMatchObject({ status: 400 });
    expect(judge(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n`).refusal).toMatchObject({ status: 400 });
  });
});
