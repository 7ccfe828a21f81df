// Helpers the HTTP/1.1 reader's tests share: read a whole stream, and reduce the items to what must
// not depend on how the stream was cut (adjacent data pieces joined).

import { Http1Reader, type Http1Item } from '../../src/protocol/http/http1-reader.ts';

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
