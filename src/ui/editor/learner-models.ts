// The bond between the exercise store and Monaco's models, shared by the code editor and the diff
// view (both show the same learner model): every edit goes to the store (autosaved), code replaced
// from outside (Reset, Use the reference) goes into the model as one undoable edit, and a run's
// errors become markers on the lines they point at. Loaded with Monaco, never before.

import type { Exercise } from '../../exercise/types.ts';
import type { RunResult } from '../../sandbox/spec-results.ts';
import type { ExerciseStore } from '../../app/exercise/exercise-store.ts';
import { learnerModel, learnerUri, setupMonaco, type Monaco } from './monaco-setup.ts';
import type { editor } from 'monaco-editor/editor';

/** Markers of the last run, apart from TypeScript's own. */
export const RUN_MARKER_OWNER = 'exercise-run';

const bound = new WeakSet<ExerciseStore>();
const listening = new WeakSet<editor.ITextModel>();

/** Monaco ready for this store: set up once, and replacements followed from now on. */
export function bindMonaco(store: ExerciseStore): Monaco {
  const monaco = setupMonaco(store.exercises);
  if (!bound.has(store)) {
    bound.add(store);
    let applied = store.getSnapshot().replacement?.seq ?? 0;
    store.subscribe(() => {
      const replacement = store.getSnapshot().replacement;
      if (!replacement || replacement.seq <= applied) return;
      applied = replacement.seq;
      const exercise = store.find(replacement.exerciseId);
      // No model yet: it will be created from the store's code, which already is the replacement.
      const model = exercise ? monaco.editor.getModel(monaco.Uri.parse(learnerUri(exercise))) : null;
      if (model && model.getValue() !== replacement.code) {
        model.pushStackElement();
        model.pushEditOperations([], [{ range: model.getFullModelRange(), text: replacement.code }], () => null);
        model.pushStackElement();
      }
    });
  }
  return monaco;
}

/** The learner's model for an exercise; its edits are saved through the store. */
export function modelFor(store: ExerciseStore, exercise: Exercise): editor.ITextModel {
  const model = learnerModel(exercise, store.codeOf(exercise.meta.id));
  if (!listening.has(model)) {
    listening.add(model);
    const id = exercise.meta.id;
    model.onDidChangeContent(() => store.updateCode(id, model.getValue()));
  }
  return model;
}

/** Markers for a run: the line a syntax error or load failure names, and where failing tests threw. */
export function runMarkers(monaco: Monaco, model: editor.ITextModel, result: RunResult | undefined): editor.IMarkerData[] {
  if (!result) return [];
  const markers: editor.IMarkerData[] = [];
  const lineCount = model.getLineCount();
  const wholeLine = (line: number) => {
    const lineNumber = Math.min(Math.max(line, 1), lineCount);
    return { startLineNumber: lineNumber, endLineNumber: lineNumber, startColumn: model.getLineFirstNonWhitespaceColumn(lineNumber) || 1, endColumn: model.getLineMaxColumn(lineNumber) };
  };
  if (result.status === 'error' && result.error?.source === 'learner' && result.error.line !== undefined) {
    markers.push({ ...wholeLine(result.error.line), severity: monaco.MarkerSeverity.Error, message: result.message ?? result.error.message, source: 'tests' });
  }
  for (const test of result.tests) {
    if (test.status === 'pass' || test.learnerLine === undefined) continue;
    markers.push({ ...wholeLine(test.learnerLine), severity: monaco.MarkerSeverity.Warning, message: `${test.name}\n${test.message ?? ''}`, source: 'tests' });
  }
  return markers;
}

export { referenceModel as referenceModelFor, wakeLanguageServiceOn } from './monaco-setup.ts';
