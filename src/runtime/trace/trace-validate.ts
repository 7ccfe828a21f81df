// The rules for one line of a trace, in code: the same rules as docs/trace-format/trace-v1.schema.json
// (trace-schema.node.test.ts feeds both the same generated lines and checks they agree). Each check
// returns null for a good value, or a short English reason that names the field.
//
// The rules that span lines (header first, connections opened before use, fields that belong to
// another mode) live in trace-reader.ts: a schema sees one line at a time.

import {
  TRACE_FORMAT,
  SHUTDOWN_STEPS,
  TRACE_VERSION,
  type TraceEvent,
  type TraceHeader,
} from './trace-format.ts';

type Fields = Record<string, unknown>;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
// A character base64 never has. Searching for one is a plain scan that V8 runs in about half the
// time of the anchored /^[A-Za-z0-9+/]*={0,2}$/ (0.75 against 1.45 µs a 1.3 KB line, measured), a
// tenth of a 100 MB trace's opening (issue 25).
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

export function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True when a parsed line claims to be a trace header (it names the format), whatever its version. */
export function looksLikeHeader(value: unknown): value is Fields {
  return isRecord(value) && value.format === TRACE_FORMAT;
}

/** Null when `value` is a valid version-1 header; otherwise why not. */
export function checkHeader(value: unknown): string | null {
  if (!isRecord(value)) return 'the header is not a JSON object';
  if (value.format !== TRACE_FORMAT) return `field "format" must be "${TRACE_FORMAT}"`;
  if (value.version !== TRACE_VERSION) return `field "version" must be ${TRACE_VERSION}`;
  const common =
    oneOf(value, 'framingSource', ['given', 'guessed']) ??
    nonEmptyString(value, 'started', ISO_TIME, 'an ISO 8601 time') ??
    nonEmptyString(value, 'recorder');
  if (common) return common;
  switch (value.mode) {
    case 'stdio':
      return (
        oneOf(value, 'framing', ['content-length', 'ndjson']) ??
        argvField(value, 'program') ??
        onlyFields(value, ['format', 'version', 'mode', 'framing', 'framingSource', 'started', 'recorder', 'program'])
      );
    case 'between':
      return (
        oneOf(value, 'framing', ['content-length', 'ndjson']) ??
        argvField(value, 'program') ??
        argvField(value, 'client') ??
        onlyFields(value, ['format', 'version', 'mode', 'framing', 'framingSource', 'started', 'recorder', 'program', 'client'])
      );
    case 'http':
      return (
        oneOf(value, 'framing', ['http']) ??
        ('program' in value ? argvField(value, 'program') : null) ??
        ('target' in value ? nonEmptyString(value, 'target', /^https?:\/\//, 'an http(s) URL') : null) ??
        ('listen' in value ? nonEmptyString(value, 'listen', /^https?:\/\//, 'an http(s) URL') : null) ??
        onlyFields(value, ['format', 'version', 'mode', 'framing', 'framingSource', 'started', 'recorder', 'program', 'target', 'listen'])
      );
    default:
      return 'field "mode" must be one of "stdio", "between", "http"';
  }
}

// Each event's allowed fields, made once: checkEvent runs for every line of a 100 MB trace.
const BASE = ['tap', 'ev', 't'];
const ALLOWED = {
  spawn: [...BASE, 'pid', 'argv', 'proc'],
  bytes: [...BASE, 'b64', 'conn'],
  stderr: [...BASE, 'b64', 'proc'],
  exit: [...BASE, 'code', 'signal', 'proc', 'shutdown'],
  error: [...BASE, 'message', 'proc', 'conn'],
  open: [...BASE, 'conn'],
  close: [...BASE, 'conn', 'by', 'message'],
} as const;

/** Null when `value` is a valid event line (on its own; see trace-reader.ts for the rest). */
export function checkEvent(value: unknown): string | null {
  if (!isRecord(value)) return 'the event is not a JSON object';
  if (value.tap !== 1) return 'field "tap" must be 1';
  if (typeof value.t !== 'number' || !Number.isFinite(value.t) || value.t < 0) return 'field "t" must be a number of milliseconds >= 0';
  switch (value.ev) {
    case 'spawn':
      return (
        integer(value, 'pid') ??
        stringArray(value, 'argv') ??
        optionalProc(value) ??
        onlyFields(value, ALLOWED.spawn)
      );
    case 'c2s':
    case 's2c':
      return base64(value) ?? optionalConn(value) ?? onlyFields(value, ALLOWED.bytes);
    case 'stderr':
      return base64(value) ?? optionalProc(value) ?? onlyFields(value, ALLOWED.stderr);
    case 'exit':
      if (!('code' in value) || !(value.code === null || Number.isInteger(value.code))) return 'field "code" must be an integer or null';
      if (!('signal' in value) || !(value.signal === null || typeof value.signal === 'string')) return 'field "signal" must be a string or null';
      if ('shutdown' in value && !(SHUTDOWN_STEPS as readonly unknown[]).includes(value.shutdown)) return `field "shutdown" must be one of ${SHUTDOWN_STEPS.join(', ')}`;
      return optionalProc(value) ?? onlyFields(value, ALLOWED.exit);
    case 'error':
      if (typeof value.message !== 'string') return 'field "message" must be a string';
      return optionalProc(value) ?? optionalConn(value) ?? onlyFields(value, ALLOWED.error);
    case 'open':
      return connField(value) ?? onlyFields(value, ALLOWED.open);
    case 'close':
      if ('message' in value && typeof value.message !== 'string') return 'field "message" must be a string';
      return connField(value) ?? ('by' in value ? oneOf(value, 'by', ['client', 'server']) : null) ?? onlyFields(value, ALLOWED.close);
    default:
      return 'field "ev" must be one of spawn, c2s, s2c, stderr, exit, error, open, close';
  }
}

/** The value as a header, once checkHeader said yes. */
export function asHeader(value: unknown): TraceHeader {
  return value as TraceHeader;
}

/** The value as an event, once checkEvent said yes. */
export function asEvent(value: unknown): TraceEvent {
  return value as TraceEvent;
}

// ---- field checks ----

function onlyFields(value: Fields, allowed: readonly string[]): string | null {
  for (const key in value) {
    if (!allowed.includes(key)) return `unknown field "${key}"`;
  }
  return null;
}

function oneOf(value: Fields, key: string, options: readonly string[]): string | null {
  return options.includes(value[key] as string) ? null : `field "${key}" must be one of ${options.map((o) => `"${o}"`).join(', ')}`;
}

function nonEmptyString(value: Fields, key: string, pattern?: RegExp, what = 'a non-empty string'): string | null {
  const field = value[key];
  if (typeof field !== 'string' || field === '' || (pattern && !pattern.test(field))) return `field "${key}" must be ${what}`;
  return null;
}

function argvField(value: Fields, key: string): string | null {
  const field = value[key];
  if (!Array.isArray(field) || field.length === 0 || !field.every((item) => typeof item === 'string')) {
    return `field "${key}" must be a non-empty array of strings`;
  }
  return null;
}

function stringArray(value: Fields, key: string): string | null {
  const field = value[key];
  return Array.isArray(field) && field.every((item) => typeof item === 'string') ? null : `field "${key}" must be an array of strings`;
}

function integer(value: Fields, key: string): string | null {
  return Number.isInteger(value[key]) ? null : `field "${key}" must be an integer`;
}

/**
 * Whole groups of four, padded only at the end (one or two "="): exactly what atob and Buffer
 * decode without loss, the same language as the schema's group-by-group pattern.
 */
export function isBase64Text(text: string): boolean {
  if (text.length % 4 !== 0 || NOT_BASE64.test(text)) return false;
  const padding = text.indexOf('=');
  return padding === -1 || padding === text.length - 1 || (padding === text.length - 2 && text.charCodeAt(text.length - 1) === 61);
}

function base64(value: Fields): string | null {
  const b64 = value.b64;
  return typeof b64 === 'string' && isBase64Text(b64) ? null : 'field "b64" must be base64';
}

/** The tap's own bound on connection numbers (tap-protocol.ts). */
export const MAX_TRACE_CONN = 2 ** 31 - 1;

function connField(value: Fields): string | null {
  const conn = value.conn;
  return Number.isInteger(conn) && (conn as number) >= 0 && (conn as number) <= MAX_TRACE_CONN ? null : `field "conn" must be an integer from 0 to ${MAX_TRACE_CONN}`;
}

function optionalConn(value: Fields): string | null {
  return 'conn' in value ? connField(value) : null;
}

function optionalProc(value: Fields): string | null {
  return 'proc' in value ? oneOf(value, 'proc', ['client', 'server']) : null;
}
