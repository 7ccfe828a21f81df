import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { editor } from 'monaco-editor/editor';
import { solutionEntry, solutionPaths } from '../../exercise/catalogue.ts';
import { loadSolutionSource } from '../../exercise/catalogue-browser.ts';
import type { Exercise } from '../../exercise/types.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { useLazyMonaco, type EditorModule } from '../hooks/use-lazy-monaco.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { replaceWithReference } from '../../app/exercise/replace-with-reference.ts';

/** The diff editor with the view model it shows; dispose() lets go of both (once). */
interface DiffEditor {
  module: EditorModule;
  show(model: editor.IDiffEditorModel): void;
  dispose(): void;
}

type Sources = { status: 'loading' } | { status: 'ready'; files: Readonly<Record<string, string>> } | { status: 'failed'; reason: string };

/** `src/protocol/framing/ndjson.ts` → `framing/ndjson.ts`: how the reference files are named to learners. */
function shortPath(path: string): string {
  return path.replace(/^src\/protocol\//, '');
}

/**
 * The reference beside the learner's code in Monaco's diff editor. "Use the reference" puts the
 * module that stands for the learner's whole file (its relative imports resolve among the
 * reference modules when the tests run) into their file, after asking.
 */
export function SolutionView({ exercise }: { exercise: Exercise }) {
  const { t } = useTranslation('exercise');
  const store = useExercises();
  const { meta } = exercise;
  const entry = solutionEntry(meta);
  const paths = solutionPaths(meta);
  // In Chinese the reference shows with Chinese comments (the same code; see loadSolutionSource).
  const locale = useLocale();
  const [selected, setSelected] = useState(meta.solution[0] ?? entry);
  const [sources, setSources] = useState<Sources>({ status: 'loading' });
  const [confirming, setConfirming] = useState(false);
  const [monacoError, setMonacoError] = useState<string | null>(null);
  const container = useRef<HTMLDivElement>(null);
  const diff = useRef<DiffEditor | null>(null);
  const [diffReady, setDiffReady] = useState(false);

  useEffect(() => {
    let cancelled = false;
    Promise.all(paths.map(async (path) => [path, await loadSolutionSource(path, meta.id, locale)] as const))
      .then((entries) => {
        if (cancelled) return;
        const missing = entries.filter(([, source]) => source === undefined).map(([path]) => path);
        if (missing.length > 0) setSources({ status: 'failed', reason: missing.join(', ') });
        else setSources({ status: 'ready', files: Object.fromEntries(entries) as Record<string, string> });
      })
      .catch((error: unknown) => {
        if (!cancelled) setSources({ status: 'failed', reason: error instanceof Error ? error.message : String(error) });
      });
    return () => {
      cancelled = true;
    };
    // `paths` is derived from the exercise, which is the real dependency.
  }, [exercise, locale]);

  // One diff editor per exercise (the parent keys this view by exercise id).
  useLazyMonaco(
    container,
    store,
    (module, monaco, element) => {
      const instance = monaco.editor.createDiffEditor(element, {
        automaticLayout: true,
        renderSideBySide: true,
        useInlineViewWhenSpaceIsLimited: false,
        originalEditable: false,
        readOnly: false,
        minimap: { enabled: false },
        fontSize: 13,
        scrollBeyondLastLine: false,
        // Two columns in half a workspace: long lines wrap instead of running out of sight.
        diffWordWrap: 'on',
        wordWrap: 'on',
        fixedOverflowWidgets: true,
        originalAriaLabel: t('solution.heading'),
        modifiedAriaLabel: t('editor.label', { file: meta.learnerFile }),
      });
      // The diff editor does not pass originalAriaLabel/modifiedAriaLabel on to its two
      // editors, which then have an empty accessible name; set them on each editor directly.
      instance.getOriginalEditor().updateOptions({ ariaLabel: t('solution.heading') });
      instance.getModifiedEditor().updateOptions({ ariaLabel: t('editor.label', { file: meta.learnerFile }) });
      module.wakeLanguageServiceOn(instance.getOriginalEditor());
      module.wakeLanguageServiceOn(instance.getModifiedEditor());
      // The diff editor never disposes a view model made by setModel({ original, modified }) (it
      // keeps one reference to it forever), and that view model goes on computing diffs: one
      // finishing after the learner's model was replaced throws (line ranges out of bounds). So
      // the view models are made here, and disposed here.
      let viewModel: editor.IDiffEditorViewModel | null = null;
      let disposed = false;
      const handle: DiffEditor = {
        module,
        show(model) {
          const previous = viewModel;
          viewModel = instance.createViewModel(model);
          instance.setModel(viewModel);
          previous?.dispose();
        },
        dispose() {
          if (disposed) return;
          disposed = true;
          if (diff.current === handle) diff.current = null;
          instance.setModel(null);
          viewModel?.dispose();
          viewModel = null;
          instance.dispose(); // models are kept: the learner's is the editor's too
        },
      };
      diff.current = handle;
      setDiffReady(true);
      return () => handle.dispose();
    },
    setMonacoError,
  );

  useEffect(() => {
    if (!diffReady || !diff.current || sources.status !== 'ready') return;
    const { module, show } = diff.current;
    const source = sources.files[selected];
    if (source === undefined) return;
    show({ original: module.referenceModelFor(selected, source), modified: module.modelFor(store, exercise) });
  }, [diffReady, sources, selected, exercise, store]);

  const entrySource = sources.status === 'ready' ? sources.files[entry] : undefined;

  return (
    <div className="solution-view" data-testid="solution-view">
      <div className="solution-view__bar">
        <h3 className="solution-view__heading">{t('solution.heading')}</h3>
        <div className="solution-view__files" role="group" aria-label={t('solution.files')}>
          {paths.map((path) => (
            <button key={path} type="button" className="solution-view__file mono" aria-pressed={path === selected} onClick={() => setSelected(path)}>
              {path === entry && !meta.solution.includes(entry) ? t('solution.entry', { file: shortPath(path) }) : shortPath(path)}
            </button>
          ))}
        </div>
        <div className="solution-view__actions">
          <button type="button" className="primary" disabled={entrySource === undefined} onClick={() => setConfirming(true)}>
            {t('solution.use')}
          </button>
          <button type="button" onClick={() => store.showCode()}>
            {t('solution.back')}
          </button>
        </div>
      </div>
      <p className="hint solution-view__intro">{t('solution.intro')}</p>
      {sources.status === 'loading' && <p className="hint">{t('solution.loading')}</p>}
      {sources.status === 'failed' && <p className="notice is-warning">{t('solution.failed', { reason: sources.reason })}</p>}
      {monacoError !== null && <p className="notice is-warning">{t('editor.loadFailed', { reason: monacoError })}</p>}
      <div
        ref={container}
        className="solution-view__diff"
        data-testid="diff-editor"
        role="region"
        aria-label={t('solution.diffLabel', { path: shortPath(selected), file: meta.learnerFile })}
      />
      <ConfirmDialog
        open={confirming}
        title={t('solution.confirmTitle', { file: meta.learnerFile })}
        body={t('solution.confirmBody', { file: meta.learnerFile, path: shortPath(entry) })}
        confirmLabel={t('solution.confirm')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          if (entrySource === undefined) return;
          replaceWithReference(store, meta.id, entrySource, diff.current);
        }}
      />
    </div>
  );
}
