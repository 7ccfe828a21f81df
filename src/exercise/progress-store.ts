// The learner's progress: code per exercise (autosaved as they type), completion marks and how
// many hints they opened. A small store for the UI (`subscribe` + `getSnapshot` for
// useSyncExternalStore) over a Storage-like object (localStorage in the page, a map in tests).
//
// Nothing here throws to the page. Storage can be missing (private mode, blocked cookies), full
// (QuotaExceededError) or hold data this version cannot read; each case keeps the page working,
// in memory if need be, and leaves a notice the UI can show.

import { emptyProgress, hintFields, readStoredProgress, serializeProgress, shownHints, type ExerciseProgress, type StoredProgress } from './progress-data.ts';

export type { ExerciseProgress } from './progress-data.ts';

/** The part of the Web Storage API used here. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export type ProgressNoticeKind = 'storage-unavailable' | 'quota-exceeded' | 'corrupt-data-set-aside' | 'newer-data-set-aside' | 'old-data-migrated' | 'write-failed';

export interface ProgressNotice {
  kind: ProgressNoticeKind;
  /** English sentence for logs; the UI translates by `kind`. */
  message: string;
  /** Where the unreadable data was put, when it was. */
  backupKey?: string;
}

export interface ProgressSnapshot {
  readonly exercises: Readonly<Record<string, Readonly<ExerciseProgress>>>;
  readonly notices: readonly ProgressNotice[];
  /** False when progress lives only in memory and is lost on reload. */
  readonly persistent: boolean;
}

export interface ProgressStoreOptions {
  /** null: no storage at all (memory only). */
  storage: StorageLike | null;
  key?: string;
  /** Delay before code edits are written; pagehide / hidden flush at once. Default 300 ms. */
  debounceMs?: number;
  now?: () => Date;
}

export const DEFAULT_PROGRESS_KEY = 'mcp-playground:progress';
const NOT_STARTED: ExerciseProgress = Object.freeze({ completed: false, hintsRevealed: 0 });

export class ProgressStore {
  private data: StoredProgress = emptyProgress();
  private snapshot: ProgressSnapshot;
  private readonly listeners = new Set<() => void>();
  private readonly notices: ProgressNotice[] = [];
  private storage: StorageLike | null;
  private readonly key: string;
  private readonly debounceMs: number;
  private readonly now: () => Date;
  private pendingWrite: ReturnType<typeof setTimeout> | undefined;
  /** The progress as it was before the last import, for undo (also written under importBackupKey). */
  private beforeImport: StoredProgress | null = null;

  constructor(options: ProgressStoreOptions) {
    this.storage = options.storage;
    this.key = options.key ?? DEFAULT_PROGRESS_KEY;
    this.debounceMs = options.debounceMs ?? 300;
    this.now = options.now ?? (() => new Date());
    if (!this.storage) this.notice('storage-unavailable', 'Browser storage is not available: progress is kept only until the page is closed.');
    this.load();
    this.snapshot = this.makeSnapshot();
  }

  get backupKey(): string {
    return `${this.key}:backup`;
  }

  /** Where the progress from before the last import is kept, so a reload cannot lose it either. */
  get importBackupKey(): string {
    return `${this.key}:before-import`;
  }

  // ---- reading ----

  getSnapshot = (): ProgressSnapshot => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  get(exerciseId: string): Readonly<ExerciseProgress> {
    return this.data.exercises[exerciseId] ?? NOT_STARTED;
  }

  /** Everything, for export: the in-memory state, which already holds edits not yet written. */
  exportData(): StoredProgress {
    return { version: this.data.version, exercises: { ...this.data.exercises } };
  }

  /** True after an import, until it is undone: the earlier progress can come back. */
  get canUndoImport(): boolean {
    return this.beforeImport !== null;
  }

  // ---- changes ----

  /**
   * Replaces all progress (an import the learner confirmed). What was there before is kept, in
   * memory and under `importBackupKey`, and `undoImport` puts it back.
   */
  replaceAll(next: StoredProgress): void {
    this.beforeImport = this.exportData();
    try {
      this.storage?.setItem(this.importBackupKey, serializeProgress(this.beforeImport));
    } catch {
      // Full storage: the in-memory copy still allows undo until the page is closed.
    }
    this.data = { version: next.version, exercises: { ...next.exercises } };
    this.changed();
    this.writeNow();
  }

  /** Back to the progress from before the last import. False when there is none. */
  undoImport(): boolean {
    if (!this.beforeImport) return false;
    this.data = this.beforeImport;
    this.beforeImport = null;
    this.changed();
    this.writeNow();
    return true;
  }

  /** The learner's code changed: kept at once, written after a short pause. */
  saveCode(exerciseId: string, code: string): void {
    if (this.get(exerciseId).code === code) return;
    this.update(exerciseId, { code });
    this.scheduleWrite();
  }

  /** Back to the starter; completion and hints stay. */
  resetCode(exerciseId: string): void {
    const current = this.data.exercises[exerciseId];
    if (!current || current.code === undefined) return;
    const { code: _dropped, ...rest } = current;
    this.data = { ...this.data, exercises: { ...this.data.exercises, [exerciseId]: rest } };
    this.changed();
    this.writeNow();
  }

  markCompleted(exerciseId: string): void {
    if (this.get(exerciseId).completed) return;
    this.update(exerciseId, { completed: true, completedAt: this.now().toISOString() });
    this.writeNow();
  }

  /** The reference solution replaced the learner's code: the path map marks the exercise apart. */
  markReferenceUsed(exerciseId: string): void {
    if (this.get(exerciseId).referenceUsed === true) return;
    this.update(exerciseId, { referenceUsed: true });
    this.writeNow();
  }

  /**
   * One more hint shown: `hint` (its index), or the first not yet shown; never one of `available`
   * or beyond. Returns how many are shown.
   */
  revealHint(exerciseId: string, available: number, hint?: number): number {
    const current = this.get(exerciseId);
    const shown = shownHints(current).filter((index) => index < available);
    const next = hint ?? Array.from({ length: Math.max(available, 0) }, (_, index) => index).find((index) => !shown.includes(index));
    const opens = next !== undefined && next >= 0 && next < available && !shown.includes(next);
    const fields = hintFields(opens ? [...shown, next] : shown);
    if (fields.hintsRevealed !== current.hintsRevealed || fields.hintsShown?.join() !== current.hintsShown?.join()) {
      const { hintsShown: _previous, ...rest } = current;
      this.data = { ...this.data, exercises: { ...this.data.exercises, [exerciseId]: { ...rest, ...fields } } };
      this.changed();
      this.writeNow();
    }
    return fields.hintsRevealed;
  }

  dismissNotice(kind: ProgressNoticeKind): void {
    const index = this.notices.findIndex((notice) => notice.kind === kind);
    if (index === -1) return;
    this.notices.splice(index, 1);
    this.changed();
  }

  /** Writes a pending code edit now. */
  flush(): void {
    if (this.pendingWrite === undefined) return;
    this.writeNow();
  }

  /**
   * Flushes when the page is hidden or left (a debounced edit would otherwise be lost when the
   * tab closes). `pagehide` rather than `unload`: it also fires for the back/forward cache.
   */
  attachPageLifecycle(target: { addEventListener(type: string, listener: () => void): void; removeEventListener(type: string, listener: () => void): void }, isHidden: () => boolean): () => void {
    const onPageHide = () => this.flush();
    const onVisibility = () => {
      if (isHidden()) this.flush();
    };
    target.addEventListener('pagehide', onPageHide);
    target.addEventListener('visibilitychange', onVisibility);
    return () => {
      target.removeEventListener('pagehide', onPageHide);
      target.removeEventListener('visibilitychange', onVisibility);
    };
  }

  // ---- internals ----

  private update(exerciseId: string, patch: Partial<ExerciseProgress>): void {
    const next: ExerciseProgress = { ...this.get(exerciseId), ...patch };
    this.data = { ...this.data, exercises: { ...this.data.exercises, [exerciseId]: next } };
    this.changed();
  }

  private changed(): void {
    this.snapshot = this.makeSnapshot();
    for (const listener of [...this.listeners]) listener();
  }

  private makeSnapshot(): ProgressSnapshot {
    return { exercises: this.data.exercises, notices: [...this.notices], persistent: this.storage !== null };
  }

  private notice(kind: ProgressNoticeKind, message: string, backupKey?: string): void {
    if (this.notices.some((notice) => notice.kind === kind)) return;
    this.notices.push(backupKey === undefined ? { kind, message } : { kind, message, backupKey });
  }

  private load(): void {
    let raw: string | null;
    try {
      raw = this.storage ? this.storage.getItem(this.key) : null;
    } catch (error) {
      this.storage = null; // e.g. SecurityError when storage is blocked
      this.notice('storage-unavailable', `Browser storage cannot be read (${describeError(error)}): progress is kept only until the page is closed.`);
      return;
    }
    const outcome = readStoredProgress(raw);
    if (outcome.kind === 'empty') return;
    if (outcome.kind === 'ok') {
      this.data = outcome.data;
      return;
    }
    const backedUp = this.setAside(raw as string);
    const where = backedUp ? ` The original was kept under "${this.backupKey}".` : '';
    if (outcome.kind === 'migrated') {
      this.data = outcome.data;
      this.notice('old-data-migrated', `Saved progress from ${outcome.from} was converted; what could be read was kept.${where}`, backedUp ? this.backupKey : undefined);
      this.writeNow();
    } else if (outcome.reason === 'corrupt') {
      this.notice('corrupt-data-set-aside', `Saved progress could not be read (${outcome.detail}) and was set aside; starting afresh.${where}`, backedUp ? this.backupKey : undefined);
    } else {
      // The next save overwrites it, so the copy under the backup key is what a newer page can recover.
      this.notice('newer-data-set-aside', `Saved progress was ${outcome.detail}; this page starts afresh and keeps a copy.${where}`, backedUp ? this.backupKey : undefined);
    }
  }

  private setAside(raw: string): boolean {
    try {
      this.storage?.setItem(this.backupKey, raw);
      return this.storage !== null;
    } catch {
      return false;
    }
  }

  private scheduleWrite(): void {
    if (this.pendingWrite !== undefined) clearTimeout(this.pendingWrite);
    this.pendingWrite = setTimeout(() => this.writeNow(), this.debounceMs);
  }

  private writeNow(): void {
    if (this.pendingWrite !== undefined) clearTimeout(this.pendingWrite);
    this.pendingWrite = undefined;
    if (!this.storage) return;
    const text = serializeProgress(this.data);
    try {
      this.storage.setItem(this.key, text);
      return;
    } catch (error) {
      if (!isQuotaError(error)) {
        this.notice('write-failed', `Progress could not be saved (${describeError(error)}); it is kept until the page is closed.`);
        this.changed();
        return;
      }
    }
    // Full: the backup is the only thing of ours worth dropping; then try once more.
    try {
      this.storage.removeItem(this.backupKey);
      this.storage.setItem(this.key, text);
    } catch {
      this.notice('quota-exceeded', 'Browser storage is full: your latest changes are kept only until the page is closed.');
      this.changed();
    }
  }
}

function isQuotaError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { name, code } = error as { name?: unknown; code?: unknown };
  // Chromium/WebKit: QuotaExceededError (code 22); old Firefox: NS_ERROR_DOM_QUOTA_REACHED (1014).
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED' || code === 22 || code === 1014;
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/** The page's localStorage, or null when it cannot be used (reading it can itself throw). */
export function browserStorage(): StorageLike | null {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return null;
    // Only reading is tried: full storage can still be read, and the store reports failed writes.
    storage.getItem(DEFAULT_PROGRESS_KEY);
    return storage;
  } catch {
    return null;
  }
}
