import { describe, expect, it } from 'vitest';
import { startWorkerHttpWire } from '../../../tests/support/http-worker-wire.ts';
import { HTTP_ECHO_TEXT, HTTP_STEPS, HttpSessionStore, MODERN_HTTP_STEPS } from './http-session-store.ts';

describe('HttpSessionStore', () => {
  it('steps through a whole session on the worker host, one exchange per arrow, and tracks what the client holds', async () => {
    const store = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec) });
    await store.step();
    let state = store.getSnapshot();
    expect(state).toMatchObject({ cursor: 1, status: { status: 'ready' }, host: 'worker' });
    expect(state.holds.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect(state.holds.protocolVersion).toBe('2025-11-25');
    expect(state.exchanges.map((exchange) => [exchange.request, exchange.status, exchange.step])).toEqual([['POST initialize', 200, 'initialize']]);

    await store.runToEnd();
    state = store.getSnapshot();
    expect(state.status).toEqual({ status: 'done' });
    expect(state.cursor).toBe(HTTP_STEPS.length);
    const byRequest = Object.fromEntries(state.exchanges.map((exchange) => [exchange.request, exchange]));
    expect(byRequest['POST notifications/initialized']).toMatchObject({ status: 202, step: 'initialized' });
    expect(byRequest.GET).toMatchObject({ status: 200, contentType: 'text/event-stream' });
    expect(byRequest['POST tools/call']).toMatchObject({ status: 200, contentType: 'text/event-stream', step: 'call', closed: true });
    expect(byRequest.DELETE).toMatchObject({ status: 200, step: 'delete' });
    // Kept as data, not an English sentence: the view words it (progress-seen-text.ts).
    expect(state.progress).toEqual([
      { progress: '0', total: '1', message: 'started' },
      { progress: '1', total: '1', message: 'finished' },
    ]);
    // The echoed text is multi-byte, so its request's Content-Length (bytes) is not its length in characters.
    const call = byRequest['POST tools/call']!;
    const joined = (parts: readonly Uint8Array[]) => new TextDecoder().decode(new Uint8Array(parts.flatMap((part) => [...part])));
    const byteLength = (text: string) => new TextEncoder().encode(text).length;
    const [head, body] = joined(call.c2s).split('\r\n\r\n') as [string, string];
    expect(body).toContain(HTTP_ECHO_TEXT);
    expect(Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1])).toBe(byteLength(body));
    expect(byteLength(body)).toBeGreaterThan(body.length);
    expect(joined(call.s2c)).toContain(HTTP_ECHO_TEXT);
    expect(state.holds).toEqual({ sessionId: null, protocolVersion: '2025-11-25', pending: [], openStreams: 0 });
  });

  it('says why when the host cannot start the server, and starts clean after restart', async () => {
    const store = new HttpSessionStore({ startProgram: () => Promise.reject(new Error('no host')) });
    await store.step();
    expect(store.getSnapshot().status).toEqual({ status: 'failed', reason: 'no host' });
    store.restart();
    expect(store.getSnapshot()).toMatchObject({ status: { status: 'idle' }, cursor: 0, exchanges: [] });
  });
});

describe('HttpSessionStore in 2026-07-28', () => {
  it('runs server/discover, tools/list and tools/call as POSTs only: _meta, Mcp-Method and Mcp-Name, no session id, no event ids', async () => {
    const store = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec) });
    store.setEra('modern');
    await store.runToEnd();
    const state = store.getSnapshot();
    expect(state.status).toEqual({ status: 'done' });
    expect(state.cursor).toBe(MODERN_HTTP_STEPS.length);
    expect(state.exchanges.map((exchange) => [exchange.request, exchange.status, exchange.step])).toEqual([
      ['POST server/discover', 200, 'discover'],
      ['POST tools/list', 200, 'list'],
      ['POST tools/call', 200, 'modern-call'],
    ]);
    const text = (parts: readonly Uint8Array[]) => new TextDecoder().decode(new Uint8Array(parts.flatMap((part) => [...part])));
    for (const exchange of state.exchanges) {
      const [head, body] = text(exchange.c2s).split('\r\n\r\n') as [string, string];
      const method = (JSON.parse(body) as { method: string }).method;
      expect(head).toMatch(/^POST /);
      expect(head).toMatch(new RegExp(`\\r\\nmcp-method: ${method}\\r\\n`, 'i'));
      expect(head).toMatch(/\r\nmcp-protocol-version: 2026-07-28\r\n/i);
      expect(head).not.toMatch(/mcp-session-id/i);
      expect(JSON.parse(body)).toMatchObject({ params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} } } });
      expect(text(exchange.s2c)).not.toMatch(/mcp-session-id/i);
    }
    const call = state.exchanges[2]!;
    expect(text(call.c2s)).toMatch(/\r\nmcp-name: echo\r\n/i);
    expect(call.contentType).toBe('text/event-stream');
    const events = text(call.s2c).split('\r\n\r\n').slice(1).join('\r\n\r\n');
    expect(events).toContain('data: ');
    expect(events).not.toMatch(/^id:/m);
    expect(events).toContain(HTTP_ECHO_TEXT);
    expect(state.progress).toEqual([
      { progress: '0', total: '1', message: 'started' },
      { progress: '1', total: '1', message: 'finished' },
    ]);
    expect(state.holds).toEqual({ sessionId: null, protocolVersion: '2026-07-28', pending: [], openStreams: 0 });
    store.restart();
  });

  it('has no learner driver in 2026-07-28, and switching era starts over', async () => {
    const store = new HttpSessionStore({ startProgram: (spec) => startWorkerHttpWire(spec), createLearnerDriver: () => Promise.reject(new Error('not here')) });
    store.setClient('learner');
    expect(store.getSnapshot().client).toBe('learner');
    store.setEra('modern');
    expect(store.getSnapshot()).toMatchObject({ era: 'modern', client: 'reference', cursor: 0, status: { status: 'idle' } });
    store.setClient('learner');
    expect(store.getSnapshot().client).toBe('reference');
  });
});
