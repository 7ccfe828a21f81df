// One direction of one HTTP/1.1 connection read as JSON-RPC messages, with the FrameReader shape
// the message log already takes from the stdio framings: the request or response through
// Http1Reader, then a JSON body (application/json) as one message when the body ends, or an event
// stream's events (SseReader) as the messages their `data` carries, each as soon as its blank line
// arrives. Offsets count from the connection's first byte in this direction. Used to show a
// recorded Streamable HTTP session (a trace) as messages, not as raw chunks. A JSON body that is no
// JSON-RPC message at all (OAuth's metadata, registration and token answers, on the same origin in
// a sign-in) is not one: it stays an HTTP message, shown by its start line.

import { SseReader } from '../framing/sse.ts';
import type { FrameReader, ReadItem } from '../framing/types.ts';
import { Http1Reader } from './http1-reader.ts';

interface BodySegment {
  /** Where the piece starts on the wire, and in the (decoded) body. */
  wire: number;
  body: number;
  length: number;
}

export class HttpMessageReader implements FrameReader {
  private readonly http: Http1Reader;
  /** The message being read: where it began, its body's kind, the body so far. */
  private start = 0;
  private kind: 'json' | 'sse' | 'other' = 'other';
  private body: Uint8Array[] = [];
  private bodyLength = 0;
  private segments: BodySegment[] = [];
  private sse: SseReader | null = null;
  private pushed = 0;
  private consumed = 0;

  constructor(kind: 'request' | 'response') {
    this.http = new Http1Reader(kind);
  }

  /** Bytes of the message not yet shown as a message (a JSON body still arriving, an open event). */
  get bufferedBytes(): number {
    return this.pushed - this.consumed;
  }

  push(chunk: Uint8Array): ReadItem[] {
    this.pushed += chunk.length;
    const found: ReadItem[] = [];
    for (const item of this.http.push(chunk)) {
      switch (item.type) {
        case 'start-line':
          this.start = item.offset;
          this.kind = 'other';
          this.body = [];
          this.bodyLength = 0;
          this.segments = [];
          this.sse = null;
          break;
        case 'head-end': {
          const type = item.head.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
          this.kind = type === 'application/json' ? 'json' : type === 'text/event-stream' ? 'sse' : 'other';
          if (this.kind === 'sse') this.sse = new SseReader();
          this.consumed = item.offset + item.length;
          break;
        }
        case 'data':
          this.segments.push({ wire: item.offset, body: this.bodyLength, length: item.bytes.length });
          this.bodyLength += item.bytes.length;
          if (this.sse) {
            for (const event of this.sse.push(item.bytes)) {
              // A priming event (an id, no data) carries no message.
              if (event.type === 'event' && event.event.data === '') continue;
              found.push(this.fromEvent(event));
            }
          }
          else if (this.kind === 'json') this.body.push(item.bytes);
          break;
        case 'end': {
          const end = item.offset + item.length;
          if (this.kind === 'json' && this.bodyLength > 0) {
            const message = jsonItem(concat(this.body, this.bodyLength), this.start, end - this.start);
            if (message.type === 'error' || isJsonRpcShaped(message.value)) found.push(message);
          }
          this.consumed = end;
          break;
        }
        case 'error':
          found.push({ type: 'error', kind: 'bad-header', detail: item.detail, offset: item.offset, length: this.pushed - item.offset });
          this.consumed = this.pushed;
          break;
        default:
          break;
      }
    }
    return found;
  }

  /** An SSE event's message, placed on the wire where its bytes are. */
  private fromEvent(event: ReturnType<SseReader['push']>[number]): ReadItem {
    const start = this.toWire(event.offset, true);
    const end = this.toWire(event.offset + event.length, false);
    this.consumed = Math.max(this.consumed, end);
    if (event.type === 'error') return { type: 'error', kind: 'too-large', detail: event.detail, offset: start, length: end - start };
    return jsonItem(new TextEncoder().encode(event.event.data), start, end - start);
  }

  /** A body offset on the wire; at a chunk boundary a start is the next chunk's first byte, an end the last one's end. */
  private toWire(bodyOffset: number, isStart: boolean): number {
    for (const segment of this.segments) {
      const inside = isStart ? bodyOffset < segment.body + segment.length : bodyOffset <= segment.body + segment.length;
      if (inside) return segment.wire + bodyOffset - segment.body;
    }
    return this.pushed;
  }
}

function jsonItem(bytes: Uint8Array, offset: number, length: number): ReadItem {
  const text = new TextDecoder().decode(bytes);
  try {
    return { type: 'message', value: JSON.parse(text) as unknown, offset, length };
  } catch (error) {
    return { type: 'error', kind: 'bad-json', detail: error instanceof Error ? error.message : String(error), offset, length };
  }
}

/**
 * Whether a JSON body is meant as JSON-RPC (a message or a batch), valid or not: it names jsonrpc,
 * a method, or answers an id with a result or an error object. An OAuth document has none of these
 * (its `error` is a string), and is left to HTTP.
 */
function isJsonRpcShaped(value: unknown): boolean {
  if (Array.isArray(value)) return value.length === 0 || value.some(isJsonRpcShaped);
  if (typeof value !== 'object' || value === null) return true;
  const record = value as Record<string, unknown>;
  return 'jsonrpc' in record || 'method' in record || ('id' in record && ('result' in record || (typeof record.error === 'object' && record.error !== null)));
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    whole.set(part, at);
    at += part.length;
  }
  return whole;
}
