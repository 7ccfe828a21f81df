// The authorization scene's secrets hidden until the learner reveals them: an exchange for the
// inspector, and the tap events for a saved trace. Each direction of a connection is redacted as one
// stream (a token may be cut across two TCP chunks) and cut back at the chunks' own lengths, so the
// inspector's chunk boundaries, offsets and Content-Length stay what crossed the wire. Pure.

import { concatBytes } from '../../protocol/inspect/concat-bytes.ts';
import { redactSecrets } from '../../protocol/inspect/secrets.ts';
import { base64ToBytes, bytesToBase64 } from '../../protocol/base64.ts';
import type { TapEvent } from '../../runtime/tap-protocol.ts';
import type { HttpExchangeRecord } from './http-exchanges.ts';

/** The same chunks, same lengths, with every secret byte as `*`. */
export function redactChunks(chunks: readonly Uint8Array[]): Uint8Array[] {
  const whole = redactSecrets(concatBytes(chunks));
  const out: Uint8Array[] = [];
  let at = 0;
  for (const chunk of chunks) {
    out.push(whole.subarray(at, at + chunk.length));
    at += chunk.length;
  }
  return out;
}

export function redactExchange<Step>(exchange: HttpExchangeRecord<Step>): HttpExchangeRecord<Step> {
  return { ...exchange, c2s: redactChunks(exchange.c2s), s2c: redactChunks(exchange.s2c) };
}

/** The tap events with each relayed connection's bytes redacted; every other event as it was. */
export function redactEvents(events: readonly TapEvent[]): TapEvent[] {
  const streams = new Map<string, number[]>();
  events.forEach((event, index) => {
    if ((event.ev === 'c2s' || event.ev === 's2c') && event.conn !== undefined) {
      const key = `${event.conn} ${event.ev}`;
      streams.set(key, [...(streams.get(key) ?? []), index]);
    }
  });
  const out = [...events];
  for (const indexes of streams.values()) {
    const chunks = indexes.map((index) => base64ToBytes((events[index] as { b64: string }).b64));
    redactChunks(chunks).forEach((chunk, at) => {
      const index = indexes[at]!;
      out[index] = { ...(events[index] as TapEvent & { b64: string }), b64: bytesToBase64(chunk) } as TapEvent;
    });
  }
  return out;
}
