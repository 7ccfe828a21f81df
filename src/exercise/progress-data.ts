// The stored form of a learner's progress, and reading it back whatever state it is in. Stored
// data outlives the code that wrote it, so reading never trusts it: a field of the wrong type is
// dropped, not believed, and data this code cannot read is set aside for a human, never thrown.

export const PROGRESS_VERSION = 1;

export interface ExerciseProgress {
  /** The learner's code, as last edited; absent when it is the starter. */
  code?: string;
  /** Set once a run passed; Reset keeps it. */
  completed: boolean;
  completedAt?: string;
  /** How many hints have been revealed. */
  hintsRevealed: number;
  /**
   * The reference solution replaced the learner's code at least once (Solve → Replace). Kept, like
   * the hint count, so the path map can mark a pass that was not written apart from one that was.
   */
  referenceUsed?: boolean;
  /**
   * Which hints (indexes into the hint file), in the order they were opened, when that is not
   * simply the first `hintsRevealed`: a failing test opens the hint for its own section.
   */
  hintsShown?: number[];
}

/** The hints opened, in order: `hintsShown`, or (the in-order case and older data) the first `hintsRevealed`. */
export function shownHints(progress: ExerciseProgress): number[] {
  return progress.hintsShown ?? Array.from({ length: progress.hintsRevealed }, (_, index) => index);
}

/** The fields for hints opened in this order; `hintsShown` only when it is not 0, 1, 2… (stored data stays small and old readers agree). */
export function hintFields(shown: readonly number[]): Pick<ExerciseProgress, 'hintsRevealed' | 'hintsShown'> {
  const inOrder = shown.every((hint, index) => hint === index);
  return inOrder ? { hintsRevealed: shown.length } : { hintsRevealed: shown.length, hintsShown: [...shown] };
}

/** A stored `hintsShown`: distinct whole numbers ≥ 0, at most `max` of them. */
export function isHintList(value: unknown, max = Number.MAX_SAFE_INTEGER): value is number[] {
  return Array.isArray(value) && value.length <= max && value.every((hint) => Number.isInteger(hint) && hint >= 0 && hint <= max) && new Set(value).size === value.length;
}

/** Version 1 as stored: `{ "version": 1, "exercises": { "<id>": { … } } }`. */
export interface StoredProgress {
  version: typeof PROGRESS_VERSION;
  exercises: Record<string, ExerciseProgress>;
}

export type ReadOutcome =
  | { kind: 'empty' }
  | { kind: 'ok'; data: StoredProgress }
  /** Older or unversioned data: what could be read was kept; the original should be set aside. */
  | { kind: 'migrated'; data: StoredProgress; from: string }
  /** Unreadable (bad JSON) or written by a newer version: set aside, start empty. */
  | { kind: 'unreadable'; reason: 'corrupt' | 'newer'; detail: string };

export function emptyProgress(): StoredProgress {
  return { version: PROGRESS_VERSION, exercises: {} };
}

export function readStoredProgress(raw: string | null): ReadOutcome {
  if (raw === null || raw === '') return { kind: 'empty' };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    return { kind: 'unreadable', reason: 'corrupt', detail: error instanceof Error ? error.message : String(error) };
  }
  if (!isRecord(parsed)) return { kind: 'unreadable', reason: 'corrupt', detail: 'not a JSON object' };
  const version = parsed.version;
  if (typeof version === 'number' && version > PROGRESS_VERSION) {
    return { kind: 'unreadable', reason: 'newer', detail: `written by a newer version (${version})` };
  }
  const { data, clean } = salvage(parsed);
  if (version === PROGRESS_VERSION && clean) return { kind: 'ok', data };
  const from = version === PROGRESS_VERSION ? 'version 1 with unreadable fields' : version === undefined ? 'unversioned data' : `version ${String(version)}`;
  return { kind: 'migrated', data, from };
}

/**
 * Keeps every field that has the right type. Reads `exercises` (version 1) or, for unversioned
 * data, a top-level map of exercise ids; `code`/`completed`/`hintsRevealed` and the older names
 * `source`/`done`/`hints` are understood.
 */
function salvage(parsed: Record<string, unknown>): { data: StoredProgress; clean: boolean } {
  const data = emptyProgress();
  let clean = true;
  const entries = isRecord(parsed.exercises) ? parsed.exercises : parsed.version === undefined ? parsed : {};
  if (parsed.version === PROGRESS_VERSION && !isRecord(parsed.exercises)) clean = false;
  for (const [id, value] of Object.entries(entries)) {
    if (!isRecord(value)) {
      clean = false;
      continue;
    }
    const progress: ExerciseProgress = { completed: false, hintsRevealed: 0 };
    const code = value.code ?? value.source;
    if (typeof code === 'string') progress.code = code;
    else if (code !== undefined) clean = false;
    const completed = value.completed ?? value.done;
    if (typeof completed === 'boolean') progress.completed = completed;
    else if (completed !== undefined) clean = false;
    if (typeof value.completedAt === 'string') progress.completedAt = value.completedAt;
    const hints = value.hintsRevealed ?? value.hints;
    if (typeof hints === 'number' && Number.isInteger(hints) && hints >= 0) progress.hintsRevealed = hints;
    else if (hints !== undefined) clean = false;
    if (value.referenceUsed === true) progress.referenceUsed = true;
    else if (value.referenceUsed !== undefined && value.referenceUsed !== false) clean = false;
    if (isHintList(value.hintsShown)) Object.assign(progress, hintFields(value.hintsShown));
    else if (value.hintsShown !== undefined) clean = false;
    data.exercises[id] = progress;
  }
  return { data, clean };
}

/** Drops what need not be stored (defaults), so the stored JSON stays small. */
export function serializeProgress(data: StoredProgress): string {
  const exercises: Record<string, Partial<ExerciseProgress>> = {};
  for (const [id, progress] of Object.entries(data.exercises)) {
    const entry: Partial<ExerciseProgress> = {};
    if (progress.code !== undefined) entry.code = progress.code;
    if (progress.completed) entry.completed = true;
    if (progress.completedAt !== undefined) entry.completedAt = progress.completedAt;
    if (progress.hintsRevealed > 0) entry.hintsRevealed = progress.hintsRevealed;
    if (progress.referenceUsed === true) entry.referenceUsed = true;
    if (progress.hintsShown !== undefined) entry.hintsShown = progress.hintsShown;
    if (Object.keys(entry).length > 0) exercises[id] = entry;
  }
  return JSON.stringify({ version: data.version, exercises });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
