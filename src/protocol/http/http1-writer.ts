// HTTP/1.1 as bytes (RFC 9112), the writing half: a request the page's own client sends over a
// relayed TCP connection, and a response the in-browser worker writes for the pure handler. Both
// hosts then carry the same kind of bytes a real node:http server would, so the byte inspector
// shows one wire format whatever the host. Pure: no sockets, only Uint8Array and text.

import type { HttpResponse } from './types.ts';
import { concatBytes } from '../inspect/concat-bytes.ts';

const utf8 = new TextEncoder();
const CRLF = '\r\n';

/** One header as it goes on the wire, in the order it is written (names keep their case). */
export type HeaderLine = readonly [name: string, value: string];

export interface Http1RequestInit {
  method: string;
  /** The request target in origin form: `/mcp`, `/mcp?x=1`. */
  target: string;
  headers: readonly HeaderLine[];
  body?: Uint8Array;
}

/** The spelling the specification uses for MCP's headers, and the usual one for the rest. */
const CANONICAL_NAMES: Readonly<Record<string, string>> = {
  'mcp-session-id': 'Mcp-Session-Id',
  'mcp-protocol-version': 'MCP-Protocol-Version',
  'last-event-id': 'Last-Event-ID',
};

/** `content-type` → `Content-Type`; MCP's own headers as the specification spells them. */
export function canonicalHeaderName(name: string): string {
  const lower = name.toLowerCase();
  return CANONICAL_NAMES[lower] ?? lower.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => dash + letter.toUpperCase());
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkHeader([name, value]: HeaderLine): void {
  if (!TOKEN.test(name)) throw new TypeError(`not a valid HTTP header name: ${JSON.stringify(name)}`);
  // A CR or LF in a value would end the header early: the classic header-injection bug.
  if (/[\r\n\0]/.test(value)) throw new TypeError(`an HTTP header value cannot contain CR, LF or NUL (${name})`);
}

function hasHeader(headers: readonly HeaderLine[], name: string): boolean {
  return headers.some(([given]) => given.toLowerCase() === name);
}

function headText(startLine: string, headers: readonly HeaderLine[]): string {
  let text = startLine + CRLF;
  for (const header of headers) {
    checkHeader(header);
    text += `${header[0]}: ${header[1]}${CRLF}`;
  }
  return text + CRLF;
}

/**
 * A whole request. A body gets its Content-Length (the byte count, as the chapter's framing
 * counted it) unless the caller set one; a request without a body gets none.
 */
export function serializeRequest(init: Http1RequestInit): Uint8Array {
  if (!TOKEN.test(init.method)) throw new TypeError(`not a valid HTTP method: ${JSON.stringify(init.method)}`);
  if (!/^\/[\x21-\x7e]*$/.test(init.target)) throw new TypeError(`the request target must be a path: ${JSON.stringify(init.target)}`);
  const headers = [...init.headers];
  if (init.body !== undefined && !hasHeader(headers, 'content-length')) headers.push(['Content-Length', String(init.body.length)]);
  const head = utf8.encode(headText(`${init.method} ${init.target} HTTP/1.1`, headers));
  return init.body === undefined ? head : concatBytes([head, init.body]);
}

const REASONS: Readonly<Record<number, string>> = {
  200: 'OK',
  202: 'Accepted',
  204: 'No Content',
  400: 'Bad Request',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  500: 'Internal Server Error',
};

/** The reason phrase node:http would write for the statuses this project uses. */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? 'Unknown';
}

/** The status line and headers, ended by the blank line. */
export function serializeResponseHead(status: number, headers: readonly HeaderLine[]): Uint8Array {
  if (!Number.isInteger(status) || status < 100 || status > 999) throw new TypeError(`not an HTTP status: ${status}`);
  return utf8.encode(headText(`HTTP/1.1 ${status} ${reasonPhrase(status)}`, headers));
}

/** One chunk of the chunked transfer coding: its size in hex, CRLF, the bytes, CRLF. */
export function encodeChunk(bytes: Uint8Array): Uint8Array {
  if (bytes.length === 0) throw new TypeError('an empty chunk would end the body: use LAST_CHUNK for that');
  return concatBytes([utf8.encode(bytes.length.toString(16) + CRLF), bytes, utf8.encode(CRLF)]);
}

/** The zero-size chunk and the empty trailer section: the end of a chunked body. */
export const LAST_CHUNK: Uint8Array = utf8.encode(`0${CRLF}${CRLF}`);

/**
 * The pure handler's answer as the bytes of one HTTP/1.1 response, written over time: a body of
 * bytes (or none) gets a Content-Length, an event stream goes out chunked, one chunk per write,
 * as node:http does for a response without a length. `connection: close` is said when the
 * connection ends after this response.
 */
export async function* serializeResponse(response: HttpResponse, options: { close?: boolean } = {}): AsyncGenerator<Uint8Array> {
  const headers: HeaderLine[] = Object.entries(response.headers).map(([name, value]) => [canonicalHeaderName(name), value]);
  if (options.close === true) headers.push(['Connection', 'close']);
  const { body } = response;
  if (body.type !== 'stream') {
    const bytes = body.type === 'bytes' ? body.bytes : new Uint8Array(0);
    headers.push(['Content-Length', String(bytes.length)]);
    yield bytes.length === 0 ? serializeResponseHead(response.status, headers) : concatBytes([serializeResponseHead(response.status, headers), bytes]);
    return;
  }
  headers.push(['Transfer-Encoding', 'chunked']);
  yield serializeResponseHead(response.status, headers);
  for await (const chunk of body.stream) if (chunk.length > 0) yield encodeChunk(chunk);
  yield LAST_CHUNK;
}
