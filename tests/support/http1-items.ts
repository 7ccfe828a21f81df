// Helpers the HTTP/1.1 reader's tests share: read a whole stream, and reduce the items to what must
// not depend on how the stream was cut (adjacent data pieces joined).

import { Http1Reader, type Http1Item } from '../../src/protocol/http/http1-reader.ts';
import { concatBytes } from '../../src/protocol/inspect/concat-bytes.ts';
import { base64ToBytes, type TapEvent } from '../../src/runtime/tap-protocol.ts';

export function readAll(kind: 'request' | 'response', chunks: readonly Uint8Array[], close = false): Http1Item[] {
  const reader = new Http1Reader(kind);
  const items = chunks.flatMap((chunk) => reader.push(chunk));
  if (close) items.push(...reader.finish());
  return items;
}

/** Items with consecutive data pieces merged into one: the same for every split of the bytes. */
export function mergedItems(items: readonly Http1Item[]): unknown[] {
  const out: unknown[] = [];
  for (const item of items) {
    const last = out.at(-1) as { type: string; offset: number; bytes: number[] } | undefined;
    if (item.type === 'data') {
      if (last?.type === 'data') last.bytes.push(...item.bytes);
      else out.push({ type: 'data', offset: item.offset, bytes: [...item.bytes] });
      continue;
    }
    out.push(item);
  }
  return out;
}

/** The messages as values: each head with its body, decoded. */
export function messagesOf(items: readonly Http1Item[]): { head: unknown; body: string }[] {
  const decoder = new TextDecoder();
  const messages: { head: unknown; body: number[] }[] = [];
  for (const item of items) {
    if (item.type === 'head-end') messages.push({ head: item.head, body: [] });
    else if (item.type === 'data') messages.at(-1)!.body.push(...item.bytes);
  }
  return messages.map(({ head, body }) => ({ head, body: decoder.decode(new Uint8Array(body)) }));
}

/** Each relayed connection's bytes, both ways, and whether it opened before and closed after them. */
export function connectionsOf(events: readonly TapEvent[]) {
  const byConn = new Map<number, { c2s: Uint8Array[]; s2c: Uint8Array[]; order: string[] }>();
  for (const event of events) {
    const conn = 'conn' in event ? event.conn : undefined;
    if (conn === undefined) continue;
    const entry = byConn.get(conn) ?? { c2s: [], s2c: [], order: [] };
    byConn.set(conn, entry);
    entry.order.push(event.ev);
    if (event.ev === 'c2s' || event.ev === 's2c') entry[event.ev].push(base64ToBytes(event.b64));
  }
  return byConn;
}


export interface Exchange {
  /** "POST initialize", "GET", "DELETE": the method and the JSON-RPC method the body carries. */
  line: string;
  request: { method: string; target: string; headers: Record<string, string>; body: string };
  response: { head: { status: number; headers: Record<string, string> }; body: string } | undefined;
}

/** Every relayed connection read back as one HTTP exchange; each must open before its first byte. */
export function exchangesOf(events: readonly TapEvent[]): Exchange[] {
  return [...connectionsOf(events).values()].map((connection) => {
    if (connection.order[0] !== 'open') throw new Error(`a connection's first event is ${connection.order[0]}, not open`);
    const request = messagesOf(readAll('request', [concatBytes(connection.c2s)]))[0]!;
    const response = messagesOf(readAll('response', [concatBytes(connection.s2c)], true))[0];
    const head = { ...(request.head as Omit<Exchange['request'], 'body'>), body: request.body };
    const rpc = jsonRpcOf(request.body);
    return { line: `${head.method} ${rpc?.method ?? ''}`.trim(), request: head, response: response as Exchange['response'] };
  });
}

/** The body's JSON-RPC method, when it is one (an authorization server's form or page is not). */
function jsonRpcOf(body: string): { method?: string } | undefined {
  if (body === '') return undefined;
  try {
    return JSON.parse(body) as { method?: string };
  } catch {
    return undefined;
  }
}
