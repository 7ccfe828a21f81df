import { describe, expect, it, vi } from 'vitest';
import type { Catalogue } from '../../exercise/catalogue.ts';
import type { ExerciseFiles, ExerciseText } from '../../exercise/catalogue-browser.ts';
import { ProgressStore, type StorageLike } from '../../exercise/progress-store.ts';
import type { RunOptions } from '../../sandbox/spec-runner.ts';
import type { Exercise, Locale } from '../../exercise/types.ts';
import type { RunResult, TestResult } from '../../sandbox/spec-results.ts';
import { encodeShareHash } from '../../exercise/share-link.ts';
import type { ExerciseRunner } from '../../exercise/exercise-runner.ts';
import { summarizeRun } from './run-summary.ts';
import { ExerciseStore } from './exercise-store.ts';
import { IMPORTED_CODE_KEY, ImportedCodeMarks } from './imported-code-marks.ts';
import { replaceWithReference } from './replace-with-reference.ts';
import { storedUiPreferences, UI_PREFERENCES_KEY } from './ui-preferences.ts';

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

function exercise(id: string, order: number): Exercise {
  return {
    meta: { id, order, title: { en: id }, learnerFile: `${id}.ts`, solution: [`src/protocol/${id}.ts`], steps: {} },
    content: { en: `# ${id}` },
    starter: `// starter of ${id}`,
    spec: '',
    hints: { en: [{ sections: ['a'], text: 'one' }, { sections: ['b'], text: 'two' }] },
  };
}

const CATALOGUE: Catalogue = { exercises: [exercise('01-a', 1), exercise('02-b', 2)], problems: [] };

const test = (name: string, status: TestResult['status']): TestResult => ({ name, status, code: '', durationMs: 1 });

/** A runner whose runs finish when the test says so. */
class FakeRunner implements ExerciseRunner {
  readonly calls: { id: string; code: string; options: RunOptions | undefined; finish(result: RunResult): void }[] = [];
  warmedUp = 0;
  run(exercise: Exercise, code: string, options?: RunOptions): Promise<RunResult> {
    return new Promise((resolve) => this.calls.push({ id: exercise.meta.id, code, options, finish: resolve }));
  }
  warmUp() {
    this.warmedUp += 1;
  }
}

function setup(storage = new MemoryStorage()) {
  const runner = new FakeRunner();
  const progress = new ProgressStore({ storage, debounceMs: 0 });
  const scheduled: (() => void)[] = [];
  const store = new ExerciseStore({ catalogue: CATALOGUE, progress, runner, preferences: storedUiPreferences(storage), scheduleProgress: (show) => scheduled.push(show) });
  /** Shows the streamed results now, as the timer would. */
  const showProgress = () => scheduled.splice(0).forEach((show) => show());
  return { store, runner, progress, storage, showProgress };
}

describe('ExerciseStore', () => {
  it('opens the first exercise, or the one open last time', () => {
    expect(setup().store.getSnapshot().selectedId).toBe('01-a');
    const storage = new MemoryStorage();
    setup(storage).store.select('02-b');
    expect(setup(storage).store.getSnapshot().selectedId).toBe('02-b');
    storage.setItem(UI_PREFERENCES_KEY, '{"exerciseId":"99-gone"}');
    expect(setup(storage).store.getSnapshot().selectedId).toBe('01-a');
    storage.setItem(UI_PREFERENCES_KEY, 'not json');
    expect(setup(storage).store.getSnapshot().selectedId).toBe('01-a');
  });

  it('serves the starter until the learner types, and forgets the code when it is the starter again', () => {
    const { store, progress } = setup();
    expect(store.codeOf('01-a')).toBe('// starter of 01-a');
    store.updateCode('01-a', 'mine');
    expect(store.codeOf('01-a')).toBe('mine');
    expect(progress.get('01-a').code).toBe('mine');
    store.updateCode('01-a', '// starter of 01-a');
    expect(progress.get('01-a').code).toBeUndefined();
  });

  it('runs the current code, streams test results in batches, and marks a passing run complete', async () => {
    const { store, runner, progress, showProgress } = setup();
    store.updateCode('01-a', 'solved');
    const running = store.run();
    expect(store.runOf('01-a')).toMatchObject({ status: 'running', tests: [] });
    const call = runner.calls[0];
    expect(call?.code).toBe('solved');
    const listener = vi.fn();
    store.subscribe(listener);
    call?.options?.onTest?.(test('first', 'pass'));
    call?.options?.onTest?.(test('second', 'fail'));
    expect(listener).not.toHaveBeenCalled(); // not one render per test
    showProgress();
    expect(listener).toHaveBeenCalledTimes(1);
    expect(store.runOf('01-a')).toMatchObject({ status: 'running', tests: [{ name: 'first' }, { name: 'second' }] });
    const result: RunResult = { status: 'pass', tests: [test('first', 'pass')], durationMs: 3 };
    call?.options?.onTest?.(test('late', 'pass'));
    call?.finish(result);
    expect(await running).toBe(result);
    showProgress(); // a batch due after the run ended changes nothing
    expect(store.runOf('01-a')).toEqual({ status: 'done', seq: 1, result });
    expect(progress.get('01-a').completed).toBe(true);
  });

  it('shows the examples\' verdict the moment they are done, without waiting for the next batch, and not as the run\'s end', async () => {
    const { store, runner, progress, showProgress } = setup();
    const running = store.run('01-a');
    const call = runner.calls[0];
    call?.options?.onTest?.(test('first', 'pass'));
    call?.options?.onTest?.(test('second', 'fail'));
    call?.options?.onExamplesDone?.(2);
    expect(store.runOf('01-a')).toMatchObject({ status: 'running', tests: [{ name: 'first' }, { name: 'second' }], examples: { total: 2, failed: 1, properties: 2 } });
    expect(summarizeRun(store.runOf('01-a'))).toEqual({ state: 'running', finished: 2, examples: { total: 2, failed: 1, properties: 2 } });
    call?.options?.onTest?.(test('for any', 'pass'));
    showProgress();
    expect(store.runOf('01-a')).toMatchObject({ status: 'running', tests: [{}, {}, { name: 'for any' }], examples: { total: 2, failed: 1 } });
    expect(progress.get('01-a').completed).toBe(false);
    call?.finish({ status: 'fail', tests: [test('first', 'pass'), test('second', 'fail'), test('for any', 'pass')], durationMs: 3 });
    await running;
    expect(store.runOf('01-a').status).toBe('done');
  });

  it('does not mark a failing or erroring run complete, and ignores Run while one is going', async () => {
    const { store, runner, progress } = setup();
    const first = store.run('01-a');
    expect(await store.run('01-a')).toBeUndefined();
    expect(runner.calls).toHaveLength(1);
    runner.calls[0]?.finish({ status: 'fail', tests: [test('x', 'fail')], durationMs: 1 });
    await first;
    const second = store.run('01-a');
    runner.calls[1]?.finish({ status: 'error', message: 'syntax', error: { message: 'syntax', line: 3, source: 'learner' }, tests: [], durationMs: 1 });
    expect((await second)?.status).toBe('error');
    expect(progress.get('01-a').completed).toBe(false);
  });

  it('keeps each exercise its own result', async () => {
    const { store, runner } = setup();
    const a = store.run('01-a');
    store.select('02-b');
    expect(store.runOf('02-b')).toEqual({ status: 'idle' });
    runner.calls[0]?.finish({ status: 'fail', tests: [], durationMs: 1 });
    await a;
    expect(store.runOf('01-a').status).toBe('done');
    expect(store.runOf('02-b').status).toBe('idle');
  });

  it('reset brings the starter back and keeps the completed mark and the hints', async () => {
    const { store, runner, progress } = setup();
    store.updateCode('01-a', 'solved');
    const run = store.run('01-a');
    runner.calls[0]?.finish({ status: 'pass', tests: [], durationMs: 1 });
    await run;
    store.revealHint('01-a', 2);
    store.reset('01-a');
    expect(store.codeOf('01-a')).toBe('// starter of 01-a');
    expect(store.getSnapshot().replacement).toEqual({ exerciseId: '01-a', code: '// starter of 01-a', seq: 1 });
    expect(progress.get('01-a')).toMatchObject({ completed: true, hintsRevealed: 1 });
  });

  it('uses the reference: replaces and saves the code, and goes back to the editor', () => {
    const { store, storage } = setup();
    store.showSolution();
    expect(store.getSnapshot().view).toBe('solution');
    store.useReference('01-a', 'export const reference = 1;');
    expect(store.getSnapshot().view).toBe('code');
    expect(store.getSnapshot().replacement?.code).toBe('export const reference = 1;');
    // Written at once: a reload right after still has it, and the path map marks it as the reference's.
    expect(new ProgressStore({ storage }).get('01-a')).toMatchObject({ code: 'export const reference = 1;', referenceUsed: true });
  });

  it('hides the results of runs from before the reference view opened while it shows, not those of a run started there', async () => {
    const { store, runner } = setup();
    const before = store.run('01-a');
    runner.calls[0]?.finish({ status: 'fail', tests: [test('x', 'fail')], durationMs: 1 });
    await before;
    expect(store.resultsHiddenWhileComparing('01-a')).toBe(false);
    store.showSolution();
    expect(store.resultsHiddenWhileComparing('01-a')).toBe(true);
    expect(store.resultsHiddenWhileComparing('02-b')).toBe(false); // nothing ran: nothing to hide
    const during = store.run('01-a');
    expect(store.resultsHiddenWhileComparing('01-a')).toBe(false);
    runner.calls[1]?.finish({ status: 'fail', tests: [test('x', 'fail')], durationMs: 1 });
    await during;
    expect(store.resultsHiddenWhileComparing('01-a')).toBe(false);
    store.showCode();
    store.showSolution();
    expect(store.resultsHiddenWhileComparing('01-a')).toBe(true);
    store.showCode();
    expect(store.resultsHiddenWhileComparing('01-a')).toBe(false);
  });

  it('"Replace my code" gives the store the reference at once, even while the diff is still being computed', async () => {
    const { store, runner } = setup();
    store.showSolution();
    const events: string[] = [];
    store.subscribe(() => {
      if (store.getSnapshot().replacement && !events.includes('replaced')) events.push('replaced');
    });
    // A diff editor that has not finished its first diff, and does not within this test.
    const pendingDiff = {
      getLineChanges: () => null,
      onDidUpdateDiff: () => ({ dispose: () => {} }),
      dispose: () => events.push('diff released'),
    };
    replaceWithReference(store, '01-a', 'export const reference = 1;', pendingDiff);
    expect(store.codeOf('01-a')).toBe('export const reference = 1;');
    expect(store.getSnapshot().view).toBe('code');
    // Run, right after: the reference runs, not the code it replaced.
    void store.run('01-a');
    expect(runner.calls.map((call) => call.code)).toEqual(['export const reference = 1;']);
    // The diff editor lets go of the models before the model is edited, so no diff computed
    // against the old text is ever applied to the new one.
    expect(events).toEqual(['diff released', 'replaced']);
  });

  it('reveals hints one at a time, never more than there are', () => {
    const { store, progress } = setup();
    expect(store.revealHint('01-a', 2)).toBe(1);
    expect(store.revealHint('01-a', 2)).toBe(2);
    expect(store.revealHint('01-a', 2)).toBe(2);
    expect(progress.get('01-a').hintsRevealed).toBe(2);
  });

  it('remembers run-on-save and warms the runner up on request', () => {
    const storage = new MemoryStorage();
    const { store, runner } = setup(storage);
    const listener = vi.fn();
    store.subscribe(listener);
    store.setRunOnSave(true);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(setup(storage).store.getSnapshot().runOnSave).toBe(true);
    store.warmUp();
    expect(runner.warmedUp).toBe(1);
  });
});

const KEY = 'mcp-playground:progress';
const savedCode = (storage: MemoryStorage, id: string) => JSON.parse(storage.getItem(KEY) ?? '{"exercises":{}}').exercises[id]?.code;

describe('ExerciseStore: a shared link opens a scratch copy', () => {
  it('shows and runs the shared code, and autosave never writes it over the learner’s own', async () => {
    const { store, runner, progress, storage } = setup();
    store.updateCode('02-b', 'my own work');
    const hash = await encodeShareHash({ exerciseId: '02-b', code: 'shared code' });
    if (!hash.ok) throw new Error('encode failed');
    await store.openShareHash(hash.hash);
    const state = store.getSnapshot();
    expect(state.selectedId).toBe('02-b');
    expect(state.scratch).toEqual({ exerciseId: '02-b', code: 'shared code' });
    expect(state.replacement).toMatchObject({ exerciseId: '02-b', code: 'shared code' });
    expect(store.codeOf('02-b')).toBe('shared code');

    // The editor's edits go to the scratch copy only, also after the page is hidden.
    store.updateCode('02-b', 'shared code, edited');
    progress.flush();
    expect(savedCode(storage, '02-b')).toBe('my own work');
    expect(progress.get('02-b').code).toBe('my own work');

    // Its tests run on the shared code; a pass is not the receiver's completion.
    const run = store.run('02-b');
    expect(runner.calls[0]?.code).toBe('shared code, edited');
    runner.calls[0]?.finish({ status: 'pass', tests: [], durationMs: 1 });
    await run;
    expect(progress.get('02-b').completed).toBe(false);

    // Reset in a scratch copy resets the scratch copy.
    store.reset('02-b');
    expect(store.codeOf('02-b')).toBe('// starter of 02-b');
    expect(progress.get('02-b').code).toBe('my own work');

    store.leaveScratch();
    expect(store.getSnapshot().scratch).toBeNull();
    expect(store.codeOf('02-b')).toBe('my own work');
    expect(store.getSnapshot().replacement).toMatchObject({ exerciseId: '02-b', code: 'my own work' });
    expect(savedCode(storage, '02-b')).toBe('my own work');
  });

  it('keeps the scratch copy as the learner’s code only when asked, and saves it at once', async () => {
    const { store, storage } = setup();
    store.updateCode('01-a', 'mine');
    store.openShared({ exerciseId: '01-a', code: 'theirs' });
    store.updateCode('01-a', 'theirs, improved');
    store.keepScratch();
    expect(store.getSnapshot().scratch).toBeNull();
    expect(store.codeOf('01-a')).toBe('theirs, improved');
    expect(savedCode(storage, '01-a')).toBe('theirs, improved');
  });

  it('reports a damaged link or an unknown exercise and leaves everything as it was', async () => {
    const { store, progress } = setup();
    store.updateCode('01-a', 'mine');
    const hash = await encodeShareHash({ exerciseId: '01-a', code: 'shared' });
    if (!hash.ok) throw new Error('encode failed');
    await store.openShareHash(hash.hash.slice(0, -3));
    expect(store.getSnapshot()).toMatchObject({ scratch: null, shareProblem: { reason: 'damaged' } });
    store.dismissShareProblem();
    expect(store.getSnapshot().shareProblem).toBeNull();
    store.openShared({ exerciseId: '99-missing', code: 'x' });
    expect(store.getSnapshot()).toMatchObject({ scratch: null, shareProblem: { reason: 'unknown-exercise', exerciseId: '99-missing' } });
    expect(store.codeOf('01-a')).toBe('mine');
    expect(progress.get('01-a').code).toBe('mine');
  });

  it('opens the same link once, however often it is asked (StrictMode, hashchange)', async () => {
    const { store } = setup();
    const hash = await encodeShareHash({ exerciseId: '01-a', code: 'shared' });
    if (!hash.ok) throw new Error('encode failed');
    await Promise.all([store.openShareHash(hash.hash), store.openShareHash(hash.hash)]);
    store.updateCode('01-a', 'edited in scratch');
    await store.openShareHash(hash.hash);
    expect(store.getSnapshot().scratch?.code).toBe('edited in scratch');
  });
});

describe('ExerciseStore: import', () => {
  it('replaces or merges, pushes the new code into open editors (not a scratch copy), and undoes', () => {
    const { store, progress, storage } = setup();
    store.updateCode('01-a', 'mine');
    store.openShared({ exerciseId: '02-b', code: 'shared' });
    const incoming = { version: 1 as const, exercises: { '01-a': { code: 'from file', completed: true, hintsRevealed: 1 }, '02-b': { code: 'b from file', completed: false, hintsRevealed: 0 } } };

    store.importProgress(incoming, 'merge', 2);
    expect(progress.get('01-a')).toMatchObject({ code: 'mine', completed: true, hintsRevealed: 1 });
    expect(store.ownCodeOf('02-b')).toBe('b from file');
    expect(store.codeOf('02-b')).toBe('shared'); // the scratch copy still shows
    expect(store.getSnapshot().lastImport).toEqual({ mode: 'merge', changed: 2 });

    store.importProgress(incoming, 'replace', 2);
    expect(savedCode(storage, '01-a')).toBe('from file');
    expect(store.getSnapshot().replacement).toMatchObject({ exerciseId: '01-a', code: 'from file' }); // the last of the pushes, scratch skipped

    store.undoImport();
    expect(progress.get('01-a')).toMatchObject({ code: 'mine', completed: true }); // back to before the *last* import
    expect(store.getSnapshot().lastImport).toBeNull();
    expect(store.exportProgress().exercises['01-a']?.code).toBe('mine');
  });
});

describe('ExerciseStore: imported code is someone else\'s until the learner agrees to run it', () => {
  function withMarks(storage = new MemoryStorage()) {
    const progress = new ProgressStore({ storage, debounceMs: 0 });
    const store = new ExerciseStore({ catalogue: CATALOGUE, progress, runner: new FakeRunner(), preferences: storedUiPreferences(storage), importedCode: new ImportedCodeMarks(storage) });
    return { store, storage };
  }
  const incoming = { version: 1 as const, exercises: { '01-a': { code: 'from a file', completed: false, hintsRevealed: 0 }, '02-b': { code: 'mine', completed: true, hintsRevealed: 0 } } };

  it('marks exactly the exercises whose code the file changed, across a reload, until trusted', () => {
    const { store, storage } = withMarks();
    store.updateCode('02-b', 'mine');
    expect(store.codeSource('01-a')).toBe('own');
    store.importProgress(incoming, 'replace', 1);
    expect(store.codeSource('01-a')).toBe('imported-file');
    expect(store.codeSource('02-b')).toBe('own'); // the file brought the same code the learner had
    // A reload still knows whose code it is.
    expect(withMarks(storage).store.codeSource('01-a')).toBe('imported-file');
    store.trustImportedCode('01-a');
    expect(store.codeSource('01-a')).toBe('own');
    expect(storage.getItem(IMPORTED_CODE_KEY)).toBeNull();
  });

  it('undo puts the marks back as they were; a share link still counts as a share link', () => {
    const { store } = withMarks();
    store.importProgress(incoming, 'replace', 1);
    store.undoImport();
    expect(store.codeSource('01-a')).toBe('own');
    store.openShared({ exerciseId: '01-a', code: 'shared' });
    expect(store.codeSource('01-a')).toBe('share-link');
  });
});

describe('ExerciseStore: lessons, hints, test names and specs load when needed', () => {
  /** Files whose loads finish when the test says so. */
  function lazySetup() {
    const texts: { id: string; locale: Locale; resolve(text: ExerciseText): void; reject(error: Error): void }[] = [];
    const specs: { id: string; resolve(spec: string): void; reject(error: Error): void }[] = [];
    const files: ExerciseFiles = {
      loadText: (id, locale) => new Promise((resolve, reject) => texts.push({ id, locale, resolve, reject })),
      loadSpec: (id) => new Promise((resolve, reject) => specs.push({ id, resolve, reject })),
    };
    const bare = (id: string, order: number): Exercise => ({ ...exercise(id, order), content: {}, hints: {} });
    const storage = new MemoryStorage();
    const runner = new FakeRunner();
    const store = new ExerciseStore({ catalogue: { exercises: [bare('01-a', 1), bare('02-b', 2)], problems: [] }, files, progress: new ProgressStore({ storage, debounceMs: 0 }), runner, preferences: storedUiPreferences(storage) });
    return { store, runner, texts, specs };
  }

  it('a lesson that arrives before the localized starters does not hide them from the editor', async () => {
    const { store, texts } = lazySetup();
    store.loadText('01-a', 'zh-CN');
    texts[0]!.resolve({ content: { 'zh-CN': '# 甲' }, hints: {} });
    await Promise.resolve();
    store.addStarters('zh-CN', { '01-a': '// 练习 1' });
    store.setStarterLocale('zh-CN');
    expect(store.starterOf(store.find('01-a')!)).toBe('// 练习 1');
    expect(store.codeOf('01-a')).toBe('// 练习 1');
  });

  it('loads the text of one exercise in one language once, and merges it when it arrives', async () => {
    const { store, texts } = lazySetup();
    expect(store.textStatus('01-a', 'zh-CN')).toBe('idle');
    store.loadText('01-a', 'zh-CN');
    store.loadText('01-a', 'zh-CN');
    expect(texts.map((load) => `${load.id}/${load.locale}`)).toEqual(['01-a/zh-CN']);
    expect(store.textStatus('01-a', 'zh-CN')).toBe('loading');
    expect(store.find('01-a')?.content).toEqual({});
    texts[0]!.resolve({ content: { 'zh-CN': '# 甲' }, hints: { 'zh-CN': [{ sections: ['a'], text: '一' }] }, testNames: { 'zh-CN': { a: '甲' } }, rules: { a: ['a test'] } });
    await Promise.resolve();
    expect(store.textStatus('01-a', 'zh-CN')).toBe('ready');
    expect(store.find('01-a')).toMatchObject({ content: { 'zh-CN': '# 甲' }, hints: { 'zh-CN': [{ sections: ['a'], text: '一' }] }, testNames: { 'zh-CN': { a: '甲' } }, rules: { a: ['a test'] } });
    // Another language is its own load; what is in stays.
    store.loadText('01-a', 'en');
    texts[1]!.resolve({ content: { en: '# A' }, hints: { en: [{ sections: [], text: 'one' }] } });
    await Promise.resolve();
    expect(store.find('01-a')?.content).toEqual({ 'zh-CN': '# 甲', en: '# A' });
    expect(store.textStatus('02-b', 'en')).toBe('idle');
  });

  it('reports a failed load and tries again when asked', async () => {
    const { store, texts } = lazySetup();
    store.loadText('02-b', 'en');
    texts[0]!.reject(new Error('offline'));
    await Promise.resolve();
    await Promise.resolve();
    expect(store.textStatus('02-b', 'en')).toBe('failed');
    store.loadText('02-b', 'en');
    expect(texts).toHaveLength(2);
    expect(store.textStatus('02-b', 'en')).toBe('loading');
  });

  it('loads the spec before the first run only, and a spec that does not load is an error result', async () => {
    const { store, runner, specs } = lazySetup();
    const first = store.run('01-a');
    expect(store.runOf('01-a').status).toBe('running');
    expect(runner.calls).toHaveLength(0);
    specs[0]!.resolve('spec of 01-a');
    await vi.waitFor(() => expect(runner.calls).toHaveLength(1));
    runner.calls[0]!.finish({ status: 'pass', tests: [], durationMs: 1 });
    await first;
    void store.run('01-a');
    await vi.waitFor(() => expect(runner.calls).toHaveLength(2));
    expect(specs).toHaveLength(1);

    const failed = store.run('02-b');
    specs[1]!.reject(new Error('exercises/02-b/spec.ts is missing'));
    expect(await failed).toMatchObject({ status: 'error', error: { source: 'spec' } });
    expect(store.runOf('02-b')).toMatchObject({ status: 'done', result: { status: 'error' } });
  });
});

describe('ExerciseStore: the starter in the page language', () => {
  function localizedSetup(starterLocale: Locale) {
    const storage = new MemoryStorage();
    const localized: Exercise = { ...exercise('01-a', 1), starter: '// English\nexport const a = 1;\n', starters: { 'zh-CN': '// 中文\nexport const a = 1;\n' } };
    const progress = new ProgressStore({ storage, debounceMs: 0 });
    const store = new ExerciseStore({ catalogue: { exercises: [localized], problems: [] }, progress, runner: new FakeRunner(), preferences: storedUiPreferences(storage), starterLocale });
    return { store, progress };
  }

  it('a learner with no saved code gets the starter whose comments are in the page language', () => {
    expect(localizedSetup('zh-CN').store.codeOf('01-a')).toBe('// 中文\nexport const a = 1;\n');
    expect(localizedSetup('en').store.codeOf('01-a')).toBe('// English\nexport const a = 1;\n');
  });

  it('the Chinese starter, typed back unchanged, is not saved as the learner’s code; reset gives the page language’s starter', () => {
    const { store, progress } = localizedSetup('zh-CN');
    store.updateCode('01-a', 'export const a = 2;\n');
    expect(progress.get('01-a').code).toBe('export const a = 2;\n');
    store.updateCode('01-a', '// 中文\nexport const a = 1;\n');
    expect(progress.get('01-a').code).toBeUndefined();
    store.setStarterLocale('en');
    store.reset('01-a');
    expect(store.codeOf('01-a')).toBe('// English\nexport const a = 1;\n');
  });
});
