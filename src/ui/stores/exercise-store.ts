// What the exercise side of the page shows, and every action it offers: which exercise is open,
// its runs and their results, whether the reference is shown. The learner's code, completion
// marks and hints live in the engine's ProgressStore (saved in the browser); this store only
// drives it. No UI here: components render the snapshot.

import type { Catalogue } from '../../exercise/catalogue.ts';
import type { ProgressStore } from '../../exercise/progress-store.ts';
import type { RunOptions } from '../../exercise/spec-runner.ts';
import type { Exercise, RunResult, TestResult } from '../../exercise/types.ts';
import { createStore, type Store } from './create-store.ts';
import type { UiPreferences } from './ui-preferences.ts';

/** The spec runner as used here (SpecRunner in the page, a fake in tests). */
export interface ExerciseRunner {
  run(exercise: Exercise, learnerSource: string, options?: RunOptions): Promise<RunResult>;
  warmUp(): void;
}

export type RunState =
  | { status: 'idle' }
  | { status: 'running'; seq: number; tests: readonly TestResult[] }
  | { status: 'done'; seq: number; result: RunResult };

/** `code`: the learner's editor. `solution`: the reference beside their code (diff). */
export type WorkspaceView = 'code' | 'solution';

/** The learner's code was replaced from outside the editor (Reset, Use the reference). */
export interface CodeReplacement {
  exerciseId: string;
  code: string;
  seq: number;
}

export interface ExerciseState {
  selectedId: string | null;
  runs: Readonly<Record<string, RunState>>;
  view: WorkspaceView;
  replacement: CodeReplacement | null;
  runOnSave: boolean;
}

const IDLE: RunState = { status: 'idle' };

export interface ExerciseStoreOptions {
  catalogue: Catalogue;
  progress: ProgressStore;
  runner: ExerciseRunner;
  preferences: UiPreferences;
  /**
   * When streamed test results are shown: each one arrives as its own message, and rendering the
   * results panel for each would cost more than the run. Default: together, at most every 50 ms.
   */
  scheduleProgress?: (show: () => void) => void;
}

const PROGRESS_INTERVAL_MS = 50;

export class ExerciseStore {
  readonly store: Store<ExerciseState>;
  readonly exercises: readonly Exercise[];
  readonly problems: readonly string[];
  readonly progress: ProgressStore;
  private readonly runner: ExerciseRunner;
  private readonly preferences: UiPreferences;
  private readonly scheduleProgress: (show: () => void) => void;
  private seq = 0;

  constructor(options: ExerciseStoreOptions) {
    this.exercises = options.catalogue.exercises;
    this.problems = options.catalogue.problems;
    this.progress = options.progress;
    this.runner = options.runner;
    this.preferences = options.preferences;
    this.scheduleProgress = options.scheduleProgress ?? ((show) => setTimeout(show, PROGRESS_INTERVAL_MS));
    const remembered = this.preferences.read();
    const selectedId = this.find(remembered.exerciseId ?? '')?.meta.id ?? this.exercises[0]?.meta.id ?? null;
    this.store = createStore<ExerciseState>({ selectedId, runs: {}, view: 'code', replacement: null, runOnSave: remembered.runOnSave });
  }

  getSnapshot = (): ExerciseState => this.store.getSnapshot();
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  find(id: string): Exercise | undefined {
    return this.exercises.find((exercise) => exercise.meta.id === id);
  }

  selected(): Exercise | undefined {
    const id = this.store.getSnapshot().selectedId;
    return id === null ? undefined : this.find(id);
  }

  runOf(id: string): RunState {
    return this.store.getSnapshot().runs[id] ?? IDLE;
  }

  /** The learner's current code: what they typed, else the starter. */
  codeOf(id: string): string {
    return this.progress.get(id).code ?? this.find(id)?.starter ?? '';
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
    // Back to exactly the starter: nothing of theirs to keep.
    if (code === exercise.starter) this.progress.resetCode(id);
    else this.progress.saveCode(id, code);
  }

  /** Runs the spec against the learner's code; a passing run marks the exercise complete. */
  async run(id = this.store.getSnapshot().selectedId ?? ''): Promise<RunResult | undefined> {
    const exercise = this.find(id);
    if (!exercise || this.runOf(id).status === 'running') return undefined;
    const seq = ++this.seq;
    this.setRun(id, { status: 'running', seq, tests: [] });
    const streamed: TestResult[] = [];
    let showPending = false;
    const show = () => {
      showPending = false;
      const current = this.runOf(id);
      if (current.status === 'running' && current.seq === seq) this.setRun(id, { ...current, tests: [...streamed] });
    };
    const result = await this.runner.run(exercise, this.codeOf(id), {
      onTest: (test) => {
        streamed.push(test);
        if (showPending) return;
        showPending = true;
        this.scheduleProgress(show);
      },
    });
    this.setRun(id, { status: 'done', seq, result });
    if (result.status === 'pass') this.progress.markCompleted(id);
    return result;
  }

  /** Back to the starter. The completed mark and the hints stay. */
  reset(id: string): void {
    const exercise = this.find(id);
    if (!exercise) return;
    this.progress.resetCode(id);
    this.replaceCode(id, exercise.starter);
  }

  /** The reference replaces the learner's code (they confirmed), and the editor comes back. */
  useReference(id: string, source: string): void {
    if (!this.find(id)) return;
    this.updateCode(id, source);
    this.progress.flush();
    this.replaceCode(id, source);
    this.store.setState((state) => ({ ...state, view: 'code' }));
  }

  showSolution(): void {
    this.store.setState((state) => (state.view === 'solution' ? state : { ...state, view: 'solution' }));
  }

  showCode(): void {
    this.store.setState((state) => (state.view === 'code' ? state : { ...state, view: 'code' }));
  }

  /** Reveals one more hint of the `available` ones; returns how many are shown now. */
  revealHint(id: string, available: number): number {
    return this.progress.revealHint(id, available);
  }

  setRunOnSave(enabled: boolean): void {
    this.store.setState((state) => (state.runOnSave === enabled ? state : { ...state, runOnSave: enabled }));
    this.preferences.write({ runOnSave: enabled });
  }

  /** Loads the test runner now, so the first Run does not wait for it. */
  warmUp(): void {
    this.runner.warmUp();
  }

  private replaceCode(id: string, code: string): void {
    this.store.setState((state) => ({ ...state, replacement: { exerciseId: id, code, seq: (state.replacement?.seq ?? 0) + 1 } }));
  }

  private setRun(id: string, run: RunState): void {
    this.store.setState((state) => ({ ...state, runs: { ...state.runs, [id]: run } }));
  }
}
