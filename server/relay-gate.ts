// What the --listen relay checks before it forwards a connection: the first request's Host (and
// Origin, when a browser sent one) must name the loopback interface, so a page on another site
// whose name was pointed at 127.0.0.1 (DNS rebinding) cannot use the relay to reach the server.
// Only read, never rewritten: the bytes that pass are the bytes that came. Later requests on the
// same connection are not checked: a browser sends the same Host on one connection.

import { isAllowedHost, isAllowedOrigin, LOOPBACK_HOSTS } from '../src/protocol/http/request-checks.ts';

/** The head of a first request may not be longer than this (Node's own default header limit). */
export const MAX_HEAD_BYTES = 16 * 1024;

export type GateVerdict =
  | { kind: 'more' } // the head has not ended yet
  | { kind: 'pass' }
  | { kind: 'refuse'; status: 400 | 403 | 431; reason: string };

/** Judge the bytes a connection has sent so far (from its first byte). */
export function judgeFirstRequest(received: Uint8Array): GateVerdict {
  const text = new TextDecoder('latin1').decode(received.subarray(0, MAX_HEAD_BYTES + 4));
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) {
    return received.length > MAX_HEAD_BYTES ? { kind: 'refuse', status: 431, reason: `the request head is over ${MAX_HEAD_BYTES} bytes` } : { kind: 'more' };
  }
  const [requestLine = '', ...fieldLines] = text.slice(0, end).split('\r\n');
  if (!/^[A-Z]+ \S+ HTTP\/1\.[01]$/.test(requestLine)) return { kind: 'refuse', status: 400, reason: 'not an HTTP/1.x request' };
  const headers: Record<string, string> = {};
  for (const line of fieldLines) {
    const colon = line.indexOf(':');
    if (colon <= 0) return { kind: 'refuse', status: 400, reason: 'a malformed header line' };
    const name = line.slice(0, colon).trim().toLowerCase();
    // Two Host headers could name two hosts; the server might believe the other one.
    if (name in headers && (name === 'host' || name === 'origin')) return { kind: 'refuse', status: 400, reason: `two ${name} headers` };
    headers[name] = line.slice(colon + 1).trim();
  }
  if (!isAllowedHost(headers, LOOPBACK_HOSTS)) return { kind: 'refuse', status: 403, reason: `Host ${JSON.stringify(headers.host ?? '')} is not a loopback name` };
  if (!isAllowedOrigin(headers, LOOPBACK_HOSTS, [])) return { kind: 'refuse', status: 403, reason: `Origin ${JSON.stringify(headers.origin)} is not a loopback origin` };
  return { kind: 'pass' };
}

/** The relay's own answer to a refused connection (it never reaches the server). */
export function refusalResponse(status: 400 | 403 | 431, reason: string): string {
  const text = { 400: 'Bad Request', 403: 'Forbidden', 431: 'Request Header Fields Too Large' }[status];
  const body = `tap relay: ${reason}\n`;
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
