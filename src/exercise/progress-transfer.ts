// The progress file: everything the progress store holds (code, completed marks, hints revealed,
// per exercise), wrapped with a format marker, the file's version, the app version and the date.
//
// Reading a file is strict, unlike reading the browser's own storage (progress-data.ts salvages
// what it can, because there is nobody to ask): here a learner chose the file and can choose
// another, so anything wrong refuses the whole file and names the field, rather than importing
// half of it quietly.

import { hintFields, isHintList, PROGRESS_VERSION, serializeProgress, type ExerciseProgress, type StoredProgress } from './progress-data.ts';

export const PROGRESS_FILE_FORMAT = 'mcp-playground-progress';
export const PROGRESS_FILE_VERSION = 1;

/** Limits far above real use (five exercises of a few kilobytes), so a wrong file fails fast. */
export const PROGRESS_FILE_LIMITS = {
  fileBytes: 5 * 1024 * 1024,
  exercises: 200,
  codeChars: 500_000,
  hints: 100,
  idChars: 100,
} as const;

/** An exercise id as the catalogue writes them (`03-client`); never `__proto__` or a path. */
const EXERCISE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export interface ProgressFile {
  format: typeof PROGRESS_FILE_FORMAT;
  formatVersion: number;
  appVersion: string;
  exportedAt: string;
  progress: StoredProgress;
}

export type ProgressFileProblem =
  | { reason: 'too-large'; size: number; limit: number }
  | { reason: 'not-json'; detail: string }
  /** Valid JSON, but not a progress file of this app (no format marker). */
  | { reason: 'not-ours' }
  | { reason: 'newer-version'; version: number }
  /** One of ours, but a field is wrong: `field` is its path, `expected` what it should be (English, for logs). */
  | { reason: 'bad-field'; field: string; expected: string };

export type ProgressFileOutcome = { ok: true; file: ProgressFile } | { ok: false; problem: ProgressFileProblem };

/** `mcp-playground-progress-2026-11-30.json`, in the learner's own calendar day. */
export function progressFileName(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${PROGRESS_FILE_FORMAT}-${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}.json`;
}

/** The file's text: indented, so a curious learner (or a teacher) can read it. */
export function createProgressFile(progress: StoredProgress, meta: { appVersion: string; exportedAt: Date }): string {
  // The stored form drops defaults; the file carries the same, behind its header.
  const stored = JSON.parse(serializeProgress(progress)) as StoredProgress;
  const file: ProgressFile = { format: PROGRESS_FILE_FORMAT, formatVersion: PROGRESS_FILE_VERSION, appVersion: meta.appVersion, exportedAt: meta.exportedAt.toISOString(), progress: stored };
  return `${JSON.stringify(file, null, 2)}\n`;
}

const bad = (field: string, expected: string): ProgressFileOutcome => ({ ok: false, problem: { reason: 'bad-field', field, expected } });

/** Reads a chosen file's text; `byteSize` is the file's size, checked before anything is parsed. */
export function parseProgressFile(text: string, byteSize = text.length): ProgressFileOutcome {
  if (byteSize > PROGRESS_FILE_LIMITS.fileBytes) return { ok: false, problem: { reason: 'too-large', size: byteSize, limit: PROGRESS_FILE_LIMITS.fileBytes } };
  let parsed: unknown;
  try {
    // A byte-order mark is what some editors add when a learner opens and saves the file.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    return { ok: false, problem: { reason: 'not-json', detail: error instanceof Error ? error.message : String(error) } };
  }
  if (!isRecord(parsed) || parsed.format !== PROGRESS_FILE_FORMAT) return { ok: false, problem: { reason: 'not-ours' } };
  const { formatVersion, appVersion, exportedAt, progress } = parsed;
  if (typeof formatVersion !== 'number' || !Number.isInteger(formatVersion) || formatVersion < 1) return bad('formatVersion', 'a whole number from 1');
  if (formatVersion > PROGRESS_FILE_VERSION) return { ok: false, problem: { reason: 'newer-version', version: formatVersion } };
  if (typeof appVersion !== 'string' || appVersion.length > 100) return bad('appVersion', 'a short text');
  if (typeof exportedAt !== 'string' || !isIsoDate(exportedAt)) return bad('exportedAt', 'an ISO date');
  if (!isRecord(progress)) return bad('progress', 'an object');
  if (typeof progress.version !== 'number' || !Number.isInteger(progress.version)) return bad('progress.version', 'a whole number');
  if (progress.version > PROGRESS_VERSION) return { ok: false, problem: { reason: 'newer-version', version: progress.version } };
  if (progress.version !== PROGRESS_VERSION) return bad('progress.version', `${PROGRESS_VERSION}`);
  if (!isRecord(progress.exercises)) return bad('progress.exercises', 'an object');
  const entries = Object.entries(progress.exercises);
  if (entries.length > PROGRESS_FILE_LIMITS.exercises) return bad('progress.exercises', `at most ${PROGRESS_FILE_LIMITS.exercises} exercises`);
  const exercises: Record<string, ExerciseProgress> = {};
  for (const [id, value] of entries) {
    const field = `progress.exercises["${id.slice(0, 40)}"]`;
    if (id.length > PROGRESS_FILE_LIMITS.idChars || !EXERCISE_ID.test(id)) return bad(field, 'an exercise id such as "01-jsonrpc"');
    const entry = readEntry(value, field);
    if ('problem' in entry) return entry.problem;
    exercises[id] = entry.progress;
  }
  return { ok: true, file: { format: PROGRESS_FILE_FORMAT, formatVersion, appVersion, exportedAt, progress: { version: PROGRESS_VERSION, exercises } } };
}

function readEntry(value: unknown, field: string): { progress: ExerciseProgress } | { problem: ProgressFileOutcome } {
  if (!isRecord(value)) return { problem: bad(field, 'an object') };
  const progress: ExerciseProgress = { completed: false, hintsRevealed: 0 };
  if (value.code !== undefined) {
    if (typeof value.code !== 'string') return { problem: bad(`${field}.code`, 'text') };
    if (value.code.length > PROGRESS_FILE_LIMITS.codeChars) return { problem: bad(`${field}.code`, `at most ${PROGRESS_FILE_LIMITS.codeChars} characters`) };
    progress.code = value.code;
  }
  if (value.completed !== undefined) {
    if (typeof value.completed !== 'boolean') return { problem: bad(`${field}.completed`, 'true or false') };
    progress.completed = value.completed;
  }
  if (value.completedAt !== undefined) {
    if (typeof value.completedAt !== 'string' || !isIsoDate(value.completedAt)) return { problem: bad(`${field}.completedAt`, 'an ISO date') };
    progress.completedAt = value.completedAt;
  }
  if (value.hintsRevealed !== undefined) {
    const hints = value.hintsRevealed;
    if (typeof hints !== 'number' || !Number.isInteger(hints) || hints < 0 || hints > PROGRESS_FILE_LIMITS.hints) return { problem: bad(`${field}.hintsRevealed`, `a whole number from 0 to ${PROGRESS_FILE_LIMITS.hints}`) };
    progress.hintsRevealed = hints;
  }
  if (value.hintsShown !== undefined) {
    if (!isHintList(value.hintsShown, PROGRESS_FILE_LIMITS.hints)) return { problem: bad(`${field}.hintsShown`, `distinct whole numbers from 0 to ${PROGRESS_FILE_LIMITS.hints}`) };
    Object.assign(progress, hintFields(value.hintsShown));
  }
  if (value.referenceUsed !== undefined) {
    if (typeof value.referenceUsed !== 'boolean') return { problem: bad(`${field}.referenceUsed`, 'true or false') };
    if (value.referenceUsed) progress.referenceUsed = true;
  }
  return { progress };
}

function isIsoDate(text: string): boolean {
  return text.length <= 40 && /^\d{4}-\d{2}-\d{2}T/.test(text) && !Number.isNaN(Date.parse(text));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
