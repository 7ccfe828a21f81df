import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectionPair } from '../../protocol/http/byte-connection.ts';
import { serveHttp1Connection } from '../../protocol/http/http1-server.ts';
import { createMcpHttpHandler } from '../../runtime/mcp-http-program.ts';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import { HTTP_PROGRAM } from '../protocol/http-session-store.ts';
import type { FaultName } from '../../protocol/faults.ts';
import { IMPATIENT_RESUMES_BEFORE_HOLD } from '../../protocol/http/event-stream.ts';
import { cardRequestBytes, FOREIGN_ORIGIN, HTTP_CARD_IDS, resumeRequestBytes, runHttpCard, sessionIdSent, SLOW_CALL_MS, type HttpCardDeps } from './http-cards.ts';

const PAGE = 'http://127.0.0.1:5173';

/** mcp-http's real handler (the one every host serves), one in-memory TCP connection per connect. */
function pureHandlerDeps(): HttpCardDeps & { started: number; killed: number; faults: (readonly FaultName[])[] } {
  const deps = {
    origin: PAGE,
    started: 0,
    killed: 0,
    faults: [] as (readonly FaultName[])[],
    async start(faults: readonly FaultName[]) {
      deps.started++;
      deps.faults.push(faults);
      const handler = createMcpHttpHandler({ tools: 'echo', faults });
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
    // Each id the card talks about, as the card names it: given, sent back stale, and the new one.
    expect(exchanges.map((e) => [e.sentSessionId, e.sessionId])).toEqual([[null, old], [old, null], [null, exchanges[2]!.sessionId]]);
  });

  it('reads the Mcp-Session-Id a request carried in any case and spacing, as a server does', () => {
    const bytes = (head: string) => new TextEncoder().encode(`${head}\r\n\r\n{"mcp-session-id: in the body":1}`);
    expect(sessionIdSent(bytes('POST /mcp HTTP/1.1\r\nmcp-session-id:abc'))).toBe('abc');
    expect(sessionIdSent(bytes('POST /mcp HTTP/1.1\r\nMCP-SESSION-ID: \tabc \r\nHost: x'))).toBe('abc');
    expect(sessionIdSent(bytes('POST /mcp HTTP/1.1\r\nHost: x'))).toBeNull();
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

  describe('a client that ignores retry (the server runs with close-streams-early)', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it('the impatient client reconnects at once until the server holds its stream (N times), the patient one waits retry ms once: counts from the rule, not the clock', async () => {
      // Fake time: a wait of ms advances the clock by ms, nothing else does. Each call asks the
      // server to hold its stream on its Nth (impatient) or first (patient) resume; the call's
      // 400 ms pass during the impatient client's last (zero) wait: N reconnects on any machine.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
      const N = IMPATIENT_RESUMES_BEFORE_HOLD;
      const waits: number[] = [];
      const deps = pureHandlerDeps();
      deps.sleep = async (ms) => {
        waits.push(ms);
        const impatientWaits = waits.filter((wait) => wait === 0).length;
        await vi.advanceTimersByTimeAsync(ms === 0 && impatientWaits === N ? SLOW_CALL_MS : ms);
      };
      const { exchanges, polls } = await runHttpCard('ignores-retry', deps);
      expect(deps.faults).toEqual([['close-streams-early']]);
      expect(polls!.impatient).toEqual({ retryMs: 1000, waits: Array(N).fill(0), reconnects: N, gotResult: true });
      expect(polls!.patient).toEqual({ retryMs: 1000, waits: [1000], reconnects: 1, gotResult: true });
      expect(waits).toEqual([...Array(N).fill(0), 1000]);

      // Shown: setup, the POST, the first and the last reconnect; then the patient POST and its one GET.
      expect(exchanges.map((e) => [e.role, text(e.request).split(' ')[0], e.status])).toEqual([
        ['setup', 'POST', 200],
        ['setup', 'POST', 202],
        ['symptom', 'POST', 200],
        ['symptom', 'GET', 200],
        ['symptom', 'GET', 200],
        ['recovery', 'POST', 200],
        ['recovery', 'GET', 200],
      ]);
      const [, , post, firstGet, lastGet, patientPost, patientGet] = exchanges;
      // The POST's stream ends after the priming event: an id, retry, empty data, then the last chunk.
      expect(post!.body).toBe('id: 1/0\nretry: 1000\ndata: \n\n');
      expect(text(post!.response)).toMatch(/transfer-encoding: chunked\r\n[\s\S]*\r\n0\r\n\r\n$/i);
      // At once: GET with Last-Event-ID 1/0, and the progress sent meanwhile comes, after retry again.
      const sessionId = exchanges[0]!.sessionId!;
      expect(text(firstGet!.request)).toBe(text(resumeRequestBytes(sessionId, '1/0', PAGE)));
      expect(firstGet!.body).toMatch(/^retry: 1000\n\nid: 1\/1\ndata: \{"jsonrpc":"2.0","method":"notifications\/progress"/);
      // Later ones: nothing new, only the retry field the client keeps ignoring, until the Nth: held, it brings the result.
      expect(text(lastGet!.request)).toContain('\r\nLast-Event-ID: 1/1\r\n');
      expect(lastGet!.body).toMatch(/^retry: 1000\n\n[\s\S]*data: \{"jsonrpc":"2.0","id":1,"result"/);
      // The patient client: the same stream shape, one GET after 1000 ms: progress and the result.
      expect(patientPost!.body).toBe('id: 2/0\nretry: 1000\ndata: \n\n');
      expect(text(patientGet!.request)).toContain('\r\nLast-Event-ID: 2/0\r\n');
      expect(patientGet!.body).toContain('"method":"notifications/progress"');
      expect(patientGet!.body).toMatch(/^retry: 1000\n\nid: 2\/1\n[\s\S]*\nid: 2\/3\ndata: \{"jsonrpc":"2.0","id":2,"result":\{"content":\[\{"type":"text","text":"worth the wait"\}\]/);
    });

    it('without the fault the same POST carries everything: the fault, not the card, ends the stream', async () => {
      const deps = pureHandlerDeps();
      const server = await deps.start([]);
      const { exchangeBytes } = await import('./http-cards.ts');
      const init = await exchangeBytes(await server.connect(), cardRequestBytes({ body: { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } } }, PAGE));
      const call = await exchangeBytes(
        await server.connect(),
        cardRequestBytes({ body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: { progressToken: 1 } } }, sessionId: init.sessionId! }, PAGE),
      );
      server.kill();
      expect(call.body).toMatch(/^id: 1\/0\nretry: 1000\ndata: \n\n[\s\S]*\{"jsonrpc":"2.0","id":1,/);
    });
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
      const { exchanges, polls } = await runHttpCard(id, { origin: PAGE, start: (faults) => startWorkerHttpWire({ ...HTTP_PROGRAM, faults: [...faults] }, PAGE) });
      statuses.push(`${id}: ${exchanges.map((exchange) => `${exchange.role} ${exchange.status}`).join(', ')}`);
      if (id === 'buffering-proxy') expect(exchanges.at(-1)!.pieces).toHaveLength(1);
      if (id === 'ignores-retry') {
        // Real time here, the same counts: they follow from the server's rule, not from the machine's speed.
        expect(polls!.impatient).toEqual({ retryMs: 1000, waits: Array(IMPATIENT_RESUMES_BEFORE_HOLD).fill(0), reconnects: IMPATIENT_RESUMES_BEFORE_HOLD, gotResult: true });
        expect(polls!.patient).toEqual({ retryMs: 1000, waits: [1000], reconnects: 1, gotResult: true });
      }
    }
    expect(statuses).toEqual([
      'missing-session: setup 200, symptom 400',
      'stale-session: setup 200, symptom 404, recovery 200',
      'foreign-origin: symptom 403',
      'missing-accept: symptom 406',
      'buffering-proxy: setup 200, setup 202, baseline 200, symptom 200',
      'ignores-retry: setup 200, setup 202, symptom 200, symptom 200, symptom 200, recovery 200, recovery 200',
    ]);
  });
});
