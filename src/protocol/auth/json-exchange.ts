// The two kinds of request the authorization flow makes over the client's HttpExchange: a GET of a
// JSON document (metadata) and a POST of a form (token, RFC 6749 §4.1.3) or of JSON (dynamic client
// registration, RFC 7591). Each reads the whole answer, bounded, and hands back the status and the
// parsed body, or null when the body is not JSON.

import { PendingBytes } from '../framing/pending-bytes.ts';
import type { HttpExchange, HttpHeaders } from '../http/types.ts';

/** A metadata document or a token response larger than this is refused, never buffered. */
export const MAX_AUTH_BODY_BYTES = 1024 * 1024;

export interface JsonAnswer {
  status: number;
  headers: HttpHeaders;
  /** The body parsed as JSON, or null when it is empty or not JSON. */
  json: unknown;
}

const utf8 = new TextEncoder();

export async function getJson(exchange: HttpExchange, url: string): Promise<JsonAnswer> {
  return send(exchange, { method: 'GET', url, headers: { accept: 'application/json' } });
}

/** POST `fields` as application/x-www-form-urlencoded (undefined fields are left out). */
export async function postForm(exchange: HttpExchange, url: string, fields: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.set(name, value);
  return send(exchange, {
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers },
    body: utf8.encode(form.toString()),
  });
}

export async function postJson(exchange: HttpExchange, url: string, value: unknown): Promise<JsonAnswer> {
  return send(exchange, { method: 'POST', url, headers: { 'content-type': 'application/json', accept: 'application/json' }, body: utf8.encode(JSON.stringify(value)) });
}

async function send(exchange: HttpExchange, request: Parameters<HttpExchange>[0]): Promise<JsonAnswer> {
  const response = await exchange(request);
  const body = new PendingBytes();
  for await (const chunk of response.body) {
    if (body.length + chunk.length > MAX_AUTH_BODY_BYTES) {
      response.cancel();
      throw new RangeError(`${request.method} ${request.url}: the answer is over ${MAX_AUTH_BODY_BYTES} bytes`);
    }
    body.add(chunk);
  }
  return { status: response.status, headers: response.headers, json: parseJson(body.takeWith(new Uint8Array(0))) };
}

function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return null;
  }
}
