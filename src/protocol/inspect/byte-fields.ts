// What each byte of a frame is: header name, header value, the separator, the JSON body, the
// final newline. And, inside the body, which bytes spell which JSON value, so hovering a field in
// the decoded tree lights its bytes and hovering a byte lights its field.

import type { FramingName } from '../framing/types.ts';

export type FieldKind =
  | 'header-name'
  | 'header-value'
  | 'line-end'
  | 'separator'
  | 'body'
  | 'newline'
  | 'junk'
  // HTTP/1.1 and its event streams (http-layout.ts)
  | 'start-line'
  | 'blank-line'
  | 'chunk-size'
  | 'chunk-end'
  | 'sse-field'
  | 'sse-value'
  | 'sse-comment'
  | 'sse-blank';

/** Field kinds in the order the legend lists them. */
export const FIELD_KINDS: readonly FieldKind[] = ['header-name', 'header-value', 'line-end', 'separator', 'body', 'newline', 'junk'];
/** The kinds an HTTP message's bytes can have, in legend order. */
export const HTTP_FIELD_KINDS: readonly FieldKind[] = ['start-line', 'header-name', 'header-value', 'line-end', 'blank-line', 'body', 'chunk-size', 'chunk-end', 'sse-field', 'sse-value', 'sse-comment', 'sse-blank', 'junk'];

export interface FieldRange {
  kind: FieldKind;
  start: number;
  /** Exclusive. */
  end: number;
}

export interface FrameLayout {
  fields: FieldRange[];
  /** The body's bytes, when the frame has a readable one. */
  body: { start: number; end: number } | null;
  /** The Content-Length header's value; null for NDJSON or a header without one. */
  declaredLength: number | null;
}

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const SPACE = 0x20;
const ascii = new TextDecoder('latin1');

/** Split one frame (as the reader delimited it) into its fields. Never throws. */
export function frameLayout(bytes: Uint8Array, framing: FramingName): FrameLayout {
  return framing === 'ndjson' ? ndjsonLayout(bytes) : contentLengthLayout(bytes);
}

function ndjsonLayout(bytes: Uint8Array): FrameLayout {
  let end = bytes.length;
  if (end > 0 && bytes[end - 1] === LF) end--;
  // The SDK strips one CR before the LF as well: it is part of the line ending, not the JSON.
  if (end > 0 && bytes[end - 1] === CR && end < bytes.length) end--;
  const fields: FieldRange[] = [];
  if (end > 0) fields.push({ kind: 'body', start: 0, end });
  if (end < bytes.length) fields.push({ kind: 'newline', start: end, end: bytes.length });
  return { fields, body: end > 0 ? { start: 0, end } : null, declaredLength: null };
}

function contentLengthLayout(bytes: Uint8Array): FrameLayout {
  const blank = indexOfCrlfCrlf(bytes);
  if (blank === -1) return { fields: bytes.length > 0 ? [{ kind: 'junk', start: 0, end: bytes.length }] : [], body: null, declaredLength: null };

  const fields: FieldRange[] = [];
  let declaredLength: number | null = null;
  let lineStart = 0;
  while (lineStart < blank) {
    let lineEnd = indexOfCrlf(bytes, lineStart);
    if (lineEnd === -1 || lineEnd > blank) lineEnd = blank;
    const colon = bytes.indexOf(COLON, lineStart);
    if (colon === -1 || colon >= lineEnd) {
      fields.push({ kind: 'junk', start: lineStart, end: lineEnd });
    } else {
      // The name field takes the colon and the optional space after it, so the value is just the value.
      let valueStart = colon + 1;
      while (valueStart < lineEnd && bytes[valueStart] === SPACE) valueStart++;
      fields.push({ kind: 'header-name', start: lineStart, end: valueStart });
      if (lineEnd > valueStart) fields.push({ kind: 'header-value', start: valueStart, end: lineEnd });
      const name = ascii.decode(bytes.subarray(lineStart, colon)).trim().toLowerCase();
      if (name === 'content-length') {
        const text = ascii.decode(bytes.subarray(valueStart, lineEnd)).trim();
        if (/^\d+$/.test(text)) declaredLength = Number(text);
      }
    }
    if (lineEnd < blank) fields.push({ kind: 'line-end', start: lineEnd, end: lineEnd + 2 });
    lineStart = lineEnd + 2;
  }
  fields.push({ kind: 'separator', start: blank, end: blank + 4 });
  const bodyStart = blank + 4;
  if (bodyStart < bytes.length) fields.push({ kind: 'body', start: bodyStart, end: bytes.length });
  return { fields, body: { start: bodyStart, end: bytes.length }, declaredLength };
}

function indexOfCrlf(bytes: Uint8Array, from: number): number {
  for (let i = from; i + 1 < bytes.length; i++) if (bytes[i] === CR && bytes[i + 1] === LF) return i;
  return -1;
}

function indexOfCrlfCrlf(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === CR && bytes[i + 1] === LF && bytes[i + 2] === CR && bytes[i + 3] === LF) return i;
  }
  return -1;
}

/** For each byte, its field kind: O(1) lookups while rendering cells. */
export function fieldKindByByte(length: number, fields: readonly FieldRange[]): Array<FieldKind | undefined> {
  const kinds = new Array<FieldKind | undefined>(length).fill(undefined);
  for (const field of fields) for (let i = field.start; i < field.end && i < length; i++) kinds[i] = field.kind;
  return kinds;
}

// ---- the JSON body: value → bytes ----

export type JsonPath = ReadonlyArray<string | number>;

/** The bytes of one JSON value (and of its key, for an object member). Offsets are frame offsets. */
export interface JsonRange {
  path: JsonPath;
  start: number;
  end: number;
  keyStart?: number;
  keyEnd?: number;
}

/** A stable string for a path, usable as a React key or a Map key. */
export function pathKey(path: JsonPath): string {
  return JSON.stringify(path);
}

/**
 * Where every value of `value` sits in the body bytes. The body is compact JSON.stringify output
 * (both framings send exactly that), so serialising the parsed value again, counting UTF-8 bytes
 * as we go, lands on the same bytes. That is checked: if the re-serialised text is not the body
 * byte for byte (a server that pretty-prints, or escapes differently), the answer is null and the
 * inspector says the mapping is unavailable rather than point at the wrong bytes.
 */
export function jsonByteRanges(value: unknown, bodyBytes: Uint8Array, bodyStart = 0): JsonRange[] | null {
  const ranges: JsonRange[] = [];
  const pieces: string[] = [];
  let offset = bodyStart;
  const emit = (text: string) => {
    pieces.push(text);
    offset += utf8Length(text);
  };

  // Pre-order: a value's range is filed before its children's, so the list is in document order.
  const walk = (node: unknown, path: JsonPath, key?: { start: number; end: number }): boolean => {
    const range: JsonRange = { path, start: offset, end: offset };
    if (key) {
      range.keyStart = key.start;
      range.keyEnd = key.end;
    }
    ranges.push(range);
    if (Array.isArray(node)) {
      emit('[');
      for (let i = 0; i < node.length; i++) {
        if (i > 0) emit(',');
        if (!walk(node[i], [...path, i])) return false;
      }
      emit(']');
    } else if (typeof node === 'object' && node !== null) {
      emit('{');
      let first = true;
      for (const [name, child] of Object.entries(node)) {
        if (child === undefined) continue;
        if (!first) emit(',');
        first = false;
        const keyStart = offset;
        emit(JSON.stringify(name));
        const keyEnd = offset;
        emit(':');
        if (!walk(child, [...path, name], { start: keyStart, end: keyEnd })) return false;
      }
      emit('}');
    } else {
      const text = JSON.stringify(node);
      if (text === undefined) return false;
      emit(text);
    }
    range.end = offset;
    return true;
  };

  if (!walk(value, [])) return null;
  return bytesEqual(new TextEncoder().encode(pieces.join('')), bodyBytes) ? ranges : null;
}

/** The bytes to light for a value: an object member's key through the end of its value. */
export function highlightOf(range: JsonRange): { start: number; end: number } {
  return { start: range.keyStart ?? range.start, end: range.end };
}

/** The innermost value whose bytes (its key's included) contain byte `index`. */
export function rangeAtByte(ranges: readonly JsonRange[], index: number): JsonRange | undefined {
  let best: JsonRange | undefined;
  let bestSpan = Infinity;
  for (const range of ranges) {
    const { start, end } = highlightOf(range);
    if (index < start || index >= end) continue;
    // <= keeps the later (deeper) of two equal spans: a one-element array and its element, say.
    if (end - start <= bestSpan) {
      best = range;
      bestSpan = end - start;
    }
  }
  return best;
}

/** UTF-8 byte length of a string without encoding it. */
export function utf8Length(text: string): number {
  let length = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) length += 1;
    else if (unit < 0x800) length += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      length += 4;
      i++;
    } else length += 3;
  }
  return length;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
