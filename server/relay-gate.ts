// What the --listen relay checks before it forwards a request: its Host (and Origin, when a browser
// sent one) must name the loopback interface, so a page on another site whose name was pointed at
// 127.0.0.1 (DNS rebinding) cannot use the relay to reach the server. Only read, never rewritten:
// the bytes that pass are the bytes that came.
//
// EVERY request on a connection is judged, not only the first: HTTP/1.1 keeps a connection alive
// for many requests (and may pipeline them), and a gate that looked only at the first let any
// later request through unchecked. So the client's bytes go through the project's HTTP/1.1 reader
// (src/protocol/http/http1-reader.ts, which also refuses what makes request smuggling: bare LF,
// both Content-Length and chunked, two different lengths), and each request's head is held until
// it has been judged; its body then passes as it comes. There is no token on this gate: it is a
// terminal tool, and the server behind it keeps its own rules.

import { Http1Reader, type Http1Head } from '../src/protocol/http/http1-reader.ts';
import { isAllowedHost, isAllowedOrigin, LOOPBACK_HOSTS } from '../src/protocol/http/request-checks.ts';

/** The head of a request may not be longer than this (Node's own default header limit). */
export const MAX_HEAD_BYTES = 16 * 1024;

export type Refusal = { kind: 'refuse'; status: 400 | 403 | 431; reason: string };
export type GateVerdict = { kind: 'pass' } | Refusal;

/** Judge one request head, read whole. */
export function judgeHead(head: Http1Head & { kind: 'request' }): GateVerdict {
  // Two Host headers could name two hosts; the server might believe the other one.
  for (const name of ['host', 'origin']) {
    if (head.fields.filter((field) => field.name.toLowerCase() === name).length > 1) return { kind: 'refuse', status: 400, reason: `two ${name} headers` };
  }
  const { headers } = head;
  if (!isAllowedHost(headers, LOOPBACK_HOSTS)) return { kind: 'refuse', status: 403, reason: `Host ${JSON.stringify(headers.host ?? '')} is not a loopback name` };
  if (!isAllowedOrigin(headers, LOOPBACK_HOSTS, [])) return { kind: 'refuse', status: 403, reason: `Origin ${JSON.stringify(headers.origin)} is not a loopback origin` };
  return { kind: 'pass' };
}

/**
 * One connection's client-to-server bytes, judged request by request. push() returns the bytes
 * that may go to the server now (every byte of requests whose head passed, in order), or the
 * refusal of the first request that failed; after a refusal nothing more passes.
 */
export class RequestGate {
  private readonly reader = new Http1Reader('request', { maxHeadBytes: MAX_HEAD_BYTES });
  /** Bytes received and not yet released, starting at stream offset `released`. */
  private held: Uint8Array = new Uint8Array(0);
  private released = 0;
  /** The message being read has a head that passed: its bytes may go. */
  private passing = false;
  private passedAny = false;
  private refusal: Refusal | null = null;

  push(chunk: Uint8Array): { forward: Uint8Array; refusal: Refusal | null } {
    if (this.refusal !== null) return { forward: new Uint8Array(0), refusal: this.refusal };
    this.held = concat(this.held, chunk);
    let releasable = this.released;
    for (const item of this.reader.push(chunk)) {
      switch (item.type) {
        case 'start-line':
          this.passing = false;
          break;
        case 'head-end': {
          if (item.head.kind !== 'request') break;
          const verdict = judgeHead(item.head);
          if (verdict.kind === 'refuse') return this.refuse(verdict, releasable);
          this.passing = this.passedAny = true;
          releasable = item.offset + item.length;
          break;
        }
        case 'data':
          if (this.passing) releasable = item.offset + item.bytes.length;
          break;
        case 'chunk-size':
        case 'chunk-end':
        case 'trailer':
        case 'end':
          if (this.passing) releasable = item.offset + item.length;
          if (item.type === 'end') this.passing = false;
          break;
        case 'error':
          return this.refuse(item.detail.startsWith('the head is over') ? { kind: 'refuse', status: 431, reason: item.detail } : { kind: 'refuse', status: 400, reason: item.detail }, releasable);
        case 'header':
          break;
      }
    }
    return { forward: this.release(releasable), refusal: null };
  }

  /** True when no request has passed yet, or part of an unjudged head is held: nothing of it may reach the server. */
  get holdsUnjudgedBytes(): boolean {
    return !this.passedAny || this.held.length > 0;
  }

  private refuse(refusal: Refusal, releasable: number): { forward: Uint8Array; refusal: Refusal } {
    // What passed before the refused request still goes (it was judged); nothing after it.
    const forward = this.release(releasable);
    this.refusal = refusal;
    this.held = new Uint8Array(0);
    return { forward, refusal };
  }

  private release(upTo: number): Uint8Array {
    const count = upTo - this.released;
    if (count <= 0) return new Uint8Array(0);
    const out = this.held.subarray(0, count);
    this.held = this.held.subarray(count);
    this.released = upTo;
    return out;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
}

/** The relay's own answer to a refused connection (it never reaches the server). */
export function refusalResponse(status: 400 | 403 | 431, reason: string): string {
  const text = { 400: 'Bad Request', 403: 'Forbidden', 431: 'Request Header Fields Too Large' }[status];
  const body = `tap relay: ${reason}\n`;
  return `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}
