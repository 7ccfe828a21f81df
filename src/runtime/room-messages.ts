// The workshop room's wire format, between an attendee's page, the instructor's page and the
// shared bridge (server/room/). Pure (no node:*): the pages and the bridge import the same checks,
// so a report the page builds is exactly what the bridge accepts.
//
//   attendee → bridge   POST /__room/join    {"code":"K7QM2X","name":"Ada"}      → {"attendee":"…","secret":"…"}
//                       POST /__room/report  {"attendee","secret","report":{seq,…}} → {"acked":seq}
//                       GET  /__room/stream  (X-Room-Attendee / X-Room-Secret)     → text/event-stream
//   instructor → bridge GET  /__room/key     (this machine only)                    → {"key":"…","code":"…"}
//                       GET  /__room/snapshot (Authorization: Bearer key)           → RoomSnapshot
//                       POST /__room/follow  (Bearer key) a presenter's follow message → {"followers":n}
//   any follow view →   GET  /__room/follow  (attendee, X-Room-Code or Bearer key)  → text/event-stream
//
// Every request carries ROOM_REQUEST_HEADER: a custom header turns any cross-origin request into a
// CORS preflight, which the bridge never answers, so no other site can post to the room.

export const ROOM_PATH_PREFIX = '/__room/';
export const ROOM_REQUEST_HEADER = 'X-MCP-Room-Request';
export const ROOM_ATTENDEE_HEADER = 'X-Room-Attendee';
export const ROOM_SECRET_HEADER = 'X-Room-Secret';
/** A follow view that has no attendee of its own (a projector) follows with the join code. */
export const ROOM_CODE_HEADER = 'X-Room-Code';
/** Largest follow message the presenter may post: a long run's diagram with its open frame. */
export const MAX_FOLLOW_BODY_BYTES = 4 * 1024 * 1024;
/** Wrong join codes one address may try per minute before it must wait. */
export const MAX_WRONG_CODES_PER_MINUTE = 10;

/** The join code's alphabet: no 0/O, 1/I/L, 5/S or 8/B to confuse when read off a projector. */
export const JOIN_CODE_ALPHABET = '234679ACDEFGHJKMNPQRTUVWXYZ';
export const JOIN_CODE_LENGTH = 6;

/** Longest display name, in characters (code points). */
export const MAX_NAME_CHARS = 40;
/** Largest request body the room reads, in bytes. */
export const MAX_ROOM_BODY_BYTES = 8 * 1024;
/** Exercises the chapter has. */
export const ROOM_EXERCISES = 8;

/** What an attendee's page tells the room after each run and each move. */
export interface RoomReport {
  /** Per attendee, from 1, one higher each report: the bridge acknowledges each once. */
  seq: number;
  /** When the page made it (ms since the epoch): reports sent late, after a bridge restart, keep their time. */
  at: number;
  /** The station of the chapter path the attendee is on, e.g. "exercise-2" or "protocol". */
  station: string;
  /** The run this report is about, if it is about one. */
  run?: { exercise: number; passed: number; total: number };
  /** Hints opened so far, per exercise (1-based exercise number as the key). */
  hints?: Record<string, number>;
  /** Exercises where the reference solution was copied in. */
  referenceUsed?: number[];
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** A display name as typed: trimmed; refused when empty, too long or holding control characters. */
export function checkDisplayName(input: unknown): Checked<string> {
  if (typeof input !== 'string') return { ok: false, error: 'the name must be text' };
  const name = input.normalize('NFC').trim();
  if (name === '') return { ok: false, error: 'the name is empty' };
  if ([...name].length > MAX_NAME_CHARS) return { ok: false, error: `the name is longer than ${MAX_NAME_CHARS} characters` };
  // Control and format characters (line breaks, bidi overrides) would disguise a name in a log or a grid.
  if (/[\p{Cc}\p{Cf}\u2028\u2029]/u.test(name)) return { ok: false, error: 'the name holds control characters' };
  return { ok: true, value: name };
}

/** A join code as typed: case, spaces and a dash are forgiven. */
export function normalizeJoinCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const code = input.toUpperCase().replace(/[\s-]/g, '');
  if (code.length !== JOIN_CODE_LENGTH) return null;
  for (const char of code) if (!JOIN_CODE_ALPHABET.includes(char)) return null;
  return code;
}

const STATION = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** A station name as the room uses them (exercise-3, exercise-3-live, protocol, …). */
export function isStationName(value: unknown): value is string {
  return typeof value === 'string' && STATION.test(value);
}

/**
 * "Send everyone to…": the instructor's invitation, as each attendee's stream carries it. The
 * page asks its attendee (who may decline); `id` tells a new invitation from one seen again.
 */
export interface RoomInvitation {
  id: number;
  station: string;
}

/** A report from the wire: every field checked, nothing extra kept. */
export function checkRoomReport(input: unknown, now: number): Checked<RoomReport> {
  if (!isRecord(input)) return { ok: false, error: 'the report must be an object' };
  const { seq, at, station, run, hints, referenceUsed } = input;
  if (!Number.isSafeInteger(seq) || (seq as number) < 1) return { ok: false, error: 'seq must be a positive integer' };
  // A clock a little ahead is forgiven; a time from the future is clamped to now.
  if (typeof at !== 'number' || !Number.isFinite(at) || at < 0) return { ok: false, error: 'at must be a time in milliseconds' };
  if (!isStationName(station)) return { ok: false, error: 'station must be a short lower-case name' };
  const report: RoomReport = { seq: seq as number, at: Math.min(at, now), station };
  if (run !== undefined) {
    if (!isRecord(run)) return { ok: false, error: 'run must be an object' };
    const { exercise, passed, total } = run;
    if (!isExercise(exercise)) return { ok: false, error: `run.exercise must be 1..${ROOM_EXERCISES}` };
    if (!isCount(total) || !isCount(passed) || passed > total) return { ok: false, error: 'run.passed and run.total must be counts, passed ≤ total' };
    report.run = { exercise, passed, total };
  }
  if (hints !== undefined) {
    if (!isRecord(hints)) return { ok: false, error: 'hints must be an object' };
    const checked: Record<string, number> = {};
    for (const [key, count] of Object.entries(hints)) {
      if (!isExercise(Number(key)) || String(Number(key)) !== key || !isCount(count)) return { ok: false, error: 'hints maps an exercise number to a count' };
      checked[key] = count;
    }
    report.hints = checked;
  }
  if (referenceUsed !== undefined) {
    if (!Array.isArray(referenceUsed) || referenceUsed.length > ROOM_EXERCISES || !referenceUsed.every(isExercise)) {
      return { ok: false, error: 'referenceUsed lists exercise numbers' };
    }
    report.referenceUsed = [...new Set(referenceUsed as number[])].sort((a, b) => a - b);
  }
  return { ok: true, value: report };
}

/** Largest "Ask for help" body, in bytes: the attendee's whole file and their last results. */
export const MAX_HELP_BODY_BYTES = 160 * 1024;
const MAX_HELP_CODE_CHARS = 100_000;
const MAX_HELP_RESULTS = 200;
const MAX_HELP_MESSAGE_CHARS = 2_000;

/** "Ask for help": the attendee's open file and their last run's results, sent only when they press it. */
export interface HelpRequest {
  exercise: number;
  /** The file name the editor shows, e.g. jsonrpc.ts. */
  file: string;
  code: string;
  /** The last run's tests: name, status, and the failure message (cut to 2,000 characters). */
  results: { name: string; status: 'pass' | 'fail' | 'error'; message?: string }[];
  /** The frame the question is about, when there is one: the instructor opens it in the byte inspector. */
  frame?: HelpFrame;
}

/**
 * A frame as the attendee's byte inspector had it (the one they opened last, or the one their reader
 * could not read): its bytes in base64url, the chunks they arrived in, what the reader made of them.
 */
export interface HelpFrame {
  direction: 'c2s' | 's2c';
  framing: 'content-length' | 'ndjson';
  bytes: string;
  streamOffset: number;
  chunks: { index: number; start: number; end: number; chunkLength: number; t: number | null }[];
  kind: string;
  method: string | null;
  id: string | number | null;
  value: unknown;
  problem: string | null;
}

/**
 * A frame in a question is at most this many bytes (its base64url text is 4/3 of it, and its parsed
 * value about as much again), so a question with a frame stays within MAX_HELP_BODY_BYTES.
 */
export const MAX_HELP_FRAME_BYTES = 16 * 1024;
/** Chunks a question's frame may list. */
export const MAX_HELP_FRAME_CHUNKS = 256;

function checkHelpFrame(input: unknown): HelpFrame | null {
  if (!isRecord(input)) return null;
  const { direction, framing, bytes, streamOffset, chunks, kind, method, id, value, problem } = input;
  const nullableText = (text: unknown, max: number) => text === null || (typeof text === 'string' && text.length <= max);
  const isChunk = (chunk: unknown) =>
    isRecord(chunk) && [chunk.index, chunk.start, chunk.end, chunk.chunkLength].every((n) => Number.isSafeInteger(n) && (n as number) >= 0) && (chunk.t === null || typeof chunk.t === 'number');
  const ok =
    (direction === 'c2s' || direction === 's2c') &&
    (framing === 'content-length' || framing === 'ndjson') &&
    typeof bytes === 'string' &&
    /^[A-Za-z0-9_-]*$/.test(bytes) &&
    bytes.length <= Math.ceil((MAX_HELP_FRAME_BYTES * 4) / 3) &&
    Number.isSafeInteger(streamOffset) &&
    (streamOffset as number) >= 0 &&
    Array.isArray(chunks) &&
    chunks.length <= MAX_HELP_FRAME_CHUNKS &&
    chunks.every(isChunk) &&
    typeof kind === 'string' &&
    /^[a-z-]{1,32}$/.test(kind) &&
    nullableText(method, 200) &&
    (nullableText(id, 200) || (typeof id === 'number' && Number.isFinite(id))) &&
    nullableText(problem, MAX_HELP_MESSAGE_CHARS);
  return ok ? { direction, framing, bytes, streamOffset, chunks, kind, method, id, value: value ?? null, problem } as HelpFrame : null;
}

/** One open question in the instructor's queue (the file itself is fetched when opened). */
export interface HelpQueueItem {
  id: number;
  attendee: string;
  name: string;
  at: number;
  exercise: number;
  file: string;
  failing: number;
}

export function checkHelpRequest(input: unknown): Checked<HelpRequest> {
  if (!isRecord(input)) return { ok: false, error: 'the request must be an object' };
  const { exercise, file, code, results } = input;
  if (!isExercise(exercise)) return { ok: false, error: `exercise must be 1..${ROOM_EXERCISES}` };
  if (typeof file !== 'string' || !/^[\w.-]{1,64}$/.test(file)) return { ok: false, error: 'file must be a file name' };
  if (typeof code !== 'string' || code.length > MAX_HELP_CODE_CHARS) return { ok: false, error: `code must be text of at most ${MAX_HELP_CODE_CHARS} characters` };
  if (!Array.isArray(results) || results.length > MAX_HELP_RESULTS) return { ok: false, error: `results must be a list of at most ${MAX_HELP_RESULTS} tests` };
  const checked: HelpRequest['results'] = [];
  for (const result of results) {
    if (!isRecord(result) || typeof result.name !== 'string' || result.name.length > 500 || !['pass', 'fail', 'error'].includes(result.status as string)) {
      return { ok: false, error: 'each result needs a name and a status (pass, fail or error)' };
    }
    const item: HelpRequest['results'][number] = { name: result.name, status: result.status as 'pass' | 'fail' | 'error' };
    if (typeof result.message === 'string') item.message = result.message.slice(0, MAX_HELP_MESSAGE_CHARS);
    checked.push(item);
  }
  if (input.frame === undefined) return { ok: true, value: { exercise, file, code, results: checked } };
  const frame = checkHelpFrame(input.frame);
  if (frame === null) return { ok: false, error: 'the frame must be one the byte inspector showed (at most 16 KiB)' };
  return { ok: true, value: { exercise, file, code, results: checked, frame } };
}

/** One attendee as the instructor's grid shows them. */
export interface RoomAttendeeView {
  attendee: string;
  name: string;
  joinedAt: number;
  /** Whether their page holds a live stream to the bridge now. */
  connected: boolean;
  /** Whether a page of theirs follows the presenter now. */
  following: boolean;
  station: string | null;
  /** Since when they are on that station. */
  stationSince: number | null;
  /** Their last run of any exercise, and their last run that passed a test more than before. */
  lastRunAt: number | null;
  lastNewPassAt: number | null;
  exercises: Record<string, { passed: number; total: number; hints: number; referenceUsed: boolean }>;
}

export interface RoomSnapshot {
  code: string;
  attendees: RoomAttendeeView[];
  /** Open "Ask for help" questions, oldest first. */
  help: HelpQueueItem[];
  /** Reports acknowledged, in all: what the room file holds. */
  reports: number;
  /** Follow views reading the presenter over the room now (attendees' pages and projectors). */
  followers: number;
}

/**
 * The class's progress over time (GET /__room/progress, the instructor's chart): at each time (ms),
 * how many had joined and how many had completed each exercise (`completed[exercise - 1]`).
 */
export interface RoomProgress {
  times: number[];
  joined: number[];
  completed: number[][];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= 100_000;
}

function isExercise(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 1 && (value as number) <= ROOM_EXERCISES;
}
