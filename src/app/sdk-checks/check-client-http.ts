// "Check my client", HTTP mode: the learner's exercise-6 module (HttpClientTransport with their
// SseReader, under the project's McpClient) runs in the learner worker (LearnerHttpDriver), and its
// requests cross the page's HTTP wire to `sdk-http-server` — the OFFICIAL SDK 1.32.2's Streamable
// HTTP server (WebStandardStreamableHTTPServerTransport) — on the live host: a Node process behind
// the bridge's relay, or the same SDK handler served over HTTP/1.1 bytes in a worker. The checks
// judge the client by what the SDK answers, and its requests by the bytes the server read (the
// relayed connection's tap events): the session id and version headers are read off the wire.
//
// The SDK answers each POSTed request with an event stream, so every request-answer check reads
// the learner's SseReader as well.

import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { Http1Reader } from '../../protocol/http/http1-reader.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { base64ToBytes } from '../../runtime/tap-protocol.ts';
import type { CallOutcome, DriverOp } from '../../sandbox/client-driver.ts';
import { HttpExchangeRecorder, type HttpExchangeRecord } from '../protocol/http-exchanges.ts';
import { describeLearnerError } from '../protocol/http-step-clients.ts';
import type { LearnerHttpDriver } from '../protocol/learner-http-driver.ts';
import { HTTP_WIRE_URL } from '../../runtime/http-tap-wire.ts';
import { CheckFailure, DEFAULT_CHECK_LIMIT_MS, errorReport, pretty, runChecks, type Check, type CheckResult, type SdkCheckReport } from './check-run.ts';
import { CLIENT_CHECK_TEXT } from './check-client.ts';
import { watchServer, type ServerWatch } from './server-watch.ts';

/** The name the SDK HTTP server gives in its initialize result (src/runtime/sdk-http-echo.ts). */
export const SDK_HTTP_SERVER_NAME = 'sdk-http-server';
const FILE = 'streamable-client.ts';

export interface HttpClientCheckContext {
  driver: LearnerHttpDriver;
  watch: ServerWatch;
  wire: WireExchanges;
  /** Rejects when the learner's code failed outside a call (an uncaught throw, a stuck worker). */
  failed: Promise<never>;
  /** What the earlier checks learned: the session id on the wire, the negotiated version. */
  session: { id: string | null; version: string | null };
}

/** The relayed connections of the check's wire, as exchanges, with a way to wait for one. */
export interface WireExchanges {
  exchanges(): readonly HttpExchangeRecord[];
  until(done: (exchange: HttpExchangeRecord) => boolean): Promise<HttpExchangeRecord>;
  dispose(): void;
}

function wireExchanges(wire: HttpWire): WireExchanges {
  const recorder = new HttpExchangeRecorder();
  const waiters = new Set<() => void>();
  const stop = wire.onTapEvent((event) => {
    if (!('conn' in event) || event.conn === undefined) return;
    recorder.add(event.ev === 'c2s' || event.ev === 's2c' ? { conn: event.conn, ev: event.ev, bytes: base64ToBytes(event.b64) } : { conn: event.conn, ev: event.ev === 'open' ? 'open' : 'close' });
    for (const wake of [...waiters]) wake();
  });
  return {
    exchanges: () => recorder.records,
    until(done) {
      return new Promise((resolve) => {
        const wake = () => {
          const found = recorder.records.find(done);
          if (found === undefined) return;
          waiters.delete(wake);
          resolve(found);
        };
        waiters.add(wake);
        wake();
      });
    },
    dispose() {
      stop();
      waiters.clear();
    },
  };
}

/** One operation of the learner's client; a rejection (or their code failing meanwhile) becomes a failure quoting their error. */
async function perform({ driver, failed }: HttpClientCheckContext, op: DriverOp, what: string): Promise<unknown> {
  const outcome: CallOutcome = await Promise.race([driver.perform(op), failed]);
  if (outcome.ok) return outcome.value;
  throw new CheckFailure(`${what} threw ${describeLearnerError(outcome.error, FILE)}`);
}

/** Wait for an exchange, or fail with the learner's error if their code fails first. */
function exchange(context: HttpClientCheckContext, done: (exchange: HttpExchangeRecord) => boolean): Promise<HttpExchangeRecord> {
  return Promise.race([context.wire.until(done), context.failed]);
}

/** The request's head as the server read it: header names lower-case. */
function requestHeaders(exchange: HttpExchangeRecord): Record<string, string> {
  const reader = new Http1Reader('request');
  for (const chunk of exchange.c2s) {
    for (const item of reader.push(chunk)) if (item.type === 'head-end') return { ...item.head.headers } as Record<string, string>;
  }
  return {};
}

function textOf(result: unknown): string | null {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return null;
  return content.map((block) => ((block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text) : '')).join('');
}

/** The headers a request after initialize must carry: the session id and the negotiated version. */
function expectSessionHeaders(context: HttpClientCheckContext, found: HttpExchangeRecord, what: string): void {
  const headers = requestHeaders(found);
  const want = { 'mcp-session-id': context.session.id, 'mcp-protocol-version': context.session.version };
  const seen = { 'mcp-session-id': headers['mcp-session-id'] ?? null, 'mcp-protocol-version': headers['mcp-protocol-version'] ?? null };
  if (seen['mcp-session-id'] !== want['mcp-session-id'] || seen['mcp-protocol-version'] !== want['mcp-protocol-version']) {
    throw new CheckFailure(`${what} must carry the session's Mcp-Session-Id (from the initialize response) and MCP-Protocol-Version (from its result).`, pretty(want), pretty(seen));
  }
}

/** A check that needs the session fails at once without one, instead of waiting for bytes that cannot come. */
function requireSession(context: HttpClientCheckContext): void {
  if (context.session.id === null) throw new CheckFailure('No session: initialize did not succeed, so there is nothing to continue.');
}

export const HTTP_CLIENT_CHECKS: readonly Check<HttpClientCheckContext>[] = [
  {
    id: 'http-initialize',
    title: `initialize: POST answered 200 with an Mcp-Session-Id, and the result from ${SDK_HTTP_SERVER_NAME}`,
    code: 'const result = await client.initialize(); // POST, Accept: application/json, text/event-stream',
    async run(context) {
      const result = (await perform(context, { op: 'initialize' }, 'initialize()')) as { protocolVersion?: unknown; serverInfo?: { name?: unknown } } | null;
      if (typeof result?.protocolVersion !== 'string' || !SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        throw new CheckFailure("initialize() should resolve to the server's result, whose protocolVersion the SDK supports.", `one of ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}`, pretty(result?.protocolVersion));
      }
      if (result.serverInfo?.name !== SDK_HTTP_SERVER_NAME) throw new CheckFailure("initialize() should resolve to the server's result, serverInfo included.", pretty(SDK_HTTP_SERVER_NAME), pretty(result.serverInfo));
      const found = context.wire.exchanges().find((entry) => entry.request === 'POST initialize');
      if (found?.status !== 200 || found.sessionId === null) {
        throw new CheckFailure('The initialize POST should be answered 200 with an Mcp-Session-Id header: the session the client keeps.', '200 with Mcp-Session-Id', pretty({ status: found?.status ?? null, sessionId: found?.sessionId ?? null }));
      }
      context.session.id = found.sessionId;
      context.session.version = result.protocolVersion;
    },
  },
  {
    id: 'http-initialized',
    title: 'notifications/initialized: a POST with the session id and version headers, answered 202 Accepted',
    code: 'client.notifyInitialized(); // → 202, no body',
    async run(context) {
      requireSession(context);
      await perform(context, { op: 'notifyInitialized' }, 'notifyInitialized()');
      const found = await exchange(context, (entry) => entry.request === 'POST notifications/initialized' && entry.status !== null);
      if (found.status !== 202) throw new CheckFailure('The SDK server answers a notification with 202 Accepted.', '202', pretty(found.status));
      expectSessionHeaders(context, found, 'The POST of notifications/initialized');
    },
  },
  {
    id: 'http-list-tools',
    title: 'tools/list: the SDK server answers on an event stream, and listTools resolves with echo',
    code: 'const tools = await client.listTools(); // the answer arrives as an SSE event',
    async run(context) {
      const value = await perform(context, { op: 'listTools' }, 'listTools()');
      const names = Array.isArray(value) ? value.map((tool) => (tool as { name?: unknown })?.name) : null;
      if (names === null || !names.includes('echo')) throw new CheckFailure('listTools() should resolve to the tools, echo among them.', '[{ "name": "echo", … }]', pretty(value));
      const found = context.wire.exchanges().find((entry) => entry.request === 'POST tools/list');
      if (found) expectSessionHeaders(context, found, 'The POST of tools/list');
    },
  },
  {
    id: 'http-call-echo',
    title: 'tools/call echo: the text comes back unchanged, through your SseReader',
    code: `await client.callTool('echo', { text: ${JSON.stringify(CLIENT_CHECK_TEXT)} });`,
    async run(context) {
      const result = await perform(context, { op: 'callTool', name: 'echo', args: { text: CLIENT_CHECK_TEXT } }, 'callTool("echo")');
      if ((result as { isError?: unknown } | null)?.isError === true || textOf(result) !== CLIENT_CHECK_TEXT) {
        throw new CheckFailure('callTool("echo") did not resolve to the echoed text (a multi-byte text: split bytes must be joined before decoding).', pretty({ content: [{ type: 'text', text: CLIENT_CHECK_TEXT }] }), pretty(result));
      }
    },
  },
  {
    id: 'http-delete',
    title: 'close: DELETE with the session id ends the session (200)',
    code: 'client.close(); // your transport\'s end(): DELETE',
    async run(context) {
      requireSession(context);
      await perform(context, { op: 'close' }, 'close()');
      const found = await exchange(context, (entry) => entry.request === 'DELETE' && entry.status !== null);
      if (found.status !== 200) throw new CheckFailure('The SDK server answers the DELETE of a live session with 200.', '200', pretty(found.status));
      const headers = requestHeaders(found);
      if (headers['mcp-session-id'] !== context.session.id) throw new CheckFailure('The DELETE must name the session it ends.', pretty(context.session.id), pretty(headers['mcp-session-id'] ?? null));
    },
  },
];

export interface HttpClientCheckOptions {
  limitMs?: number;
  onResult?(result: CheckResult, index: number, total: number): void;
}

/** Starts the learner's exercise-6 module (through `driver`) on a started sdk-http-server, runs every check, cleans up. */
export async function checkHttpClient(wire: HttpWire, driver: LearnerHttpDriver, options: HttpClientCheckOptions = {}): Promise<SdkCheckReport> {
  const watch = watchServer(wire);
  const exchanges = wireExchanges(wire);
  let fail: (error: Error) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  driver.onEvent((event) => {
    if (event.type === 'uncaught') fail(new CheckFailure(`Your code threw where nobody could catch it: ${describeLearnerError(event.error, FILE)}`));
    else if (event.type === 'crashed') fail(new CheckFailure(event.reason));
  });
  try {
    const started = await driver.start(wire.exchange, HTTP_WIRE_URL);
    if (!started.ok) return errorReport('client', `Your exercise 6 module did not start: ${describeLearnerError(started.error, FILE)}`);
    const context: HttpClientCheckContext = { driver, watch, wire: exchanges, failed, session: { id: null, version: null } };
    return await runChecks(HTTP_CLIENT_CHECKS, context, { suite: 'client', limitMs: options.limitMs ?? DEFAULT_CHECK_LIMIT_MS, watch, onResult: options.onResult });
  } finally {
    exchanges.dispose();
    watch.dispose();
    driver.dispose();
    wire.kill();
  }
}
