// The failure lab's HTTP cards: requests the page's own client never sends (no session id, a
// foreign Origin, no Accept, a session id from before a restart), written byte for byte on a raw
// relayed TCP connection to mcp-http on the live host, and the server's answer read back with the
// page's HTTP/1.1 reader. A browser's fetch could not send most of them (Origin is a forbidden
// header); here the page writes the HTTP/1.1 bytes itself, so each card sends exactly its request.
// React-free and host-free: a card runs against anything that opens ByteConnections to the server.

import type { FaultName } from '../../protocol/faults.ts';
import { SseReader } from '../../protocol/framing/sse.ts';
import type { ByteConnection } from '../../protocol/http/byte-connection.ts';
import { HOLD_AFTER_RESUMES_META, IMPATIENT_RESUMES_BEFORE_HOLD } from '../../protocol/http/event-stream.ts';
import { Http1Reader } from '../../protocol/http/http1-reader.ts';
import { serializeRequest, type HeaderLine } from '../../protocol/http/http1-writer.ts';

export const HTTP_CARD_IDS = ['missing-session', 'stale-session', 'foreign-origin', 'missing-accept', 'buffering-proxy', 'ignores-retry'] as const;
export type HttpCardId = (typeof HTTP_CARD_IDS)[number];

/** What a card plays each exchange as: preparing the failure, the failure itself, the client's way out. */
export type ExchangeRole = 'setup' | 'baseline' | 'symptom' | 'recovery';

export interface HttpCardExchange {
  role: ExchangeRole;
  /** The exact bytes written on the connection. */
  request: Uint8Array;
  /** Every byte that came back, as it came. */
  response: Uint8Array;
  status: number;
  /** `HTTP/1.1 400 Bad Request` */
  statusLine: string;
  /** The response body as text (UTF-8). */
  body: string;
  /** The Mcp-Session-Id the response carried, if any. */
  sessionId: string | null;
  /** The Mcp-Session-Id the request carried, if any: the stale-session card shows the old one going out. */
  sentSessionId: string | null;
  /** Per piece the response arrived in (one onData each), how many SSE events it completed. */
  pieces: number[];
}

export interface HttpCardResult {
  id: HttpCardId;
  exchanges: HttpCardExchange[];
  /** ignores-retry: how each client polled the stream the server kept closing. */
  polls?: { impatient: PollRun; patient: PollRun };
}

/** One client polling one request's event stream until its response came (or it gave up). */
export interface PollRun {
  /** The `retry` the server sent, in ms (the last one seen). */
  retryMs: number | null;
  /** How long the client waited before each reconnect, in ms, as it decided. */
  waits: number[];
  /** GETs with Last-Event-ID after the POST. */
  reconnects: number;
  /** Its JSON-RPC response arrived. */
  gotResult: boolean;
}

/** One running mcp-http: raw connections to it, and a way to stop it. */
export interface RawHttpServer {
  connect(): Promise<ByteConnection>;
  kill(): void;
}

export interface HttpCardDeps {
  /** Start mcp-http on the live host with these faults (a fresh process each time: the stale-session card restarts it). */
  start(faults: readonly FaultName[]): Promise<RawHttpServer>;
  /** The Origin the page's client sends (its own); undefined sends none. */
  origin?: string;
  /** Wait before a reconnect; default setTimeout. Tests pass one on fake timers. */
  sleep?: (ms: number) => Promise<void>;
}

/** The server mode a card needs: ignores-retry runs mcp-http with --fault=close-streams-early. */
export const HTTP_CARD_FAULTS: Readonly<Record<HttpCardId, readonly FaultName[]>> = {
  'missing-session': [],
  'stale-session': [],
  'foreign-origin': [],
  'missing-accept': [],
  'buffering-proxy': [],
  'ignores-retry': ['close-streams-early'],
};

/** The impatient client is stopped here, whatever happens: a runaway loop must not outlive the card. */
export const MAX_POLL_RECONNECTS = 500;
/** What a client waits when the stream said no `retry` (ours always does). */
const RETRY_UNSAID_MS = 1000;

/** The origin a DNS-rebinding page would carry: an attacker's name, pointed at 127.0.0.1. */
export const FOREIGN_ORIGIN = 'http://evil.example';
const ACCEPT_BOTH = 'application/json, text/event-stream';
const CLIENT_INFO = { name: 'failure-lab', version: '1.0.0' };
const utf8 = new TextEncoder();
const readUtf8 = new TextDecoder();

/** The request a card sends, as header lines and a JSON body; `omit` drops a header the client would send. */
interface RequestSpec {
  body: unknown;
  origin?: string | null;
  accept?: string | null;
  sessionId?: string;
}

const initialize = (id: number) => ({ jsonrpc: '2.0', id, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO } });
const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const INITIALIZED = { jsonrpc: '2.0', method: 'notifications/initialized' };
/** Progress 0 goes out when the call starts, the result after `ms`: two moments a stream can show apart. */
export const SLOW_CALL_MS = 400;
const slowCall = (id: number, text = 'through a proxy?', holdAfterResumes?: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: {
    name: 'delay_echo',
    arguments: { text, ms: SLOW_CALL_MS },
    _meta: { progressToken: `lab-${id}`, ...(holdAfterResumes === undefined ? {} : { [HOLD_AFTER_RESUMES_META]: holdAfterResumes }) },
  },
});

/**
 * A proxy that buffers responses (nginx's proxy_buffering, a compressing middleware): it passes
 * the request on at once but keeps every byte of the answer until the server is done, then hands
 * it over in one piece. Played by the page between itself and the relayed connection.
 */
export function bufferingProxy(connection: ByteConnection): ByteConnection {
  const held: Uint8Array[] = [];
  const data = new Set<(chunk: Uint8Array) => void>();
  const ends = new Set<(error?: string) => void>();
  connection.onData((chunk) => held.push(chunk));
  connection.onEnd((error) => {
    if (held.length > 0) {
      const all = concat(held);
      data.forEach((listener) => listener(all));
    }
    ends.forEach((listener) => listener(error));
  });
  return {
    write: (bytes) => connection.write(bytes),
    close: () => connection.close(),
    onData(listener) {
      data.add(listener);
      return () => data.delete(listener);
    },
    onEnd(listener) {
      ends.add(listener);
      return () => ends.delete(listener);
    },
  };
}

/** SSE events completed in `text`: each ends with a blank line. */
const eventCount = (text: string) => text.split(/\r\n\r\n|\n\n|\r\r/).length - 1;

/** POST /mcp as the page's client writes it (same header order), with the card's change. */
export function cardRequestBytes(spec: RequestSpec, pageOrigin: string | undefined): Uint8Array {
  const headers: HeaderLine[] = [['Host', '127.0.0.1']];
  const origin = spec.origin === undefined ? pageOrigin : spec.origin;
  if (origin !== undefined && origin !== null) headers.push(['Origin', origin]);
  const accept = spec.accept === undefined ? ACCEPT_BOTH : spec.accept;
  if (accept !== null) headers.push(['Accept', accept]);
  headers.push(['Content-Type', 'application/json']);
  if (spec.sessionId !== undefined) headers.push(['Mcp-Session-Id', spec.sessionId]);
  headers.push(['Connection', 'close']);
  return serializeRequest({ method: 'POST', target: '/mcp', headers, body: utf8.encode(JSON.stringify(spec.body)) });
}

/** GET /mcp resuming an event stream: the client's headers, the session id and Last-Event-ID. */
export function resumeRequestBytes(sessionId: string, lastEventId: string, pageOrigin: string | undefined): Uint8Array {
  const headers: HeaderLine[] = [['Host', '127.0.0.1']];
  if (pageOrigin !== undefined) headers.push(['Origin', pageOrigin]);
  headers.push(['Accept', 'text/event-stream'], ['Mcp-Session-Id', sessionId], ['Last-Event-ID', lastEventId], ['Connection', 'close']);
  return serializeRequest({ method: 'GET', target: '/mcp', headers });
}

/** Write `request` on a fresh connection; resolve once the whole response has been read. */
export function exchangeBytes(connection: ByteConnection, request: Uint8Array): Promise<Omit<HttpCardExchange, 'role'>> {
  return new Promise((resolve, reject) => {
    const reader = new Http1Reader('response');
    const received: Uint8Array[] = [];
    const body: Uint8Array[] = [];
    const pieces: number[] = [];
    let events = 0;
    let head: { status: number; statusLine: string; sessionId: string | null } | null = null;
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      stopData();
      stopEnd();
      connection.close();
      if (head === null) return reject(new Error(error ?? 'the connection ended before a response arrived'));
      const response = concat(received);
      resolve({ request, response, status: head.status, statusLine: head.statusLine, body: readUtf8.decode(concat(body)), sessionId: head.sessionId, sentSessionId: sessionIdSent(request), pieces });
    };
    const stopData = connection.onData((chunk) => {
      received.push(chunk);
      const items = reader.push(chunk);
      const now = eventCount(readUtf8.decode(concat([...body, ...items.flatMap((item) => (item.type === 'data' ? [item.bytes] : []))])));
      pieces.push(now - events);
      events = now;
      for (const item of items) {
        if (item.type === 'start-line') head = { status: 0, statusLine: item.text, sessionId: null };
        else if (item.type === 'head-end' && item.head.kind === 'response') {
          head = { status: item.head.status, statusLine: head?.statusLine ?? '', sessionId: item.head.headers['mcp-session-id'] ?? null };
        } else if (item.type === 'data') body.push(item.bytes);
        else if (item.type === 'end') return finish();
        else if (item.type === 'error') return finish(item.detail);
      }
    });
    // A body framed "until close" ends with the connection.
    const stopEnd = connection.onEnd((error) => finish(error));
    connection.write(request);
  });
}

/** Run one card against the live host: every exchange it makes, in order. Stops the servers it started. */
export async function runHttpCard(id: HttpCardId, deps: HttpCardDeps): Promise<HttpCardResult> {
  const exchanges: HttpCardExchange[] = [];
  const servers: RawHttpServer[] = [];
  let polls: HttpCardResult['polls'];
  const start = async () => {
    const server = await deps.start(HTTP_CARD_FAULTS[id]);
    servers.push(server);
    return server;
  };
  const send = async (server: RawHttpServer, role: ExchangeRole, spec: RequestSpec, via: (connection: ByteConnection) => ByteConnection = (connection) => connection) => {
    const exchange = { role, ...(await exchangeBytes(via(await server.connect()), cardRequestBytes(spec, deps.origin))) };
    exchanges.push(exchange);
    return exchange;
  };
  try {
    const server = await start();
    switch (id) {
      case 'missing-session': {
        // A session exists; the client forgets to send its id on the next request.
        await send(server, 'setup', { body: initialize(0) });
        await send(server, 'symptom', { body: toolsList(1) });
        break;
      }
      case 'stale-session': {
        const first = await send(server, 'setup', { body: initialize(0) });
        // The server restarts: its sessions lived in memory, so they are gone.
        servers.splice(servers.indexOf(server), 1);
        server.kill();
        const restarted = await start();
        await send(restarted, 'symptom', { body: toolsList(1), sessionId: first.sessionId ?? '' });
        // 404 means "this session is gone": a correct client starts a new one.
        await send(restarted, 'recovery', { body: initialize(2) });
        break;
      }
      case 'foreign-origin':
        await send(server, 'symptom', { body: initialize(0), origin: FOREIGN_ORIGIN });
        break;
      case 'missing-accept':
        await send(server, 'symptom', { body: initialize(0), accept: null });
        break;
      case 'buffering-proxy': {
        const sessionId = (await send(server, 'setup', { body: initialize(0) })).sessionId ?? '';
        await send(server, 'setup', { body: INITIALIZED, sessionId });
        // The same call twice: straight to the server, then through the buffering proxy.
        await send(server, 'baseline', { body: slowCall(1), sessionId });
        await send(server, 'symptom', { body: slowCall(2), sessionId }, bufferingProxy);
        break;
      }
      case 'ignores-retry': {
        const sessionId = (await send(server, 'setup', { body: initialize(0) })).sessionId ?? '';
        await send(server, 'setup', { body: INITIALIZED, sessionId });
        // No timer for a wait of 0: a page in the background has its timers held to one a second,
        // which would make the impatient client wait retry after all.
        const sleep = deps.sleep ?? ((ms: number) => (ms === 0 ? Promise.resolve() : new Promise<void>((resolve) => setTimeout(resolve, ms))));
        // Each call asks the server to hold its stream on the resume it names (event-stream.ts): the
        // impatient client's on its Nth, the patient one's on its first. The counts follow from that.
        const poll = async (role: ExchangeRole, requestId: number, wait: (retryMs: number) => number, holdAfterResumes: number): Promise<PollRun> => {
          const run: PollRun = { retryMs: null, waits: [], reconnects: 0, gotResult: false };
          const reader = new SseReader();
          const read = (exchange: HttpCardExchange) => {
            for (const item of reader.push(utf8.encode(exchange.body))) {
              if (item.type === 'event' && item.event.data !== '' && (JSON.parse(item.event.data) as { id?: unknown }).id === requestId) run.gotResult = true;
            }
            run.retryMs = reader.retry ?? run.retryMs;
          };
          read(await send(server, role, { body: slowCall(requestId, 'worth the wait', holdAfterResumes), sessionId }));
          // Shown: the POST, the first reconnect and the last; the ones between are counted.
          let last: HttpCardExchange | null = null;
          while (!run.gotResult && run.reconnects < MAX_POLL_RECONNECTS) {
            const ms = wait(run.retryMs ?? RETRY_UNSAID_MS);
            run.waits.push(ms);
            await sleep(ms);
            const exchange: HttpCardExchange = { role, ...(await exchangeBytes(await server.connect(), resumeRequestBytes(sessionId, reader.lastEventId, deps.origin))) };
            run.reconnects++;
            if (run.reconnects === 1) exchanges.push(exchange);
            else last = exchange;
            if (exchange.status !== 200) break; // not a stream to read: the card shows the answer
            read(exchange);
          }
          if (last !== null) exchanges.push(last);
          return run;
        };
        // The same slow call twice: a client that reconnects at once, then one that waits `retry` ms.
        polls = { impatient: await poll('symptom', 1, () => 0, IMPATIENT_RESUMES_BEFORE_HOLD), patient: await poll('recovery', 2, (retryMs) => retryMs, 1) };
        break;
      }
    }
  } finally {
    for (const server of servers) server.kill();
  }
  return polls === undefined ? { id, exchanges } : { id, exchanges, polls };
}

/** The Mcp-Session-Id header of a request's head (any case, as a server reads it), or null. */
export function sessionIdSent(request: Uint8Array): string | null {
  const text = readUtf8.decode(request);
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  return /\r\nmcp-session-id:[ \t]*([^\r]*?)[ \t]*(?:\r\n|$)/i.exec(head)?.[1] ?? null;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
