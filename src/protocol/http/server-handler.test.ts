import { afterEach, describe, expect, it, vi } from 'vitest';
import { ECHO_SERVER_INFO } from '../echo-tools.ts';
import { createHttpHandler, type HttpHandlerOptions } from './server-handler.ts';
import { deferred, eventReader, get, INITIALIZE, jsonBody, messageOf, post, testServerFactory, type Deferred } from './test-helpers.ts';
import type { ServerChannel } from './server-session.ts';
import type { HttpRequest } from './types.ts';

function setup(options: Partial<HttpHandlerOptions> = {}) {
  const gate: { current: Deferred<void> } = { current: deferred() };
  const channels: ServerChannel[] = [];
  const handler = createHttpHandler({ createServer: testServerFactory(gate, channels), retryMs: 5, ...options });
  async function initialize(): Promise<Record<string, string>> {
    const response = await handler.handle(post(INITIALIZE));
    const sessionId = response.headers['mcp-session-id']!;
    const headers = { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' };
    expect((await handler.handle(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).status).toBe(202);
    return headers;
  }
  return { handler, gate, channels, initialize };
}

const call = (id: number, method: string, params?: unknown) => ({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('Streamable HTTP handler: where and who', () => {
  it('answers 404 outside the one endpoint, and ignores a query string on it', async () => {
    const { handler } = setup();
    expect((await handler.handle({ ...post(INITIALIZE), path: '/other' })).status).toBe(404);
    expect((await handler.handle({ ...post(INITIALIZE), path: '/mcp?x=1' })).status).toBe(200);
  });

  it('refuses a Host that is not one of its names (DNS rebinding) with 403, whatever the port', async () => {
    const { handler } = setup();
    expect((await handler.handle(post(INITIALIZE, { host: 'evil.example.com' }))).status).toBe(403);
    expect((await handler.handle(post(INITIALIZE, { host: 'evil.example.com:3000' }))).status).toBe(403);
    const noHost: HttpRequest = post(INITIALIZE);
    const { host: _, ...headers } = noHost.headers;
    expect((await handler.handle({ ...noHost, headers })).status).toBe(403);
    for (const host of ['localhost', 'localhost:1234', '127.0.0.1:3000', '[::1]:80', 'LOCALHOST']) {
      expect((await handler.handle(post(INITIALIZE, { host }))).status).toBe(200);
    }
  });

  it('refuses a foreign Origin with 403 and a JSON-RPC error without id; accepts its own names and listed origins', async () => {
    const { handler } = setup({ allowedOrigins: ['https://playground.example'] });
    const refused = await handler.handle(post(INITIALIZE, { origin: 'http://evil.example.com' }));
    expect(refused.status).toBe(403);
    expect(jsonBody(refused)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('Origin') } });
    expect((await handler.handle(post(INITIALIZE, { origin: 'null' }))).status).toBe(403);
    expect((await handler.handle(post(INITIALIZE, { origin: 'http://localhost:5173' }))).status).toBe(200);
    expect((await handler.handle(post(INITIALIZE, { origin: 'https://playground.example' }))).status).toBe(200);
  });

  it('answers other methods with 405 and an Allow header', async () => {
    const { handler } = setup();
    const response = await handler.handle({ ...get(), method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST, GET, DELETE');
    const noGet = setup({ standaloneStream: false, allowDelete: false }).handler;
    expect((await noGet.handle(get())).status).toBe(405);
    expect((await noGet.handle({ ...get(), method: 'DELETE' })).headers.allow).toBe('POST');
  });
});

describe('Streamable HTTP handler: POST', () => {
  it('needs Accept with both JSON and SSE (406) and a JSON body (415)', async () => {
    const { handler } = setup();
    expect((await handler.handle(post(INITIALIZE, { accept: 'application/json' }))).status).toBe(406);
    expect((await handler.handle(post(INITIALIZE, { accept: 'text/event-stream' }))).status).toBe(406);
    expect((await handler.handle(post(INITIALIZE, { accept: 'text/event-stream;q=0.9, application/json' }))).status).toBe(200);
    expect((await handler.handle(post(INITIALIZE, { 'content-type': 'text/plain' }))).status).toBe(415);
    expect((await handler.handle(post(INITIALIZE, { 'content-type': 'application/json; charset=utf-8' }))).status).toBe(200);
  });

  it('answers a body that is not one JSON-RPC message with 400 and an error without id', async () => {
    const { handler } = setup();
    const notJson = await handler.handle(post('{"jsonrpc":'));
    expect(notJson.status).toBe(400);
    expect(jsonBody(notJson)).toEqual({ jsonrpc: '2.0', error: { code: -32700, message: expect.any(String) } });
    const batch = await handler.handle(post([INITIALIZE]));
    expect(batch.status).toBe(400);
    expect(jsonBody(batch)).toMatchObject({ error: { code: -32600 } });
  });

  it('starts a session on initialize: a visible-ASCII, random Mcp-Session-Id on the result', async () => {
    const { handler } = setup();
    const first = await handler.handle(post(INITIALIZE));
    const second = await handler.handle(post(INITIALIZE));
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toBe('application/json');
    expect(jsonBody(first)).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25', serverInfo: ECHO_SERVER_INFO } });
    const id = first.headers['mcp-session-id']!;
    expect(id).toMatch(/^[\x21-\x7e]{32}$/);
    expect(second.headers['mcp-session-id']).not.toBe(id);
    expect(handler.sessionCount).toBe(2);
  });

  it('keeps no session when initialize fails', async () => {
    const { handler } = setup();
    const response = await handler.handle(post({ ...INITIALIZE, params: {} }));
    expect(jsonBody(response)).toMatchObject({ error: { code: -32602 } });
    expect(response.headers['mcp-session-id']).toBeUndefined();
    expect(handler.sessionCount).toBe(0);
  });

  it('needs the session id after initialize: 400 without, 404 when unknown', async () => {
    const { handler, initialize } = setup();
    await initialize();
    expect((await handler.handle(post(call(1, 'tools/list')))).status).toBe(400);
    const unknown = await handler.handle(post(call(1, 'tools/list'), { 'mcp-session-id': 'nope' }));
    expect(unknown.status).toBe(404);
    expect(jsonBody(unknown)).toMatchObject({ error: { code: -32001 } });
  });

  it('checks MCP-Protocol-Version: 400 when unsupported, the session version when absent', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    expect((await handler.handle(post(call(1, 'ping'), { ...headers, 'mcp-protocol-version': '1900-01-01' }))).status).toBe(400);
    expect((await handler.handle(post(call(2, 'ping'), { ...headers, 'mcp-protocol-version': '2025-03-26' }))).status).toBe(200);
    const { 'mcp-protocol-version': _, ...withoutVersion } = headers;
    expect(jsonBody(await handler.handle(post(call(3, 'ping'), withoutVersion)))).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('answers a notification or a response with 202 and no body', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    const notification = await handler.handle(post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 9 } }, headers));
    expect(notification).toEqual({ status: 202, headers: {}, body: { type: 'none' } });
    expect((await handler.handle(post({ jsonrpc: '2.0', id: 5, result: {} }, headers))).status).toBe(202);
  });

  it('with the reply-to-notification fault, answers a notification with 200 and the orphan reply', async () => {
    const { handler } = setup({ faults: ['reply-to-notification'] });
    const headers = { 'mcp-session-id': (await handler.handle(post(INITIALIZE))).headers['mcp-session-id']! };
    const response = await handler.handle(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    expect(response.status).toBe(200);
    expect(jsonBody(response)).toEqual({ jsonrpc: '2.0', result: {} });
  });

  it('answers a plain request with one JSON object', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    const response = await handler.handle(post(call(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' } }), headers));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(jsonBody(response)).toEqual({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } });
  });

  it('streams a request that carries a progress token: priming event (id, empty data, retry) first, then the response, then the end', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    const response = await handler.handle(post(call(1, 'tools/call', { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 'p1' } }), headers));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/event-stream');
    const events = eventReader(response.body);
    const all = await events.rest();
    expect(all[0]).toEqual({ type: 'message', data: '', id: expect.stringMatching(/\/0$/) });
    expect(events.retry()).toBe(5);
    expect(all.slice(1).map(messageOf)).toEqual([{ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hi' }] } }]);
    expect(new Set(all.map((event) => event.id)).size).toBe(all.length);
  });

  it('switches to a stream when the server sends something related before the response', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    const response = await handler.handle(post(call(7, 'test/related'), headers));
    expect(response.headers['content-type']).toBe('text/event-stream');
    const messages = (await eventReader(response.body).rest()).slice(1).map(messageOf);
    expect(messages).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
      { jsonrpc: '2.0', id: 7, result: { done: true } },
    ]);
  });

  it('sends a related message that comes after a JSON answer on the standalone stream, never on two', async () => {
    const { handler, initialize, gate } = setup();
    const headers = await initialize();
    const standalone = eventReader((await handler.handle(get(headers))).body);
    expect(jsonBody(await handler.handle(post(call(1, 'test/related-late'), headers)))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    gate.current.resolve();
    const [priming, late] = await standalone.next(2);
    expect(priming!.data).toBe('');
    expect(messageOf(late!)).toMatchObject({ method: 'notifications/message', params: { data: 'late' } });
  });
});

describe('Streamable HTTP handler: GET, resumption, DELETE', () => {
  it('needs Accept: text/event-stream (406) and a session (400/404)', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    expect((await handler.handle(get({ ...headers, accept: 'application/json' }))).status).toBe(406);
    expect((await handler.handle(get())).status).toBe(400);
    expect((await handler.handle(get({ 'mcp-session-id': 'gone' }))).status).toBe(404);
  });

  it('opens the standalone stream once at a time (409), carrying what the server sends on its own', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    const response = await handler.handle(get(headers));
    expect(response.headers['content-type']).toBe('text/event-stream');
    expect((await handler.handle(get(headers))).status).toBe(409);
    const events = eventReader(response.body);
    expect(jsonBody(await handler.handle(post(call(1, 'test/unrelated'), headers)))).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const [priming, notification] = await events.next(2);
    expect(priming).toEqual({ type: 'message', data: '', id: 'get/0' });
    expect(messageOf(notification!)).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  });

  it('keeps server messages sent while no GET stream is open for the next GET', async () => {
    const { handler, initialize, channels } = setup();
    const headers = await initialize();
    channels[0]!.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    const [, held] = await eventReader((await handler.handle(get(headers))).body).next(2);
    expect(messageOf(held!)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
  });

  it('resumes a POST stream whose connection dropped: GET with Last-Event-ID replays what came after, on that stream only', async () => {
    const { handler, initialize, gate } = setup();
    const headers = await initialize();
    const response = await handler.handle(post(call(3, 'test/wait', { _meta: { progressToken: 1 } }), headers));
    const events = eventReader(response.body);
    const [priming, waiting] = await events.next(2);
    expect(messageOf(waiting!)).toMatchObject({ method: 'notifications/message' });
    if (response.body.type === 'stream') response.body.stream.cancel(); // the connection drops
    // Meanwhile another request's stream and the standalone stream carry messages of their own.
    await eventReader((await handler.handle(post(call(4, 'test/related'), headers))).body).rest();
    expect(jsonBody(await handler.handle(post(call(5, 'test/unrelated'), headers)))).toMatchObject({ id: 5 });
    gate.current.resolve();
    await Promise.resolve();

    const fromPriming = await eventReader((await handler.handle(get({ ...headers, 'last-event-id': priming!.id }))).body).rest();
    expect(fromPriming.map(messageOf)).toEqual([messageOf(waiting!), { jsonrpc: '2.0', id: 3, result: { waited: true } }]);
    const afterWaiting = await eventReader((await handler.handle(get({ ...headers, 'last-event-id': waiting!.id }))).body).rest();
    expect(afterWaiting.map(messageOf)).toEqual([{ jsonrpc: '2.0', id: 3, result: { waited: true } }]);
    expect((await handler.handle(get({ ...headers, 'last-event-id': 'nonsense' }))).status).toBe(400);
  });

  it('closes a connection but not its stream when the server asks (SSE polling); the client resumes from the last id', async () => {
    const { handler, initialize, gate } = setup();
    const headers = await initialize();
    const response = await handler.handle(post(call(8, 'test/poll'), headers));
    expect(response.headers['content-type']).toBe('text/event-stream');
    const first = eventReader(response.body);
    const before = await first.rest(); // the connection ends here, without the response
    expect(before.map((event) => event.data === '' ? 'priming' : messageOf(event))).toEqual(['priming', expect.objectContaining({ method: 'notifications/message' })]);
    expect(first.retry()).toBe(5);
    gate.current.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const resumed = eventReader((await handler.handle(get({ ...headers, 'last-event-id': before[1]!.id }))).body);
    expect((await resumed.rest()).map(messageOf)).toEqual([{ jsonrpc: '2.0', id: 8, result: { polled: true } }]);
    expect(resumed.retry()).toBe(5); // every connection says how long to wait before the next one
  });

  it('with the close-streams-early fault, ends every connection of a request stream once written, until the response: the client polls', async () => {
    const { handler, initialize, gate } = setup({ faults: ['close-streams-early'] });
    const headers = await initialize();
    const response = await handler.handle(post(call(9, 'test/wait', { _meta: { progressToken: 1 } }), headers));
    expect(response.headers['content-type']).toBe('text/event-stream');
    const first = eventReader(response.body);
    // The connection ends right after the priming event: id and retry, no message yet.
    const primed = await first.rest();
    expect(primed.map((event) => [event.id, event.data])).toEqual([['1/0', '']]);
    expect(first.retry()).toBe(5);
    // A resume at once gets what the server sent meanwhile, then that connection ends too.
    const again = eventReader((await handler.handle(get({ ...headers, 'last-event-id': '1/0' }))).body);
    const meanwhile = await again.rest();
    expect(meanwhile.map(messageOf)).toEqual([expect.objectContaining({ method: 'notifications/message' })]);
    expect(again.retry()).toBe(5);
    // Nothing new: a connection with only the retry field, ended at once.
    const empty = eventReader((await handler.handle(get({ ...headers, 'last-event-id': meanwhile[0]!.id }))).body);
    expect(await empty.rest()).toEqual([]);
    expect(empty.retry()).toBe(5);
    gate.current.resolve();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const last = eventReader((await handler.handle(get({ ...headers, 'last-event-id': meanwhile[0]!.id }))).body);
    expect((await last.rest()).map(messageOf)).toEqual([{ jsonrpc: '2.0', id: 9, result: { waited: true } }]);
    // The standalone GET stream is not affected: it stays open.
    const standalone = eventReader((await handler.handle(get(headers))).body);
    expect((await standalone.next()).map((event) => event.data)).toEqual(['']);
    const unrelated = await handler.handle(post(call(10, 'test/unrelated'), headers));
    expect(jsonBody(unrelated)).toMatchObject({ id: 10 });
    expect((await standalone.next()).map(messageOf)).toEqual([expect.objectContaining({ method: 'notifications/tools/list_changed' })]);
  });

  it('ends the session on DELETE: 200, open streams end, then 404 for that id', async () => {
    const { handler, initialize } = setup();
    const headers = await initialize();
    const standalone = eventReader((await handler.handle(get(headers))).body);
    expect((await handler.handle({ ...get(headers), method: 'DELETE' })).status).toBe(200);
    expect((await standalone.rest()).map((event) => event.data)).toEqual(['']);
    expect((await handler.handle(post(call(1, 'ping'), headers))).status).toBe(404);
    expect((await handler.handle({ ...get(headers), method: 'DELETE' })).status).toBe(404);
    expect(handler.sessionCount).toBe(0);
  });
});

describe('Streamable HTTP handler: bounds (issue 22)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  const ping = (handler: ReturnType<typeof setup>['handler'], headers: Record<string, string>, id = 1) => handler.handle(post(call(id, 'ping'), headers));

  it('caps sessions: initialize beyond maxSessions ends the least recently used one, not the oldest', async () => {
    const { handler, initialize } = setup({ maxSessions: 2 });
    const a = await initialize();
    const b = await initialize();
    expect((await ping(handler, a)).status).toBe(200); // a is now more recent than b
    const c = await initialize();
    expect(handler.sessionCount).toBe(2);
    expect((await ping(handler, b)).status).toBe(404);
    expect((await ping(handler, a)).status).toBe(200);
    expect((await ping(handler, c)).status).toBe(200);
  });

  it('ends a session no request named for sessionIdleMs (fake clock); a request restarts its count', async () => {
    vi.useFakeTimers();
    const { handler, initialize } = setup({ sessionIdleMs: 1_000, streamIdleMs: 60_000 });
    const a = await initialize();
    const b = await initialize();
    vi.advanceTimersByTime(600);
    expect((await ping(handler, a)).status).toBe(200);
    vi.advanceTimersByTime(600);
    // b was idle 1200 ms: gone; a 600 ms: kept.
    expect(handler.sessionCount).toBe(1);
    expect((await ping(handler, b)).status).toBe(404);
    expect((await ping(handler, a)).status).toBe(200);
    vi.advanceTimersByTime(1_300);
    expect(handler.sessionCount).toBe(0);
    expect((await ping(handler, a)).status).toBe(404);
  });

  it('closes a stream connection idle for streamIdleMs (the stream stays resumable); a listening session is not idle until then', async () => {
    vi.useFakeTimers();
    const { handler, initialize, channels } = setup({ sessionIdleMs: 1_000, streamIdleMs: 2_000 });
    const headers = await initialize();
    const response = await handler.handle(get(headers));
    if (response.body.type !== 'stream') throw new Error('expected a stream');
    const connection = response.body.stream as unknown as { open: boolean };
    vi.advanceTimersByTime(1_500);
    // Past the session limit, but a client is listening: the session stays.
    expect(handler.sessionCount).toBe(1);
    channels[0]!.send({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    vi.advanceTimersByTime(1_500);
    expect(connection.open).toBe(true); // the event 1.5 s ago restarted the stream's count
    vi.advanceTimersByTime(1_000);
    expect(connection.open).toBe(false);
    // The stream itself is kept: a resume (a request, so the session is used again) replays it.
    const resumed = await handler.handle(get({ ...headers, 'last-event-id': 'get/0' }));
    expect(resumed.status).toBe(200);
    const [replayed] = await eventReader(resumed.body).next(1);
    expect(messageOf(replayed!)).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/list_changed' });
    // Nothing more: the resumed connection goes idle and closes, then the session ends.
    vi.advanceTimersByTime(2_500);
    expect(handler.sessionCount).toBe(1);
    vi.advanceTimersByTime(1_000);
    expect(handler.sessionCount).toBe(0);
  });

  it('holds no timer once the last session is gone', async () => {
    vi.useFakeTimers();
    const { handler, initialize } = setup({ sessionIdleMs: 100, streamIdleMs: 100 });
    await initialize();
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(200);
    expect(handler.sessionCount).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('with anyLoopbackOrigin false, accepts only the listed origins (another local page is foreign)', async () => {
    const { handler } = setup({ anyLoopbackOrigin: false, allowedOrigins: ['http://127.0.0.1:3000'] });
    expect((await handler.handle(post(INITIALIZE, { origin: 'http://localhost:5173' }))).status).toBe(403);
    expect((await handler.handle(post(INITIALIZE, { origin: 'http://127.0.0.1:3001' }))).status).toBe(403);
    expect((await handler.handle(post(INITIALIZE, { origin: 'http://127.0.0.1:3000' }))).status).toBe(200);
    expect((await handler.handle(post(INITIALIZE))).status).toBe(200); // no Origin: not a browser
  });
});
