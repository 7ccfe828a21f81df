// What each byte of one HTTP/1.1 message is, for the byte inspector: the start line, each header
// (MCP's own and the ones Streamable HTTP turns on singled out), the blank line, the body — and for
// a chunked body each size line, the chunk data and the CRLF after it; inside an event stream each
// SSE field, comment and the blank line that dispatches an event, with the JSON-RPC message the
// event carries. It reads the bytes with the same Http1Reader the page's client uses, so the
// inspector never disagrees with the client about where a part ends.

import { Http1Reader, type Http1Head } from './http1-reader.ts';
import { canonicalHeaderName } from './http1-writer.ts';
import type { FieldKind, FieldRange } from '../inspect/byte-fields.ts';

/** The headers the inspector explains: why each matters to Streamable HTTP. */
export const SINGLED_OUT_HEADERS = ['mcp-session-id', 'mcp-protocol-version', 'accept', 'content-type', 'origin', 'content-length', 'transfer-encoding', 'last-event-id'] as const;
export type SingledOutHeader = (typeof SINGLED_OUT_HEADERS)[number];

/** A piece of the message on the wire; several ranges when it straddles chunk framing. */
export type HttpPart =
  | { kind: 'start-line'; start: number; end: number; text: string }
  | { kind: 'header'; start: number; end: number; name: string; value: string; singled: SingledOutHeader | null }
  | { kind: 'blank-line'; start: number; end: number }
  | { kind: 'body'; start: number; end: number }
  | { kind: 'chunk-size'; start: number; end: number; size: number }
  /** One chunk's data (what it carries is listed after it: body bytes, or SSE lines). */
  | { kind: 'chunk-data'; start: number; end: number }
  | { kind: 'chunk-end'; start: number; end: number }
  | { kind: 'trailer-end'; start: number; end: number }
  | { kind: 'sse-field'; ranges: ByteRange[]; name: string; value: string; event: number }
  | { kind: 'sse-comment'; ranges: ByteRange[]; text: string; event: number }
  | { kind: 'sse-blank'; ranges: ByteRange[]; event: number }
  | { kind: 'error'; start: number; end: number; detail: string };

export interface ByteRange {
  start: number;
  end: number;
}

/** One SSE event of the body and the JSON-RPC message its data carries. */
export interface SseEventLayout {
  index: number;
  id: string | null;
  type: string | null;
  retry: number | null;
  data: string | null;
  /** The parsed data: a JSON-RPC message (or any JSON); undefined when there is no data or it is not JSON. */
  message: unknown;
  /** What the message is, in a word: `notifications/progress`, `result #2`, `priming` (no data). */
  summary: string;
  ranges: ByteRange[];
}

export interface HttpLayout {
  head: Http1Head | null;
  fields: FieldRange[];
  parts: HttpPart[];
  events: SseEventLayout[];
  /** The body as the receiver reads it (chunk framing removed). */
  body: Uint8Array;
  /** Content-Length as declared, and the bytes counted (null without the header). */
  declaredLength: number | null;
  isEventStream: boolean;
  /** The first thing the reader could not read, if any. */
  error: string | null;
}

const CR = 0x0d;
const LF = 0x0a;

/**
 * `ended`: the connection has closed, so a message cut short is an error; while it is open (an
 * event stream still running) the bytes so far are simply all there is yet.
 */
export function httpLayout(bytes: Uint8Array, kind: 'request' | 'response', options: { ended?: boolean } = {}): HttpLayout {
  const reader = new Http1Reader(kind);
  const items = [...reader.push(bytes), ...(options.ended === false ? [] : reader.finish())];
  const fields: FieldRange[] = [];
  const parts: HttpPart[] = [];
  const segments: { wire: number; body: number; length: number }[] = [];
  let head: Http1Head | null = null;
  let error: string | null = null;
  let bodyLength = 0;
  let chunked = false;
  const field = (fieldKind: FieldKind, start: number, end: number) => {
    if (end > start) fields.push({ kind: fieldKind, start, end });
  };

  for (const item of items) {
    if (head !== null && item.type === 'start-line') break; // one message only (the next is another exchange)
    switch (item.type) {
      case 'start-line':
        field('start-line', item.offset, item.offset + item.length - 2);
        field('line-end', item.offset + item.length - 2, item.offset + item.length);
        parts.push({ kind: 'start-line', start: item.offset, end: item.offset + item.length, text: item.text });
        break;
      case 'header':
      case 'trailer': {
        const end = item.offset + item.length;
        const valueStart = item.value === '' ? end - 2 : skipSpaces(bytes, item.offset + item.name.length + 1, end - 2);
        field('header-name', item.offset, valueStart);
        field('header-value', valueStart, end - 2);
        field('line-end', end - 2, end);
        const lower = item.name.toLowerCase();
        const singled = (SINGLED_OUT_HEADERS as readonly string[]).includes(lower) ? (lower as SingledOutHeader) : null;
        parts.push({ kind: 'header', start: item.offset, end, name: item.name, value: item.value, singled });
        break;
      }
      case 'head-end':
        head = item.head;
        chunked = item.framing === 'chunked';
        field('blank-line', item.offset, item.offset + item.length);
        parts.push({ kind: 'blank-line', start: item.offset, end: item.offset + item.length });
        break;
      case 'chunk-size':
        field('chunk-size', item.offset, item.offset + item.length);
        parts.push({ kind: 'chunk-size', start: item.offset, end: item.offset + item.length, size: item.size });
        break;
      case 'chunk-end':
        field('chunk-end', item.offset, item.offset + item.length);
        parts.push({ kind: 'chunk-end', start: item.offset, end: item.offset + item.length });
        break;
      case 'data':
        if (chunked) parts.push({ kind: 'chunk-data', start: item.offset, end: item.offset + item.bytes.length });
        segments.push({ wire: item.offset, body: bodyLength, length: item.bytes.length });
        bodyLength += item.bytes.length;
        break;
      case 'end':
        if (item.length > 0) {
          field('chunk-end', item.offset, item.offset + item.length);
          parts.push({ kind: 'trailer-end', start: item.offset, end: item.offset + item.length });
        }
        break;
      case 'error':
        error = item.detail;
        break;
    }
    if (item.type === 'end' || item.type === 'error') break;
  }

  const body = new Uint8Array(bodyLength);
  for (const segment of segments) body.set(bytes.subarray(segment.wire, segment.wire + segment.length), segment.body);
  const toWire = (start: number, end: number): ByteRange[] => wireRanges(segments, start, end);
  const contentType = head?.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  const isEventStream = contentType === 'text/event-stream';
  const events: SseEventLayout[] = [];
  if (isEventStream) sseParts(body, toWire, parts, fields, events);
  else
    for (const segment of segments) {
      field('body', segment.wire, segment.wire + segment.length);
      // A chunk's data is already a part of its own.
      if (!chunked) parts.push({ kind: 'body', start: segment.wire, end: segment.wire + segment.length });
    }
  // Keep parts in wire order: the SSE parts were added after the chunk framing around them.
  parts.sort((a, b) => partStart(a) - partStart(b));
  const consumed = fields.reduce((max, range) => Math.max(max, range.end), 0);
  if (error !== null) {
    field('junk', consumed, bytes.length);
    parts.push({ kind: 'error', start: consumed, end: bytes.length, detail: error });
  }
  fields.sort((a, b) => a.start - b.start);
  const declared = head?.headers['content-length'];
  return { head, fields, parts, events, body, declaredLength: declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : null, isEventStream, error };
}

function partStart(part: HttpPart): number {
  return 'ranges' in part ? (part.ranges[0]?.start ?? 0) : part.start;
}

/** The first byte after the spaces and tabs that may follow a header's colon. */
function skipSpaces(bytes: Uint8Array, from: number, lineEnd: number): number {
  let at = from;
  while (at < lineEnd && (bytes[at] === 0x20 || bytes[at] === 0x09)) at++;
  return at;
}

/** Body offsets → wire ranges (a piece of the body may sit in two chunks). */
function wireRanges(segments: readonly { wire: number; body: number; length: number }[], start: number, end: number): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (const segment of segments) {
    const from = Math.max(start, segment.body);
    const to = Math.min(end, segment.body + segment.length);
    if (from < to) ranges.push({ start: segment.wire + from - segment.body, end: segment.wire + to - segment.body });
  }
  return ranges;
}

const utf8 = new TextDecoder();

/** The event stream's lines, by the same rules as framing/sse.ts, as parts with their bytes. */
function sseParts(body: Uint8Array, toWire: (start: number, end: number) => ByteRange[], parts: HttpPart[], fields: FieldRange[], events: SseEventLayout[]): void {
  let lineStart = 0;
  let current: SseEventLayout = newEvent(0);
  const mark = (kind: FieldKind, start: number, end: number) => {
    for (const range of toWire(start, end)) fields.push({ kind, start: range.start, end: range.end });
  };
  let i = 0;
  while (i < body.length) {
    if (body[i] !== LF && body[i] !== CR) {
      i++;
      continue;
    }
    const lineEnd = i;
    i += body[i] === CR && body[i + 1] === LF ? 2 : 1;
    const text = utf8.decode(body.subarray(lineStart, lineEnd));
    current.ranges.push(...toWire(lineStart, i));
    if (text === '') {
      mark('sse-blank', lineStart, i);
      parts.push({ kind: 'sse-blank', ranges: toWire(lineStart, i), event: current.index });
      finishEvent(current);
      events.push(current);
      current = newEvent(events.length);
    } else if (text.startsWith(':')) {
      mark('sse-comment', lineStart, i);
      parts.push({ kind: 'sse-comment', ranges: toWire(lineStart, i), text: text.slice(1).trimStart(), event: current.index });
    } else {
      const colon = text.indexOf(':');
      const name = colon === -1 ? text : text.slice(0, colon);
      const value = colon === -1 ? '' : text.slice(colon + 1).replace(/^ /, '');
      const nameBytes = new TextEncoder().encode(colon === -1 ? text : text.slice(0, colon + 1) + (text[colon + 1] === ' ' ? ' ' : '')).length;
      mark('sse-field', lineStart, lineStart + nameBytes);
      mark('sse-value', lineStart + nameBytes, lineEnd);
      mark('line-end', lineEnd, i);
      parts.push({ kind: 'sse-field', ranges: toWire(lineStart, i), name, value, event: current.index });
      if (name === 'data') current.data = current.data === null ? value : `${current.data}\n${value}`;
      else if (name === 'id') current.id = value;
      else if (name === 'event') current.type = value;
      else if (name === 'retry' && /^\d+$/.test(value)) current.retry = Number(value);
    }
    lineStart = i;
  }
}

function newEvent(index: number): SseEventLayout {
  return { index, id: null, type: null, retry: null, data: null, message: undefined, summary: '', ranges: [] };
}

function finishEvent(event: SseEventLayout): void {
  if (event.data === null || event.data === '') {
    event.summary = 'priming';
    return;
  }
  try {
    event.message = JSON.parse(event.data);
  } catch {
    event.summary = 'not JSON';
    return;
  }
  event.summary = describeMessage(event.message);
}

/** `initialize #0`, `result #0`, `error #3`, `notifications/progress`. */
export function describeMessage(message: unknown): string {
  if (typeof message !== 'object' || message === null) return 'JSON';
  const value = message as { method?: unknown; id?: unknown; result?: unknown; error?: unknown };
  const id = typeof value.id === 'string' || typeof value.id === 'number' ? ` #${value.id}` : '';
  if (typeof value.method === 'string') return `${value.method}${id}`;
  if ('error' in value) return `error${id}`;
  if ('result' in value) return `result${id}`;
  return 'JSON';
}

/**
 * The header names a message spells otherwise than the usual way (`content-type`, not
 * `Content-Type`), lower-cased, each once. Names are case-insensitive (RFC 9110), so both mean the
 * same; the inspector says so, because the hosts differ here: the bridge's node:http writes the
 * names as the handler set them (lower case), the worker host as the specification spells them.
 */
export function headerNamesInOtherCase(parts: readonly HttpPart[]): string[] {
  const names = new Set<string>();
  for (const part of parts) if (part.kind === 'header' && part.name !== canonicalHeaderName(part.name)) names.add(part.name.toLowerCase());
  return [...names];
}
