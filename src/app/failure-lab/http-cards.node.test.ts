import { describe, expect, it } from 'vitest';
import { connectionPair } from '../../protocol/http/byte-connection.ts';
import { serveHttp1Connection } from '../../protocol/http/http1-server.ts';
import { createMcpHttpHandler } from '../../runtime/mcp-http-program.ts';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import { HTTP_PROGRAM } from '../protocol/http-session-store.ts';
import { cardRequestBytes, FOREIGN_ORIGIN, HTTP_CARD_IDS, runHttpCard, type HttpCardDeps } from './http-cards.ts';

const PAGE = 'http://127.0.0.1:5173';

/** mcp-http's real handler (the one every host serves), one in-memory TCP connection per connect. */
function pureHandlerDeps(): HttpCardDeps & { started: number; killed: number } {
  const deps = {
    origin: PAGE,
    started: 0,
    killed: 0,
    async start() {
      deps.started++;
      const handler = createMcpHttpHandler({ tools: 'echo', faults: [] });
      return {
        async connect() {
          const [client, server] = connectionPair();
          serveHttp1Connection(handler, server);
          return client;
        },
        kill() {
          deps.killed++;
          handler.closeAll();
        },
      };
    },
  };
  return deps;
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

describe('HTTP failure cards against the real pure handler', () => {
  it('missing session id: initialize gets a session, the request without Mcp-Session-Id gets 400', async () => {
    const { exchanges } = await runHttpCard('missing-session', pureHandlerDeps());
    expect(exchanges.map((e) => [e.role, e.status])).toEqual([['setup', 200], ['symptom', 400]]);
    expect(exchanges[0]!.sessionId).toMatch(/^[0-9a-f]{32}$/);
    const symptom = exchanges[1]!;
    expect(text(symptom.request)).not.toMatch(/mcp-session-id/i);
    expect(symptom.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(JSON.parse(symptom.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Bad Request: Mcp-Session-Id header is required' } });
  });

  it('stale session: after a restart the old id gets 404, and initialize again gets a new session', async () => {
    const deps = pureHandlerDeps();
    const { exchanges } = await runHttpCard('stale-session', deps);
    expect(deps.started).toBe(2);
    expect(deps.killed).toBe(2);
    expect(exchanges.map((e) => [e.role, e.status])).toEqual([['setup', 200], ['symptom', 404], ['recovery', 200]]);
    const old = exchanges[0]!.sessionId!;
    expect(text(exchanges[1]!.request)).toContain(`Mcp-Session-Id: ${old}\r\n`);
    expect(exchanges[1]!.statusLine).toBe('HTTP/1.1 404 Not Found');
    expect(JSON.parse(exchanges[1]!.body).error.code).toBe(-32001);
    expect(exchanges[2]!.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(exchanges[2]!.sessionId).not.toBe(old);
  });

  it('foreign Origin: 403 before anything else is looked at', async () => {
    const { exchanges } = await runHttpCard('foreign-origin', pureHandlerDeps());
    expect(exchanges).toHaveLength(1);
    expect(text(exchanges[0]!.request)).toContain(`\r\nOrigin: ${FOREIGN_ORIGIN}\r\n`);
    expect(exchanges[0]!.statusLine).toBe('HTTP/1.1 403 Forbidden');
    expect(JSON.parse(exchanges[0]!.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Forbidden: Origin not allowed' } });
    expect(exchanges[0]!.sessionId).toBeNull();
  });

  it('missing Accept: 406, and no session starts', async () => {
    const { exchanges } = await runHttpCard('missing-accept', pureHandlerDeps());
    expect(text(exchanges[0]!.request)).not.toMatch(/\r\naccept:/i);
    expect(exchanges[0]!.statusLine).toBe('HTTP/1.1 406 Not Acceptable');
    expect(JSON.parse(exchanges[0]!.body).error.message).toMatch(/Accept/);
    expect(exchanges[0]!.sessionId).toBeNull();
  });

  it('buffering proxy: straight from the server the progress event arrives before the result; through the proxy all in one piece at the end', async () => {
    const { exchanges } = await runHttpCard('buffering-proxy', pureHandlerDeps());
    expect(exchanges.map((e) => [e.role, e.status])).toEqual([['setup', 200], ['setup', 202], ['baseline', 200], ['symptom', 200]]);
    const [, , direct, proxied] = exchanges;
    for (const exchange of [direct!, proxied!]) {
      expect(exchange.response.length).toBeGreaterThan(0);
      expect(text(exchange.response)).toMatch(/content-type: text\/event-stream/i);
      expect(exchange.body).toContain('notifications/progress');
      expect(exchange.body).toContain('"result"');
    }
    // Direct: some event completed before the last piece (the progress, sent as the call started).
    expect(direct!.pieces.length).toBeGreaterThan(1);
    expect(direct!.pieces.slice(0, -1).some((count) => count > 0)).toBe(true);
    // Through the proxy: one piece, every event in it.
    expect(proxied!.pieces).toEqual([proxied!.pieces.reduce((sum, count) => sum + count, 0)]);
    expect(proxied!.pieces[0]).toBeGreaterThanOrEqual(2);
  });

  it('the request bytes are the page client’s, with only the card’s change', () => {
    const bytes = text(cardRequestBytes({ body: { x: 1 }, sessionId: 'abc' }, PAGE));
    expect(bytes).toBe(
      'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1:5173\r\nAccept: application/json, text/event-stream\r\nContent-Type: application/json\r\nMcp-Session-Id: abc\r\nConnection: close\r\nContent-Length: 7\r\n\r\n{"x":1}',
    );
  });
});

describe('HTTP failure cards on the worker host (relayed connections, tap events)', () => {
  it('foreign Origin over the worker wire: 403, and the tap saw the exact request bytes', async () => {
    const wires: Awaited<ReturnType<typeof startWorkerHttpWire>>[] = [];
    const seen: string[] = [];
    const result = await runHttpCard('foreign-origin', {
      origin: PAGE,
      async start() {
        const wire = await startWorkerHttpWire(HTTP_PROGRAM, PAGE);
        wire.onTapEvent((event) => {
          if (event.ev === 'c2s' && event.conn !== undefined) seen.push(Buffer.from(event.b64, 'base64').toString('utf8'));
        });
        wires.push(wire);
        return wire;
      },
    });
    expect(result.exchanges[0]!.status).toBe(403);
    expect(seen.join('')).toBe(text(result.exchanges[0]!.request));
  });

  it('every card shows its symptom on the worker host', async () => {
    const statuses: string[] = [];
    for (const id of HTTP_CARD_IDS) {
      const { exchanges } = await runHttpCard(id, { origin: PAGE, start: () => startWorkerHttpWire(HTTP_PROGRAM, PAGE) });
      statuses.push(`${id}: ${exchanges.map((exchange) => `${exchange.role} ${exchange.status}`).join(', ')}`);
      if (id === 'buffering-proxy') expect(exchanges.at(-1)!.pieces).toHaveLength(1);
    }
    expect(statuses).toEqual([
      'missing-session: setup 200, symptom 400',
      'stale-session: setup 200, symptom 404, recovery 200',
      'foreign-origin: symptom 403',
      'missing-accept: symptom 406',
      'buffering-proxy: setup 200, setup 202, baseline 200, symptom 200',
    ]);
  });
});
