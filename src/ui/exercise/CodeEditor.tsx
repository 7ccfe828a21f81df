import { useEffect, useRef, useState, type MutableRefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { editor } from 'monaco-editor/editor';
import type { Exercise } from '../../exercise/types.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { useLazyMonaco, type EditorModule } from '../hooks/use-lazy-monaco.ts';


/** What the rest of the workspace may ask of the editor. */
export interface EditorHandle {
  revealLine(line: number, column?: number): void;
}

export interface CodeEditorProps {
  exercise: Exercise;
  onRun(): void;
  onSave(): void;
  handle: MutableRefObject<EditorHandle | null>;
  /** Id of the visible keyboard hint, read out with the editor. */
  describedBy: string;
}

type LoadState = { kind: 'loading' } | { kind: 'ready' } | { kind: 'failed'; reason: string };

/** Lazily loaded and kept across exercises: view state (cursor, scroll) is remembered per model. */
const viewStates = new WeakMap<editor.ITextModel, editor.ICodeEditorViewState | null>();

export function CodeEditor({ exercise, onRun, onSave, handle, describedBy }: CodeEditorProps) {
  const { t } = useTranslation('exercise');
  const store = useExercises();
  const container = useRef<HTMLDivElement>(null);
  const loaded = useRef<{ module: EditorModule; editor: editor.IStandaloneCodeEditor } | null>(null);
  const [load, setLoad] = useState<LoadState>({ kind: 'loading' });
  const [markerLines, setMarkerLines] = useState('');
  const callbacks = useRef({ onRun, onSave });
  callbacks.current = { onRun, onSave };
  const id = exercise.meta.id;
  const file = exercise.meta.learnerFile;
  const run = useStoreSelector(store, (state) => state.runs[id]);

  // Created once; the exercise, labels and callbacks are followed by the effects below.
  useLazyMonaco(
    container,
    store,
    (module, monaco, element) => {
      const instance = monaco.editor.create(element, {
        model: null,
        automaticLayout: true,
        minimap: { enabled: false },
        fontSize: 13,
        fontFamily: "ui-monospace, 'SFMono-Regular', 'Cascadia Mono', 'DejaVu Sans Mono', Menlo, Consolas, monospace",
        tabSize: 2,
        // Lessons' starters carry long comment lines; wrapping beats a sideways scroll on a laptop.
        wordWrap: 'on',
        wrappingIndent: 'same',
        scrollBeyondLastLine: false,
        fixedOverflowWidgets: true,
        renderLineHighlightOnlyWhenFocus: true,
      });
      module.wakeLanguageServiceOn(instance);
      instance.addAction({ id: 'mcp-playground.run-tests', label: t('editor.runAction'), keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter], run: () => callbacks.current.onRun() });
      instance.addAction({ id: 'mcp-playground.save', label: t('editor.saveAction'), keybindings: [monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS], run: () => callbacks.current.onSave() });
      // The element screen readers treat as the editor (an EditContext div, or a textarea where
      // Chromium lacks EditContext) is told where the keyboard hint is.
      instance.getDomNode()?.querySelector('[role="textbox"]')?.setAttribute('aria-describedby', describedBy);
      loaded.current = { module, editor: instance };
      handle.current = {
        revealLine(line, column) {
          instance.revealLineInCenter(line);
          instance.setPosition({ lineNumber: line, column: column ?? 1 });
          instance.focus();
        },
      };
      setLoad({ kind: 'ready' });
      return () => {
        const model = instance.getModel();
        if (model) viewStates.set(model, instance.saveViewState());
        instance.dispose();
        loaded.current = null;
        handle.current = null;
      };
    },
    (reason) => setLoad({ kind: 'failed', reason }),
  );

  // The open exercise's model, with its cursor and scroll as the learner left them.
  useEffect(() => {
    if (load.kind !== 'ready' || !loaded.current) return;
    const { module, editor: instance } = loaded.current;
    const model = module.modelFor(store, exercise);
    const previous = instance.getModel();
    if (previous !== model) {
      if (previous) viewStates.set(previous, instance.saveViewState());
      instance.setModel(model);
      const state = viewStates.get(model);
      if (state) instance.restoreViewState(state);
    }
    instance.updateOptions({ ariaLabel: t('editor.label', { file }) });
  }, [load, exercise, store, t, file]);

  // The last run's errors, as markers on their lines.
  useEffect(() => {
    if (load.kind !== 'ready' || !loaded.current) return;
    const { module } = loaded.current;
    const model = module.modelFor(store, exercise);
    const monaco = module.bindMonaco(store);
    const markers = module.runMarkers(monaco, model, run?.status === 'done' ? run.result : undefined);
    monaco.editor.setModelMarkers(model, module.RUN_MARKER_OWNER, markers);
    setMarkerLines(markers.map((marker) => marker.startLineNumber).join(' '));
  }, [load, run, exercise, store]);

  return (
    <div className="code-editor">
      {load.kind === 'loading' && <p className="code-editor__loading hint">{t('editor.loading')}</p>}
      {load.kind === 'failed' ? (
        <FallbackEditor exercise={exercise} reason={load.reason} describedBy={describedBy} />
      ) : (
        <div ref={container} className="code-editor__monaco" data-testid="code-editor" data-run-marker-lines={markerLines} />
      )}
    </div>
  );
}

/** When Monaco cannot load (an old browser, a blocked chunk): a plain text box still edits and runs the code. */
function FallbackEditor({ exercise, reason, describedBy }: { exercise: Exercise; reason: string; describedBy: string }) {
  const { t } = useTranslation('exercise');
  const store = useExercises();
  // A scratch copy (opened from a share link) shows its own code; edits never reach saved progress.
  const ownCode = useStoreSelector(store.progress, (state) => state.exercises[exercise.meta.id]?.code) ?? store.starterOf(exercise);
  const scratchCode = useStoreSelector(store, (state) => (state.scratch?.exerciseId === exercise.meta.id ? state.scratch.code : undefined));
  const code = scratchCode ?? ownCode;
  return (
    <>
      <p className="notice is-warning">{t('editor.loadFailed', { reason })}</p>
      <textarea
        className="code-editor__fallback mono"
        aria-label={t('editor.label', { file: exercise.meta.learnerFile })}
        aria-describedby={describedBy}
        spellCheck={false}
        value={code}
        onChange={(event) => store.updateCode(exercise.meta.id, event.target.value)}
      />
    </>
  );
}
