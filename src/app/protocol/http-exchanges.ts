// Relayed HTTP connections as exchanges: one request and one response per connection, the bytes
// as they crossed it, with the response's status and content type read by the project's own
// HTTP/1.1 reader. Shared by the HTTP stepper (from the wire's tap events as they arrive) and the
// trace view (from an opened trace's log), so both show a connection the same way. Pure.

import { Http1Reader } from '../../protocol/http/http1-reader.ts';

/** One relayed connection: one request, one response, as they crossed it. */
export interface HttpExchangeRecord<Step = string> {
  conn: number;
  step: Step | null;
  c2s: Uint8Array[];
  s2c: Uint8Array[];
  /** "POST initialize", "GET", "DELETE". */
  request: string;
  status: number | null;
  contentType: string | null;
  /** The response's Mcp-Session-Id, when it set one (the initialize response). */
  sessionId: string | null;
  closed: boolean;
}

/** What a connection did: opened, bytes one way or the other, or ended. */
export type ConnectionEvent = { conn: number; ev: 'c2s' | 's2c'; bytes: Uint8Array } | { conn: number; ev: 'open' | 'close' };

export class HttpExchangeRecorder<Step = string> {
  private exchanges: HttpExchangeRecord<Step>[] = [];
  private readonly heads = new Map<number, Http1Reader>();

  /** Every exchange so far (a new array whenever one changed, so a store can hand it out). */
  get records(): readonly HttpExchangeRecord<Step>[] {
    return this.exchanges;
  }

  /** One event into the exchange of its connection; `step` names a connection it opens. */
  add(event: ConnectionEvent, step: Step | null = null): readonly HttpExchangeRecord<Step>[] {
    const { conn } = event;
    const exchanges = [...this.exchanges];
    let index = exchanges.findIndex((exchange) => exchange.conn === conn);
    if (index === -1) {
      exchanges.push({ conn, step, c2s: [], s2c: [], request: '', status: null, contentType: null, sessionId: null, closed: false });
      index = exchanges.length - 1;
    }
    const exchange = { ...exchanges[index]! };
    if (event.ev === 'c2s' || event.ev === 's2c') {
      exchange[event.ev] = [...exchange[event.ev], event.bytes];
      if (event.ev === 'c2s' && exchange.request === '') exchange.request = requestLine(exchange.c2s);
      if (event.ev === 's2c' && exchange.status === null) {
        const reader = this.heads.get(conn) ?? new Http1Reader('response');
        this.heads.set(conn, reader);
        for (const item of reader.push(event.bytes)) {
          if (item.type === 'head-end' && item.head.kind === 'response') {
            exchange.status = item.head.status;
            exchange.contentType = item.head.headers['content-type']?.split(';')[0]?.trim() ?? null;
            exchange.sessionId = item.head.headers['mcp-session-id'] ?? null;
          }
        }
      }
    } else if (event.ev === 'close') {
      exchange.closed = true;
      this.heads.delete(conn);
    }
    exchanges[index] = exchange;
    this.exchanges = exchanges;
    return exchanges;
  }
}

/** "POST initialize" from the request's bytes so far (the method, and the JSON-RPC method in the body). */
function requestLine(chunks: readonly Uint8Array[]): string {
  const text = new TextDecoder().decode(chunks[0]);
  const method = text.slice(0, text.indexOf(' '));
  const rpc = /"method":"([^"]+)"/.exec(text.slice(text.indexOf('\r\n\r\n')));
  return rpc ? `${method} ${rpc[1]}` : method;
}
