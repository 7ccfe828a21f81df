import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_PROGRESS_KEY, ProgressStore, type StorageLike } from './progress-store.ts';

const KEY = DEFAULT_PROGRESS_KEY;
const BACKUP = `${KEY}:backup`;

class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** Storage that is full beyond `limit` characters in total, as a browser's quota. */
class FullStorage extends MemoryStorage {
  constructor(private readonly limit: number) {
    super();
  }
  override setItem(key: string, value: string) {
    const others = [...this.items].filter(([k]) => k !== key).reduce((sum, [, v]) => sum + v.length, 0);
    if (others + value.length > this.limit) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    super.setItem(key, value);
  }
}

const stored = (storage: MemoryStorage) => JSON.parse(storage.getItem(KEY) ?? 'null');

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('ProgressStore', () => {
  it('autosaves code after a short pause and restores it in a new store', () => {
    const storage = new MemoryStorage();
    const store = new ProgressStore({ storage });
    store.saveCode('01-jsonrpc', 'let a = 1;');
    store.saveCode('01-jsonrpc', 'let a = 2;');
    expect(store.get('01-jsonrpc').code).toBe('let a = 2;'); // kept at once
    expect(storage.getItem(KEY)).toBeNull(); // written after the pause
    vi.advanceTimersByTime(300);
    expect(stored(storage)).toEqual({ version: 1, exercises: { '01-jsonrpc': { code: 'let a = 2;' } } });
    expect(new ProgressStore({ storage }).get('01-jsonrpc')).toEqual({ code: 'let a = 2;', completed: false, hintsRevealed: 0 });
  });

  it('flushes a pending edit when the page is hidden or left', () => {
    const storage = new MemoryStorage();
    const store = new ProgressStore({ storage });
    const page = new EventTarget();
    let hidden = false;
    const detach = store.attachPageLifecycle(page, () => hidden);
    store.saveCode('a', 'one');
    page.dispatchEvent(new Event('visibilitychange')); // still visible: nothing yet
    expect(storage.getItem(KEY)).toBeNull();
    hidden = true;
    page.dispatchEvent(new Event('visibilitychange'));
    expect(stored(storage).exercises.a.code).toBe('one');
    store.saveCode('a', 'two');
    page.dispatchEvent(new Event('pagehide'));
    expect(stored(storage).exercises.a.code).toBe('two');
    detach();
    store.saveCode('a', 'three');
    page.dispatchEvent(new Event('pagehide'));
    expect(stored(storage).exercises.a.code).toBe('two');
  });

  it('keeps completion and hints through a reset of the code', () => {
    const storage = new MemoryStorage();
    const store = new ProgressStore({ storage, now: () => new Date('2025-06-18T10:00:00Z') });
    store.saveCode('a', 'mine');
    store.markCompleted('a');
    expect(store.revealHint('a', 2)).toBe(1);
    expect(store.revealHint('a', 2)).toBe(2);
    expect(store.revealHint('a', 2)).toBe(2); // never more than there are
    store.resetCode('a');
    expect(store.get('a')).toEqual({ completed: true, completedAt: '2025-06-18T10:00:00.000Z', hintsRevealed: 2 });
    expect(stored(storage)).toEqual({ version: 1, exercises: { a: { completed: true, completedAt: '2025-06-18T10:00:00.000Z', hintsRevealed: 2 } } });
  });

  it('marks an exercise whose code the reference replaced, once, and keeps the mark through a reset and a reload', () => {
    const storage = new MemoryStorage();
    const store = new ProgressStore({ storage });
    store.saveCode('a', 'the reference');
    store.markReferenceUsed('a');
    store.markReferenceUsed('a');
    store.resetCode('a');
    expect(store.get('a')).toEqual({ completed: false, hintsRevealed: 0, referenceUsed: true });
    expect(stored(storage).exercises.a).toEqual({ referenceUsed: true });
    expect(new ProgressStore({ storage }).get('a').referenceUsed).toBe(true);
  });

  it('opens the hint a failing test asks for, keeps the order they were opened in, and reads it back', () => {
    const storage = new MemoryStorage();
    const store = new ProgressStore({ storage });
    expect(store.revealHint('a', 4, 2)).toBe(1);
    expect(store.revealHint('a', 4, 2)).toBe(1); // already open: nothing changes
    expect(store.revealHint('a', 4, 7)).toBe(1); // not a hint of this exercise
    expect(store.revealHint('a', 4)).toBe(2); // the first one not open yet
    expect(store.get('a')).toEqual({ completed: false, hintsRevealed: 2, hintsShown: [2, 0] });
    expect(stored(storage)).toEqual({ version: 1, exercises: { a: { hintsRevealed: 2, hintsShown: [2, 0] } } });
    expect(new ProgressStore({ storage }).get('a').hintsShown).toEqual([2, 0]);
    // Opened in file order, the list is not stored: older readers see the same count.
    store.revealHint('b', 3, 0);
    store.revealHint('b', 3, 1);
    expect(stored(storage).exercises.b).toEqual({ hintsRevealed: 2 });
  });

  it('drops a hint list that is not distinct whole numbers, keeping the count', () => {
    const storage = new MemoryStorage();
    storage.setItem(KEY, JSON.stringify({ version: 1, exercises: { a: { hintsRevealed: 2, hintsShown: [1, 1] }, b: { hintsShown: [3, 'x'] } } }));
    const store = new ProgressStore({ storage });
    expect(store.get('a')).toEqual({ completed: false, hintsRevealed: 2 });
    expect(store.get('b')).toEqual({ completed: false, hintsRevealed: 0 });
  });

  it('tells subscribers of each change with a new snapshot', () => {
    const store = new ProgressStore({ storage: new MemoryStorage() });
    const before = store.getSnapshot();
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.markCompleted('a');
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.getSnapshot()).not.toBe(before);
    expect(store.getSnapshot().exercises.a?.completed).toBe(true);
    expect(store.getSnapshot()).toBe(store.getSnapshot()); // stable between changes
    unsubscribe();
    store.markCompleted('b');
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('sets corrupt data aside under the backup key and starts afresh, with a notice', () => {
    const storage = new MemoryStorage();
    storage.setItem(KEY, '{"version":1,"exercises":{"a":');
    const store = new ProgressStore({ storage });
    expect(store.get('a')).toEqual({ completed: false, hintsRevealed: 0 });
    expect(storage.getItem(BACKUP)).toBe('{"version":1,"exercises":{"a":');
    expect(store.getSnapshot().notices).toEqual([expect.objectContaining({ kind: 'corrupt-data-set-aside', backupKey: BACKUP })]);
    store.dismissNotice('corrupt-data-set-aside');
    expect(store.getSnapshot().notices).toEqual([]);
  });

  it('migrates what it can read from older or unversioned data, keeping the original aside', () => {
    const storage = new MemoryStorage();
    const old = JSON.stringify({ '01-jsonrpc': { source: 'old code', done: true, hints: 1 }, '02-framing': { code: 42, completed: 'yes' }, junk: 3 });
    storage.setItem(KEY, old);
    const store = new ProgressStore({ storage });
    expect(store.get('01-jsonrpc')).toEqual({ code: 'old code', completed: true, hintsRevealed: 1 });
    expect(store.get('02-framing')).toEqual({ completed: false, hintsRevealed: 0 });
    expect(stored(storage)).toEqual({ version: 1, exercises: { '01-jsonrpc': { code: 'old code', completed: true, hintsRevealed: 1 } } });
    expect(storage.getItem(BACKUP)).toBe(old);
    expect(store.getSnapshot().notices.map((notice) => notice.kind)).toEqual(['old-data-migrated']);

    storage.setItem(KEY, JSON.stringify({ version: 0, exercises: { a: { code: 'v0' } } }));
    expect(new ProgressStore({ storage }).get('a').code).toBe('v0');
  });

  it('does not read data from a newer version, but keeps a copy of it', () => {
    const storage = new MemoryStorage();
    const newer = JSON.stringify({ version: 2, lessons: {} });
    storage.setItem(KEY, newer);
    const store = new ProgressStore({ storage });
    expect(store.getSnapshot().notices.map((notice) => notice.kind)).toEqual(['newer-data-set-aside']);
    expect(storage.getItem(BACKUP)).toBe(newer);
  });

  it('survives a full storage: frees its backup first, else keeps going in memory with a notice', () => {
    const storage = new FullStorage(120);
    storage.items.set(BACKUP, 'x'.repeat(100));
    const store = new ProgressStore({ storage });
    store.markCompleted('a'); // fits once the backup is gone
    expect(storage.getItem(BACKUP)).toBeNull();
    expect(stored(storage).exercises.a.completed).toBe(true);
    store.saveCode('a', 'y'.repeat(500));
    expect(() => vi.advanceTimersByTime(300)).not.toThrow();
    expect(store.get('a').code).toHaveLength(500);
    expect(store.getSnapshot().notices.map((notice) => notice.kind)).toEqual(['quota-exceeded']);
  });

  it('works in memory when storage is missing or throws on access (private mode)', () => {
    const missing = new ProgressStore({ storage: null });
    missing.saveCode('a', 'code');
    vi.advanceTimersByTime(300);
    expect(missing.get('a').code).toBe('code');
    expect(missing.getSnapshot()).toMatchObject({ persistent: false, notices: [expect.objectContaining({ kind: 'storage-unavailable' })] });

    const blocked: StorageLike = {
      getItem() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      setItem() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      removeItem() {},
    };
    const store = new ProgressStore({ storage: blocked });
    store.markCompleted('a');
    expect(store.get('a').completed).toBe(true);
    expect(store.getSnapshot().persistent).toBe(false);
  });

  it('reports a write that fails for another reason without throwing', () => {
    const storage = new MemoryStorage();
    storage.setItem = () => {
      throw new Error('disk on fire');
    };
    const store = new ProgressStore({ storage });
    expect(() => store.markCompleted('a')).not.toThrow();
    expect(store.getSnapshot().notices.map((notice) => notice.kind)).toEqual(['write-failed']);
  });

  it('replaces all progress on import, keeps the earlier progress (memory and storage) and undoes', () => {
    const storage = new MemoryStorage();
    const store = new ProgressStore({ storage });
    store.saveCode('a', 'mine'); // still pending: the import must not lose it
    store.markCompleted('b');
    expect(store.canUndoImport).toBe(false);
    expect(store.exportData().exercises.a?.code).toBe('mine');
    store.replaceAll({ version: 1, exercises: { a: { code: 'imported', completed: false, hintsRevealed: 0 } } });
    expect(stored(storage)).toEqual({ version: 1, exercises: { a: { code: 'imported' } } });
    expect(JSON.parse(storage.getItem(`${KEY}:before-import`) ?? 'null').exercises).toMatchObject({ a: { code: 'mine' }, b: { completed: true } });
    expect(store.canUndoImport).toBe(true);
    expect(store.undoImport()).toBe(true);
    expect(store.get('a').code).toBe('mine');
    expect(store.get('b').completed).toBe(true);
    expect(stored(storage).exercises.a.code).toBe('mine');
    expect(store.undoImport()).toBe(false);
  });
});

