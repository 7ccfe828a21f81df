import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useExercises } from '../hooks/exercise-context.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { ScratchBanner } from '../progress-transfer/ScratchBanner.tsx';
import { ShareCodeButton, ShareResult, useShareCode } from '../progress-transfer/ShareCode.tsx';
import { useShareLinkFromAddress } from '../progress-transfer/use-share-link.ts';
import { useExerciseLinkFromAddress } from './use-exercise-link.ts';
import { CodeEditor, type EditorHandle } from './CodeEditor.tsx';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { ResultsPanel } from './ResultsPanel.tsx';
import { SolutionView } from './SolutionView.tsx';

const TAB_HINT_ID = 'editor-tab-hint';

/** The learner's side of an exercise: toolbar, editor (or the reference beside it), results. */
export function ExerciseWorkspace() {
  const { t } = useTranslation('exercise');
  const exercises = useExercises();
  const selectedId = useStoreSelector(exercises, (state) => state.selectedId);
  const view = useStoreSelector(exercises, (state) => state.view);
  const runOnSave = useStoreSelector(exercises, (state) => state.runOnSave);
  const exercise = selectedId === null ? undefined : exercises.find(selectedId);
  const editor = useRef<EditorHandle | null>(null);
  const solveButton = useRef<HTMLButtonElement>(null);
  const [confirmingReset, setConfirmingReset] = useState(false);
  const id = exercise?.meta.id ?? '';
  const run = useStoreSelector(exercises, () => exercises.runOf(id));
  // While the reference shows, the run from before gives its room to the diff.
  const resultsHidden = useStoreSelector(exercises, () => exercises.resultsHiddenWhileComparing(id));
  const completed = useStoreSelector(exercises.progress, (state) => state.exercises[id]?.completed === true);
  const inScratch = useStoreSelector(exercises, (state) => state.scratch?.exerciseId === id);
  const shareCode = useShareCode(id);
  // A `#share=` address opens its code here, in a scratch copy.
  useShareLinkFromAddress(exercises);
  // A lesson's link to another exercise (`#exercise=<id>`) opens it here.
  useExerciseLinkFromAddress(exercises);
  // The test runner's worker loads as the workspace first shows, so the first Run finds it warm (a
  // cold one takes most of a second); a page opened on another view loads it only when learner
  // code runs there.
  useEffect(() => exercises.warmUp(), [exercises]);

  const runTests = useCallback(() => {
    void exercises.run(id);
  }, [exercises, id]);
  const save = useCallback(() => {
    exercises.progress.flush();
    if (exercises.getSnapshot().runOnSave) void exercises.run(id);
  }, [exercises, id]);

  // Back from the reference: focus returns to the button that opened it.
  const previousView = useRef(view);
  useEffect(() => {
    if (previousView.current === 'solution' && view === 'code') solveButton.current?.focus();
    previousView.current = view;
  }, [view]);

  if (!exercise) return <section className="pane workspace" aria-label={t('workspace.label')} />;
  const file = exercise.meta.learnerFile;

  return (
    <section className="pane workspace" aria-label={t('workspace.label')} id="workspace">
      {inScratch && <ScratchBanner exercise={exercise} />}
      <div className="workspace__toolbar">
        <span className="workspace__file">
          {t('workspace.file', { file })}
          {completed && (
            <span className="workspace__completed" data-testid="completed-badge">
              <span aria-hidden="true">✓ </span>
              {t('workspace.completed')}
            </span>
          )}
        </span>
        <button
          type="button"
          className="primary"
          onClick={runTests}
          disabled={run.status === 'running'}
          title={t('workspace.runTitle')}
          aria-keyshortcuts="Control+Enter"
          data-testid="run-button"
        >
          {t('workspace.run')}
        </button>
        <button type="button" ref={solveButton} onClick={() => exercises.showSolution()} disabled={view === 'solution'} title={t('workspace.solveTitle')}>
          {t('workspace.solve')}
        </button>
        <button type="button" onClick={() => setConfirmingReset(true)} title={t('workspace.resetTitle')}>
          {t('workspace.reset')}
        </button>
        <ShareCodeButton controls={shareCode} />
        <label className="workspace__run-on-save">
          <input type="checkbox" checked={runOnSave} onChange={(event) => exercises.setRunOnSave(event.target.checked)} />
          <span>{t('workspace.runOnSave')}</span>
        </label>
      </div>
      <ShareResult controls={shareCode} />
      {view === 'code' ? (
        <>
          <p className="hint workspace__tab-hint" id={TAB_HINT_ID}>
            {t('editor.tabHint')}
          </p>
          <CodeEditor exercise={exercise} onRun={runTests} onSave={save} handle={editor} describedBy={TAB_HINT_ID} />
        </>
      ) : (
        <SolutionView key={id} exercise={exercise} />
      )}
      {resultsHidden ? (
        <p className="hint results-hidden" data-testid="results-hidden">
          {t('results.hiddenWhileComparing')}
        </p>
      ) : (
        <ResultsPanel
          exercise={exercise}
          run={run}
          completed={completed}
          onGoToLine={(line, column) => {
            if (view !== 'code') exercises.showCode();
            // After a view switch the editor mounts first; a frame later it can take the cursor.
            requestAnimationFrame(() => editor.current?.revealLine(line, column));
          }}
        />
      )}
      <ConfirmDialog
        open={confirmingReset}
        title={t('reset.confirmTitle')}
        body={t('reset.confirmBody', { file })}
        confirmLabel={t('reset.confirm')}
        onCancel={() => setConfirmingReset(false)}
        onConfirm={() => {
          setConfirmingReset(false);
          exercises.reset(id);
        }}
      />
    </section>
  );
}
