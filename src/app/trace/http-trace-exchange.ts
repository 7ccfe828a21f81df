// One relayed connection of an opened HTTP trace as the HTTP stepper's exchange record, read back
// from the trace's log with the stepper's own recorder, so the HTTP byte inspector shows it the
// way it shows a live connection. Pure.

import { HttpExchangeRecorder, type HttpExchangeRecord } from '../protocol/http-exchanges.ts';
import type { LogEntry } from '../live-session/message-log.ts';

export function exchangeOfConnection(entries: readonly LogEntry[], conn: number): HttpExchangeRecord | null {
  const recorder = new HttpExchangeRecorder();
  for (const entry of entries) {
    if (entry.type === 'bytes' && entry.conn === conn) recorder.add({ conn, ev: entry.direction, bytes: entry.bytes });
    else if (entry.type === 'connection' && entry.conn === conn) recorder.add({ conn, ev: entry.state });
  }
  return recorder.records.find((record) => record.conn === conn) ?? null;
}
