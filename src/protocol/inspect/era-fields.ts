// The 2026-07-28 fields of one JSON-RPC message, for the byte inspector to single out: the
// reserved `io.modelcontextprotocol/…` keys of `params._meta` (a request's envelope) and of
// `result._meta` (the server's identity), and `result.resultType`. Each comes with its path in the
// message, so the inspector can light its bytes with the JSON tree's own mapping.

import type { JsonPath } from './byte-fields.ts';

export const RESERVED_META_PREFIX = 'io.modelcontextprotocol/';

export interface EraField {
  path: JsonPath;
  /** The key as written: `io.modelcontextprotocol/protocolVersion`, or `resultType`. */
  key: string;
  value: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The era fields of a message, in the order they are written; empty for a handshake-era frame. */
export function eraFields(message: unknown): EraField[] {
  if (!isObject(message)) return [];
  const fields: EraField[] = [];
  for (const holder of ['params', 'result'] as const) {
    const body = message[holder];
    if (!isObject(body)) continue;
    const meta = body._meta;
    if (isObject(meta)) {
      for (const [key, value] of Object.entries(meta)) {
        if (key.startsWith(RESERVED_META_PREFIX)) fields.push({ path: [holder, '_meta', key], key, value });
      }
    }
    if (holder === 'result' && typeof body.resultType === 'string') fields.push({ path: ['result', 'resultType'], key: 'resultType', value: body.resultType });
  }
  return fields;
}
