import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ByteTransport } from '../../protocol/transport.ts';
import { LineCutter, UnreadableLineError, WireTransport } from './wire-transport.ts';

const encode = (text: string) => new TextEncoder().encode(text);

/** A ByteTransport whose other end the test plays by hand. */
function handPlayed() {
  const written: string[] = [];
  const data = new Set<(chunk: Uint8Array) => void>();
  const closes = new Set<(reason: string) => void>();
  let ended = false;
  let killed = false;
  const bytes: ByteTransport = {
    write: (chunk) => written.push(new TextDecoder().decode(chunk)),
    end: () => {
      ended = true;
    },
    onData: (listener) => (data.add(listener), () => data.delete(listener)),
    onClose: (listener) => (closes.add(listener), () => closes.delete(listener)),
  };
  return {
    bytes,
    written,
    send: (chunk: Uint8Array) => data.forEach((listener) => listener(chunk)),
    close: (reason: string) => closes.forEach((listener) => listener(reason)),
    get ended() {
      return ended;
    },
    kill: () => {
      killed = true;
    },
    get killed() {
      return killed;
    },
  };
}

describe('LineCutter (the SDK ReadBuffer cut, without Node Buffer)', () => {
  it('cuts at each newline, drops a trailing CR, keeps the rest for later', () => {
    const cutter = new LineCutter();
    expect(cutter.push(encode('{"a":1}\r\n{"b"'))).toEqual(['{"a":1}']);
    expect(cutter.bufferedBytes).toBe(4);
    expect(cutter.push(encode(':2}\n\n'))).toEqual(['{"b":2}', '']);
  });

  it('gives the same lines however the bytes are chunked, multi-byte characters split included', () => {
    const text = '{"t":"你好 👋"}\n{"u":"é"}\r\n';
    const whole = encode(text);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: whole.length - 1 }), { maxLength: 8 }), (cuts) => {
        const points = [...new Set(cuts)].sort((a, b) => a - b);
        const cutter = new LineCutter();
        const lines: string[] = [];
        let from = 0;
        for (const point of [...points, whole.length]) {
          lines.push(...cutter.push(whole.subarray(from, point)));
          from = point;
        }
        expect(lines).toEqual(['{"t":"你好 👋"}', '{"u":"é"}']);
      }),
    );
  });

  it('refuses to buffer more than its limit, as ReadBuffer does', () => {
    const cutter = new LineCutter(8);
    expect(() => cutter.push(encode('123456789'))).toThrow('ReadBuffer exceeded maximum size of 8 bytes');
    expect(cutter.bufferedBytes).toBe(0);
  });
});

describe('WireTransport (an SDK Transport over a ByteTransport)', () => {
  it('writes each message as one NDJSON line and hands parsed messages to onmessage', async () => {
    const end = handPlayed();
    const transport = new WireTransport(end.bytes);
    const received: unknown[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(end.written).toEqual(['{"jsonrpc":"2.0","id":1,"method":"ping"}\n']);
    end.send(encode('{"jsonrpc":"2.0","id":1,"res'));
    end.send(encode('ult":{}}\n'));
    expect(received).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
  });

  it('reports a line the SDK rejects through onerror and keeps reading', async () => {
    const end = handPlayed();
    const transport = new WireTransport(end.bytes);
    const errors: Error[] = [];
    const received: unknown[] = [];
    transport.onerror = (error) => errors.push(error);
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    end.send(encode('{"jsonrpc":"2.0","id":null,"result":{}}\nnot json\n{"jsonrpc":"2.0","method":"x"}\n'));
    expect(errors.map((error) => error instanceof UnreadableLineError && error.message)).toEqual([
      'the SDK could not read a line from the server (valid JSON, but not a JSON-RPC message the SDK accepts): {"jsonrpc":"2.0","id":null,"result":{}}',
      expect.stringMatching(/^the SDK could not read a line from the server \(not JSON: .+\): not json$/),
    ]);
    expect(received).toEqual([{ jsonrpc: '2.0', method: 'x' }]);
  });

  it('close() ends stdin, waits for the exit, and kills a server that does not go', async () => {
    const polite = handPlayed();
    const first = new WireTransport(polite.bytes, { kill: polite.kill, closeGraceMs: 1000 });
    let closed = 0;
    first.onclose = () => closed++;
    await first.start();
    const closing = first.close();
    expect(polite.ended).toBe(true);
    polite.close('server exited with code 0');
    await closing;
    expect([closed, polite.killed]).toEqual([1, false]);
    await expect(first.send({ jsonrpc: '2.0', method: 'x' })).rejects.toThrow('Not connected');

    const stubborn = handPlayed();
    const second = new WireTransport(stubborn.bytes, { kill: stubborn.kill, closeGraceMs: 20 });
    await second.start();
    await second.close();
    expect(stubborn.killed).toBe(true);
  });

  it('refuses a second start, as the SDK transports do', async () => {
    const transport = new WireTransport(handPlayed().bytes);
    await transport.start();
    await expect(transport.start()).rejects.toThrow(/already started/);
  });
});
