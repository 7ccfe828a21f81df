// Find in the message log: search (method, id, text in the body), filters by direction, method,
// kind and time range, pins, and "go to the request/response of this id". Pure functions over log
// entries, so the live log and an opened trace share them, and they run the same in a test.

import { idKey, type JsonRpcId } from '../../protocol/jsonrpc.ts';
import type { LogEntry, LogFrame, WireDirection } from './message-log.ts';

/** What a learner filters by: the JSON-RPC kinds, unreadable bytes ("stray"), and stderr. */
export type FindKind = 'request' | 'notification' | 'response' | 'error' | 'stray' | 'stderr';
export const FIND_KINDS: readonly FindKind[] = ['request', 'notification', 'response', 'error', 'stray', 'stderr'];
export const FIND_DIRECTIONS: readonly WireDirection[] = ['c2s', 's2c'];

export interface LogQuery {
  /** Matched, ignoring case, against methods, ids and the body text. Empty: no search. */
  text: string;
  /** Empty: both directions. Entries that are not bytes (stderr, the process) have no direction. */
  directions: readonly WireDirection[];
  /** Empty: every kind. */
  kinds: readonly FindKind[];
  /** A method name, exactly (a response counts with the method of the request it answers). */
  method: string | null;
  /** Tap time bounds in ms, inclusive; an entry without a tap time fails a bound. */
  from: number | null;
  to: number | null;
  pinnedOnly: boolean;
}

export const EMPTY_QUERY: LogQuery = { text: '', directions: [], kinds: [], method: null, from: null, to: null, pinnedOnly: false };

export function isQueryActive(query: LogQuery): boolean {
  return (
    query.text.trim() !== '' ||
    query.directions.length > 0 ||
    query.kinds.length > 0 ||
    query.method !== null ||
    query.from !== null ||
    query.to !== null ||
    query.pinnedOnly
  );
}

export function frameKind(frame: LogFrame): FindKind {
  if (frame.type === 'error') return 'stray';
  if (frame.kind === 'error-response' || frame.kind === 'invalid') return 'error';
  return frame.kind;
}

/** The kinds an entry holds: a chunk may complete several frames of different kinds. */
export function entryKinds(entry: LogEntry): FindKind[] {
  if (entry.type === 'stderr') return ['stderr'];
  if (entry.type !== 'bytes') return [];
  return [...new Set(entry.frames.map(frameKind))];
}

// A search lowercases nothing and keeps nothing: each text is tested as it is with a
// case-insensitive pattern, so searching a 100 MB trace makes no second copy of its text (a
// trace's frames decode their JSON from the bytes for the test and drop it; see packed-entries.ts).
let compiled: { needle: string; pattern: RegExp } | null = null;

function patternOf(needle: string): RegExp {
  if (compiled?.needle !== needle) compiled = { needle, pattern: new RegExp(needle.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'iu') };
  return compiled.pattern;
}

function frameHas(frame: LogFrame, pattern: RegExp): boolean {
  if (frame.type === 'error') return pattern.test(`${frame.kind} ${frame.detail}`);
  return (frame.method !== null && pattern.test(frame.method)) || (frame.id !== null && pattern.test(`#${JSON.stringify(frame.id)}`)) || pattern.test(jsonText(frame));
}

// Frames of an opened trace carry their JSON (src/app/trace/packed-entries.ts): searching that
// does not parse a hundred thousand frames.
function jsonText(frame: Extract<LogFrame, { type: 'message' }>): string {
  const carried = (frame as { json?: unknown }).json;
  return typeof carried === 'string' ? carried : (JSON.stringify(frame.value) ?? '');
}

/** Does anything a search looks at in one entry hold the needle (any case)? */
export function entryHasText(entry: LogEntry, needle: string): boolean {
  const pattern = patternOf(needle);
  switch (entry.type) {
    case 'bytes':
      // The frames' JSON; the chunk's own text only where no frame holds the bytes (a stray line,
      // half a frame): decoding every chunk again would double a long trace's search.
      return entry.frames.some((frame) => frameHas(frame, pattern)) || ((entry.frames.length === 0 || entry.frames.some((frame) => frame.type === 'error')) && pattern.test(entry.text));
    case 'stderr':
      return pattern.test(entry.text);
    case 'spawn':
      return pattern.test(entry.argv.join(' '));
    case 'exit':
      return pattern.test(`exit ${entry.code ?? ''} ${entry.signal ?? ''}`);
    case 'error':
      return pattern.test(entry.message);
    case 'closed':
      return pattern.test(entry.reason);
    case 'connection':
      return pattern.test(`connection ${entry.conn} ${entry.state} ${entry.message ?? ''}`);
  }
}

function entryMethods(entry: LogEntry): string[] {
  if (entry.type !== 'bytes') return [];
  return entry.frames.flatMap((frame) => (frame.type === 'message' && frame.method !== null ? [frame.method] : []));
}

/** Does one entry pass every criterion of the query (they combine with AND)? */
export function entryMatches(entry: LogEntry, query: LogQuery, pins: ReadonlySet<number>): boolean {
  if (query.pinnedOnly && !pins.has(entry.seq)) return false;
  if (query.directions.length > 0 && (entry.type !== 'bytes' || !query.directions.includes(entry.direction))) return false;
  if (query.kinds.length > 0 && !entryKinds(entry).some((kind) => query.kinds.includes(kind))) return false;
  if (query.method !== null && !entryMethods(entry).includes(query.method)) return false;
  if (query.from !== null && (entry.t === null || entry.t < query.from)) return false;
  if (query.to !== null && (entry.t === null || entry.t > query.to)) return false;
  const needle = query.text.trim();
  if (needle !== '' && !entryHasText(entry, needle)) return false;
  return true;
}

/**
 * The entries to show: those that match, plus `reveal` (the target of a "go to", which must show
 * even when the filters would hide it).
 */
export function filterEntries(entries: readonly LogEntry[], query: LogQuery, pins: ReadonlySet<number>, reveal: number | null = null): readonly LogEntry[] {
  if (!isQueryActive(query)) return entries;
  return entries.filter((entry) => entry.seq === reveal || entryMatches(entry, query, pins));
}

/** Runs `run` later; returns a function that cancels it. */
export type Schedule = (run: () => void) => () => void;

const laterTask: Schedule = (run) => {
  const timer = setTimeout(run, 0);
  return () => clearTimeout(timer);
};

/** Entries one slice filters: a few milliseconds of work, so the page stays responsive. */
export const FILTER_SLICE = 4000;

/**
 * filterEntries for a long log (an opened trace), a slice per task: the first search of 100,000
 * frames' JSON would otherwise block the page for a second. `onDone` gets the same result
 * filterEntries gives; the returned function cancels (a newer query replaces this one).
 */
export function filterInSlices(
  entries: readonly LogEntry[],
  query: LogQuery,
  pins: ReadonlySet<number>,
  reveal: number | null,
  onDone: (shown: readonly LogEntry[]) => void,
  options: { slice?: number; schedule?: Schedule } = {},
): () => void {
  if (!isQueryActive(query)) {
    onDone(entries);
    return () => {};
  }
  const slice = options.slice ?? FILTER_SLICE;
  const schedule = options.schedule ?? laterTask;
  const shown: LogEntry[] = [];
  let at = 0;
  let cancel = () => {};
  const step = () => {
    const end = Math.min(entries.length, at + slice);
    for (; at < end; at++) {
      const entry = entries[at]!;
      if (entry.seq === reveal || entryMatches(entry, query, pins)) shown.push(entry);
    }
    if (at >= entries.length) onDone(shown);
    else cancel = schedule(step);
  };
  cancel = schedule(step);
  return () => cancel();
}

/** Every method in the log, sorted: the choices of the method filter. Plain loops: a trace has 100,000 entries. */
export function methodsOf(entries: readonly LogEntry[]): string[] {
  const methods = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== 'bytes') continue;
    for (const frame of entry.frames) if (frame.type === 'message' && frame.method !== null) methods.add(frame.method);
  }
  return [...methods].sort();
}

/** The tap times the log spans (for the time range's placeholders); null when no entry has one. */
export function timeSpan(entries: readonly LogEntry[]): { first: number; last: number } | null {
  let first = Infinity;
  let last = -Infinity;
  for (const entry of entries) {
    if (entry.t === null) continue;
    first = Math.min(first, entry.t);
    last = Math.max(last, entry.t);
  }
  return first === Infinity ? null : { first, last };
}

export interface FrameRef {
  seq: number;
  frameIndex: number;
}

/** Which way "go to" points from a frame: a request's response, a response's request, or nowhere. */
export function partnerRole(frame: LogFrame): 'response' | 'request' | null {
  if (frame.type !== 'message' || frame.id === null) return null;
  if (frame.kind === 'request') return 'response';
  if (frame.kind === 'response' || frame.kind === 'error-response') return 'request';
  return null;
}

/**
 * The frame that pairs with frame `frameIndex` of entry `seq`: the response to a request (the first
 * one after it, travelling the other way, with the same id) or the request a response answers (the
 * last one before it). Only within one server run: ids start again after a spawn.
 */
export function findPartner(entries: readonly LogEntry[], seq: number, frameIndex: number): FrameRef | null {
  const at = entries.findIndex((entry) => entry.seq === seq);
  const entry = entries[at];
  if (entry?.type !== 'bytes') return null;
  const frame = entry.frames[frameIndex];
  if (frame === undefined) return null;
  const role = partnerRole(frame);
  if (role === null || frame.type !== 'message' || frame.id === null) return null;
  const key = idKey(frame.id);
  const other: WireDirection = entry.direction === 'c2s' ? 's2c' : 'c2s';
  const step = role === 'response' ? 1 : -1;
  // A response may sit in the same chunk as its request only when it travels the same way, which
  // is not a pair; so the search starts at the next (or previous) entry.
  for (let i = at + step; i >= 0 && i < entries.length; i += step) {
    const candidate = entries[i]!;
    if (candidate.type === 'spawn') return null;
    if (candidate.type !== 'bytes' || candidate.direction !== other) continue;
    const indexes = candidate.frames.map((_, index) => index);
    if (step < 0) indexes.reverse();
    for (const index of indexes) {
      const match = candidate.frames[index]!;
      if (match.type !== 'message' || match.id === null || idKey(match.id) !== key) continue;
      const wanted = role === 'response' ? match.kind === 'response' || match.kind === 'error-response' : match.kind === 'request';
      if (wanted) return { seq: candidate.seq, frameIndex: index };
    }
  }
  return null;
}

/** The id a frame carries, for labels ("go to the response of #3"). */
export function frameId(frame: LogFrame): JsonRpcId | null {
  return frame.type === 'message' ? frame.id : null;
}

/** Parse a time bound typed by the learner: a number of ms, or empty for none; NaN stays out. */
export function parseTimeBound(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}
