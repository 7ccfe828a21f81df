// What the exercise side of the page shows, and every action it offers: which exercise is open,
// its runs and their results, whether the reference is shown. The learner's code, completion
// marks and hints live in the engine's ProgressStore (saved in the browser); this store only
// drives it. No UI here: components render the snapshot.
//
// A scratch copy is code someone shared by link: the editor shows it and runs its tests, but it
// lives only here, in memory, so autosave never writes it over the learner's own saved code; it
// becomes theirs only when they choose "Keep as my code".
//
// In the page the catalogue holds each exercise's meta and starter only: its lesson, hints and test
// names arrive per language when a view asks (`loadText`, `textStatus`), its spec before its first
// run. Without `files` (tests, Node) the catalogue is complete and everything is ready at once.

import type { Catalogue } from '../../exercise/catalogue.ts';
import type { ExerciseFiles, ExerciseText } from '../../exercise/catalogue-browser.ts';
import type { ProgressStore } from '../../exercise/progress-store.ts';
import type { StoredProgress } from '../../exercise/progress-data.ts';
import { applyImport, type ImportMode } from '../../exercise/progress-transfer-plan.ts';
import { ImportedCodeMarks } from './imported-code-marks.ts';
import { decodeShareHash, type ShareLinkProblem, type SharedCode } from '../../exercise/share-link.ts';
import type { ExerciseRunner } from '../../exercise/exercise-runner.ts';
import type { Exercise, Locale } from '../../exercise/types.ts';
import type { RunResult, TestResult } from '../../sandbox/spec-results.ts';
import { createStore, ExternalStore, type Store } from '../store/create-store.ts';
import type { UiPreferences } from './ui-preferences.ts';

/** Every example test of a run has finished (this many, this many not passed); the property tests are being checked. */
export interface ExamplesVerdict {
  total: number;
  failed: number;
  properties: number;
}

export type RunState =
  | { status: 'idle' }
  | {
      status: 'running';
      seq: number;
      tests: readonly TestResult[];
      examples?: ExamplesVerdict;
    }
  | { status: 'done'; seq: number; result: RunResult };

/** `code`: the learner's editor. `solution`: the reference beside their code (diff). */
export type WorkspaceView = 'code' | 'solution';

/** The learner's code was replaced from outside the editor (Reset, Use the reference). */
export interface CodeReplacement {
  exerciseId: string;
  code: string;
  seq: number;
}

/** Shared code open in the editor instead of the learner's own (which stays saved, untouched). */
export interface ScratchCopy {
  exerciseId: string;
  /** As edited in the scratch copy. */
  code: string;
}

/** Why a share link did not open (the normal view opens instead). */
export type ShareOpenProblem = ShareLinkProblem | { reason: 'unknown-exercise'; exerciseId: string };

export interface ImportDone {
  mode: ImportMode;
  /** Exercises whose progress changed. */
  changed: number;
}

/** An exercise's text in one language: not asked for yet, on its way, in, or not loadable. */
export type TextStatus = 'idle' | 'loading' | 'ready' | 'failed';

export interface ExerciseState {
  selectedId: string | null;
  /** `id/locale` → how far its lesson, hints and test names are (only with `files`). */
  texts: Readonly<Record<string, TextStatus>>;
  runs: Readonly<Record<string, RunState>>;
  view: WorkspaceView;
  replacement: CodeReplacement | null;
  runOnSave: boolean;
  scratch: ScratchCopy | null;
  shareProblem: ShareOpenProblem | null;
  /** The last import, while it can be undone. */
  lastImport: ImportDone | null;
}

const IDLE: RunState = { status: 'idle' };

export interface ExerciseStoreOptions {
  catalogue: Catalogue;
  progress: ProgressStore;
  runner: ExerciseRunner;
  preferences: UiPreferences;
  /** What the catalogue left out, loaded when needed (the page's chunks); absent when it is complete. */
  files?: ExerciseFiles;
  /**
   * When streamed test results are shown: each one arrives as its own message, and rendering the
   * results panel for each would cost more than the run. Default: together, at most every 50 ms.
   */
  scheduleProgress?: (show: () => void) => void;
  /** The language of the starter a learner with no saved code gets (its comments; the code is the same). Default 'en'. */
  starterLocale?: Locale;
  /** Exercises whose code came from an imported file and was not yet agreed to run outside the worker. */
  importedCode?: ImportedCodeMarks;
}

/** Where the code in the editor came from: the learner, a share link, or an imported progress file. */
export type CodeSource = 'own' | 'share-link' | 'imported-file';

const PROGRESS_INTERVAL_MS = 50;

export class ExerciseStore extends ExternalStore<ExerciseState> {
  protected readonly store: Store<ExerciseState>;
  readonly exercises: readonly Exercise[];
  readonly problems: readonly string[];
  readonly progress: ProgressStore;
  private readonly runner: ExerciseRunner;
  private readonly preferences: UiPreferences;
  private readonly scheduleProgress: (show: () => void) => void;
  private readonly files: ExerciseFiles | undefined;
  private starterLocale: Locale;
  private readonly importedCode: ImportedCodeMarks;
  /** The marks before the last import, put back by undo. */
  private marksBeforeImport: string[] = [];
  /** Each exercise with what has loaded of it so far (a new object each time something arrives). */
  private readonly current = new Map<string, Exercise>();
  private readonly specs = new Map<string, Promise<string>>();
  private readonly loadedSpecs = new Map<string, string>();
  private seq = 0;
  /** The last run's seq when the reference view opened: runs up to it are hidden while comparing. */
  private comparingSince = 0;
  /** The share hash opened last: React's StrictMode and hashchange may both ask for it again. */
  private openedShareHash: string | null = null;
  /** Its decoding, so every caller can wait for the same outcome. */
  private openingShare: Promise<void> = Promise.resolve();

  constructor(options: ExerciseStoreOptions) {
    super();
    this.exercises = options.catalogue.exercises;
    this.problems = options.catalogue.problems;
    this.progress = options.progress;
    this.runner = options.runner;
    this.preferences = options.preferences;
    this.scheduleProgress = options.scheduleProgress ?? ((show) => setTimeout(show, PROGRESS_INTERVAL_MS));
    this.files = options.files;
    this.starterLocale = options.starterLocale ?? 'en';
    this.importedCode = options.importedCode ?? new ImportedCodeMarks();
    for (const exercise of this.exercises) this.current.set(exercise.meta.id, exercise);
    const remembered = this.preferences.read();
    const selectedId = this.find(remembered.exerciseId ?? '')?.meta.id ?? this.exercises[0]?.meta.id ?? null;
    this.store = createStore<ExerciseState>({ selectedId, texts: {}, runs: {}, view: 'code', replacement: null, runOnSave: remembered.runOnSave, scratch: null, shareProblem: null, lastImport: null });
  }

  /** The exercise with everything loaded of it so far. */
  find(id: string): Exercise | undefined {
    return this.current.get(id);
  }

  /** Whether the lesson, hints and test names of `id` are in, in `locale`. */
  textStatus(id: string, locale: Locale, state: ExerciseState = this.store.getSnapshot()): TextStatus {
    if (!this.files) return this.current.has(id) ? 'ready' : 'failed';
    return state.texts[`${id}/${locale}`] ?? 'idle';
  }

  /** Starts loading the text of `id` in `locale` unless it is in or on its way (a failure is tried again). */
  loadText(id: string, locale: Locale): void {
    const files = this.files;
    const status = this.textStatus(id, locale);
    if (!files || !this.current.has(id) || status === 'loading' || status === 'ready') return;
    const key = `${id}/${locale}`;
    const settle = (next: TextStatus) => this.store.setState((state) => ({ ...state, texts: { ...state.texts, [key]: next } }));
    settle('loading');
    files.loadText(id, locale).then(
      (text) => {
        this.mergeText(id, text);
        settle('ready');
      },
      () => settle('failed'),
    );
  }

  private mergeText(id: string, text: ExerciseText): void {
    const exercise = this.current.get(id);
    if (!exercise) return;
    const merged: Exercise = { ...exercise, content: { ...exercise.content, ...text.content }, hints: { ...exercise.hints, ...text.hints }, ...(text.rules === undefined ? {} : { rules: text.rules }) };
    const testNames = { ...exercise.testNames, ...text.testNames };
    if (Object.keys(testNames).length > 0) merged.testNames = testNames;
    this.current.set(id, merged);
  }

  /** The exercise with its spec: at once when it is in (or the catalogue is complete), else once loaded. */
  private withSpec(exercise: Exercise): Exercise | Promise<Exercise> {
    const files = this.files;
    const id = exercise.meta.id;
    const loaded = this.loadedSpecs.get(id);
    if (!files) return exercise;
    if (loaded !== undefined) return { ...exercise, spec: loaded };
    let spec = this.specs.get(id);
    if (!spec) {
      spec = files.loadSpec(id);
      this.specs.set(id, spec);
      // A spec that did not load is tried again at the next run.
      spec.then((text) => this.loadedSpecs.set(id, text), () => this.specs.delete(id));
    }
    return spec.then((text) => ({ ...exercise, spec: text }));
  }

  selected(): Exercise | undefined {
    const id = this.store.getSnapshot().selectedId;
    return id === null ? undefined : this.find(id);
  }

  runOf(id: string): RunState {
    return this.store.getSnapshot().runs[id] ?? IDLE;
  }

  /** The code in the editor: a scratch copy when one is open, else the learner's own. */
  codeOf(id: string): string {
    const scratch = this.store.getSnapshot().scratch;
    return scratch?.exerciseId === id ? scratch.code : this.ownCodeOf(id);
  }

  /** The learner's own saved code: what they typed, else the starter. */
  ownCodeOf(id: string): string {
    const exercise = this.find(id);
    return this.progress.get(id).code ?? (exercise ? this.starterOf(exercise) : '');
  }

  /** The starter in the page's language when it has one (only the comments differ), else the English one. */
  starterOf(exercise: Exercise): string {
    return exercise.starters?.[this.starterLocale] ?? exercise.starter;
  }

  /**
   * Starters with their comments in `locale`, by exercise id. The page loads them with the language
   * (not in its first paint); until then starterOf gives the English one.
   */
  addStarters(locale: Locale, byId: Readonly<Record<string, string>>): void {
    if (locale === 'en') return;
    for (const exercise of this.exercises) {
      const code = byId[exercise.meta.id];
      if (code === undefined) continue;
      exercise.starters = { ...exercise.starters, [locale]: code };
      // A lesson that arrived first has already put a merged copy in `current` (loadText), and that
      // copy is what the editor asks starterOf about: it gets the starter too. (On a busy machine
      // the lesson won that race and a Chinese page opened on the English starter.)
      const shown = this.current.get(exercise.meta.id);
      if (shown !== undefined && shown !== exercise) shown.starters = { ...shown.starters, [locale]: code };
    }
  }

  /** Which language's starter a learner with no saved code gets from now on (editors already open keep theirs). */
  setStarterLocale(locale: Locale): void {
    this.starterLocale = locale;
  }

  /** Whether the code of `id` in the editor came from a share link (someone else's code). */
  isSharedCopy(id: string): boolean {
    return this.scratchOf(id) !== null;
  }

  /** Whose code `id` shows: a share link's (scratch copy), an imported file's (until run with consent), or the learner's. */
  codeSource(id: string): CodeSource {
    if (this.scratchOf(id) !== null) return 'share-link';
    return this.importedCode.has(id) ? 'imported-file' : 'own';
  }

  /** The learner agreed to run the imported code of `id` outside the worker: it is theirs now. */
  trustImportedCode(id: string): void {
    this.importedCode.remove(id);
  }

  private scratchOf(id: string): ScratchCopy | null {
    const scratch = this.store.getSnapshot().scratch;
    return scratch?.exerciseId === id ? scratch : null;
  }

  select(id: string): void {
    if (!this.find(id) || this.store.getSnapshot().selectedId === id) return;
    this.progress.flush();
    this.store.setState((state) => ({ ...state, selectedId: id, view: 'code' }));
    this.preferences.write({ exerciseId: id });
  }

  /** Every keystroke: kept at once, written to storage after a short pause (ProgressStore). */
  updateCode(id: string, code: string): void {
    const exercise = this.find(id);
    if (!exercise) return;
    // A scratch copy is edited in memory only: the learner's saved code is not touched.
    if (this.scratchOf(id)) {
      this.store.setState((state) => (state.scratch?.code === code ? state : { ...state, scratch: { exerciseId: id, code } }));
      return;
    }
    // Back to exactly a starter (in any language): nothing of theirs to keep.
    if (code === exercise.starter || Object.values(exercise.starters ?? {}).includes(code)) this.progress.resetCode(id);
    else this.progress.saveCode(id, code);
  }

  /** Runs the spec against the learner's code; a passing run marks the exercise complete. */
  async run(id = this.store.getSnapshot().selectedId ?? ''): Promise<RunResult | undefined> {
    const exercise = this.find(id);
    if (!exercise || this.runOf(id).status === 'running') return undefined;
    const seq = ++this.seq;
    // Someone else's code passing is not the learner's progress.
    const onScratch = this.scratchOf(id) !== null;
    this.setRun(id, { status: 'running', seq, tests: [] });
    const streamed: TestResult[] = [];
    let showPending = false;
    const show = () => {
      showPending = false;
      const current = this.runOf(id);
      if (current.status === 'running' && current.seq === seq) this.setRun(id, { ...current, tests: [...streamed] });
    };
    let withSpec: Exercise;
    try {
      // Only the first run of an exercise waits for its spec.
      const ready = this.withSpec(exercise);
      withSpec = ready instanceof Promise ? await ready : ready;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const failed: RunResult = { status: 'error', message, error: { message, source: 'spec' }, tests: [], durationMs: 0 };
      this.setRun(id, { status: 'done', seq, result: failed });
      return failed;
    }
    const result = await this.runner.run(withSpec, this.codeOf(id), {
      onTest: (test) => {
        streamed.push(test);
        if (showPending) return;
        showPending = true;
        this.scheduleProgress(show);
      },
      // The examples' verdict is shown at once, not at the next progress tick: it is what the
      // learner waits for (the properties take most of a run).
      onExamplesDone: (properties) => {
        const current = this.runOf(id);
        if (current.status !== 'running' || current.seq !== seq) return;
        const failed = streamed.filter((test) => test.status !== 'pass').length;
        this.setRun(id, { ...current, tests: [...streamed], examples: { total: streamed.length, failed, properties } });
      },
    });
    this.setRun(id, { status: 'done', seq, result });
    if (result.status === 'pass' && !onScratch) this.progress.markCompleted(id);
    return result;
  }

  /** Back to the starter. The completed mark and the hints stay. */
  reset(id: string): void {
    const exercise = this.find(id);
    if (!exercise) return;
    if (this.scratchOf(id)) this.updateCode(id, this.starterOf(exercise));
    else this.progress.resetCode(id);
    this.replaceCode(id, this.starterOf(exercise));
  }

  /** The reference replaces the learner's code (they confirmed), and the editor comes back. */
  useReference(id: string, source: string): void {
    if (!this.find(id)) return;
    this.updateCode(id, source);
    if (!this.scratchOf(id)) this.progress.markReferenceUsed(id);
    this.progress.flush();
    this.replaceCode(id, source);
    this.store.setState((state) => ({ ...state, view: 'code' }));
  }

  showSolution(): void {
    if (this.getSnapshot().view !== 'solution') this.comparingSince = this.seq;
    this.store.setState((state) => (state.view === 'solution' ? state : { ...state, view: 'solution' }));
  }

  /**
   * Whether `id`'s results are from before the reference view opened, while it shows: the diff
   * gets their room, and results of other code are not read as the reference's. A run started
   * while comparing shows as usual.
   */
  resultsHiddenWhileComparing(id: string): boolean {
    const run = this.runOf(id);
    return this.getSnapshot().view === 'solution' && run.status === 'done' && run.seq <= this.comparingSince;
  }

  showCode(): void {
    this.store.setState((state) => (state.view === 'code' ? state : { ...state, view: 'code' }));
  }

  /** Reveals hint `hint` (else the first not shown) of the `available` ones; returns how many are shown now. */
  revealHint(id: string, available: number, hint?: number): number {
    return this.progress.revealHint(id, available, hint);
  }

  setRunOnSave(enabled: boolean): void {
    this.store.setState((state) => (state.runOnSave === enabled ? state : { ...state, runOnSave: enabled }));
    this.preferences.write({ runOnSave: enabled });
  }

  /** Loads the test runner now, so the first Run does not wait for it. */
  warmUp(): void {
    this.runner.warmUp();
    // And the open exercise's spec, so its first run does not wait for it either.
    const selected = this.selected();
    if (selected) Promise.resolve(this.withSpec(selected)).catch(() => {});
  }

  // ---- share links and the scratch copy ----

  /**
   * Opens a `#share=` hash: the shared code in a scratch copy of its exercise, or a problem to
   * show (the learner's own view stays). Opening the same hash twice does nothing the second time.
   */
  openShareHash(hash: string): Promise<void> {
    if (hash === this.openedShareHash) return this.openingShare;
    this.openedShareHash = hash;
    this.openingShare = decodeShareHash(hash).then((outcome) => {
      if (outcome.ok) this.openShared(outcome.shared);
      else this.store.setState((state) => ({ ...state, shareProblem: outcome.problem }));
    });
    return this.openingShare;
  }

  openShared(shared: SharedCode): void {
    if (!this.find(shared.exerciseId)) {
      this.store.setState((state) => ({ ...state, shareProblem: { reason: 'unknown-exercise', exerciseId: shared.exerciseId } }));
      return;
    }
    const previous = this.store.getSnapshot().scratch;
    if (previous) this.leaveScratch();
    // Whatever the learner typed last is on disk before the editor shows someone else's code.
    this.progress.flush();
    this.select(shared.exerciseId);
    this.store.setState((state) => ({ ...state, scratch: { exerciseId: shared.exerciseId, code: shared.code }, shareProblem: null, view: 'code' }));
    this.replaceCode(shared.exerciseId, shared.code);
  }

  /** "Back to my code": the scratch copy is dropped and the learner's own code comes back. */
  leaveScratch(): void {
    const scratch = this.store.getSnapshot().scratch;
    if (!scratch) return;
    this.openedShareHash = null;
    this.store.setState((state) => ({ ...state, scratch: null }));
    this.replaceCode(scratch.exerciseId, this.ownCodeOf(scratch.exerciseId));
  }

  /** "Keep as my code" (confirmed): the scratch copy becomes the learner's saved code. */
  keepScratch(): void {
    const scratch = this.store.getSnapshot().scratch;
    if (!scratch) return;
    this.openedShareHash = null;
    this.store.setState((state) => ({ ...state, scratch: null }));
    this.updateCode(scratch.exerciseId, scratch.code);
    this.progress.flush();
  }

  dismissShareProblem(): void {
    this.openedShareHash = null; // the same link pasted again is tried (and reported) again
    this.store.setState((state) => (state.shareProblem === null ? state : { ...state, shareProblem: null }));
  }

  // ---- export and import ----

  /** All progress, edits not yet written included. */
  exportProgress(): StoredProgress {
    this.progress.flush();
    return this.progress.exportData();
  }

  /** A file's progress, replacing or merging (the learner chose, after seeing the plan). Undoable. */
  importProgress(incoming: StoredProgress, mode: ImportMode, changed: number): void {
    this.progress.flush();
    const before = this.progress.exportData();
    const after = applyImport(before, incoming, mode);
    // Every exercise whose code the file changed now holds code someone else may have written.
    const fromFile = Object.entries(after.exercises).filter(([id, entry]) => entry.code !== before.exercises[id]?.code).map(([id]) => id);
    this.marksBeforeImport = this.importedCode.ids();
    this.importedCode.set([...this.marksBeforeImport, ...fromFile]);
    this.progress.replaceAll(after);
    this.store.setState((state) => ({ ...state, lastImport: { mode, changed } }));
    this.showOwnCodeEverywhere();
  }

  undoImport(): void {
    if (!this.progress.undoImport()) return;
    this.importedCode.set(this.marksBeforeImport);
    this.store.setState((state) => ({ ...state, lastImport: null }));
    this.showOwnCodeEverywhere();
  }

  dismissImportNotice(): void {
    this.store.setState((state) => (state.lastImport === null ? state : { ...state, lastImport: null }));
  }

  /** Open editors follow code changed under them; a scratch copy keeps showing the shared code. */
  private showOwnCodeEverywhere(): void {
    const scratchId = this.store.getSnapshot().scratch?.exerciseId;
    for (const exercise of this.exercises) {
      if (exercise.meta.id !== scratchId) this.replaceCode(exercise.meta.id, this.ownCodeOf(exercise.meta.id));
    }
  }

  private replaceCode(id: string, code: string): void {
    this.store.setState((state) => ({ ...state, replacement: { exerciseId: id, code, seq: (state.replacement?.seq ?? 0) + 1 } }));
  }

  private setRun(id: string, run: RunState): void {
    this.store.setState((state) => ({ ...state, runs: { ...state.runs, [id]: run } }));
  }
}
