import { useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { localized } from '../../exercise/catalogue.ts';
import { createProgressFile, parseProgressFile, PROGRESS_FILE_LIMITS, progressFileName, type ProgressFile } from '../../exercise/progress-transfer.ts';
import { planImport, type ImportMode, type ImportPlan } from '../../exercise/progress-transfer-plan.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { useStoreSelector } from '../hooks/use-store.ts';
import { APP_VERSION } from '../../app/progress-transfer/app-version.ts';
import { downloadText } from '../../app/progress-transfer/browser-file.ts';
import { ImportDialog } from './ImportDialog.tsx';
import { importProblemText } from '../../app/progress-transfer/messages.ts';
import { useTransferText } from './use-transfer-text.ts';
import './progress-transfer.css';

type Pending = { fileName: string; file: ProgressFile; plan: ImportPlan };
type Status = { kind: 'none' } | { kind: 'info'; text: string } | { kind: 'error'; text: string };

/** Export all progress to a file; import one back after showing what it would change. */
export function ProgressTransferPanel() {
  const t = useTransferText();
  const locale = useLocale();
  const exercises = useExercises();
  const lastImport = useStoreSelector(exercises, (state) => state.lastImport);
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState<Status>({ kind: 'none' });
  const [pending, setPending] = useState<Pending | null>(null);
  const [dragging, setDragging] = useState(false);
  const headingId = useId();

  const exportProgress = () => {
    const now = new Date();
    const fileName = progressFileName(now);
    downloadText(fileName, createProgressFile(exercises.exportProgress(), { appVersion: APP_VERSION, exportedAt: now }));
    setStatus({ kind: 'info', text: t('panel.exported', { file: fileName }) });
  };

  const onPicked = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // Cleared at once, so choosing the same file again (after fixing it) fires a change again.
    event.target.value = '';
    if (chosen) void readFile(chosen);
  };

  const onDrop = (event: DragEvent<HTMLElement>) => {
    const dropped = event.dataTransfer.files[0];
    if (!dropped) return;
    event.preventDefault();
    setDragging(false);
    void readFile(dropped);
  };

  const readFile = async (chosen: File) => {
    // The size is known before reading: a wrong multi-gigabyte pick is refused without loading it.
    if (chosen.size > PROGRESS_FILE_LIMITS.fileBytes) {
      setStatus({ kind: 'error', text: importProblemText(t, chosen.name, { reason: 'too-large', size: chosen.size, limit: PROGRESS_FILE_LIMITS.fileBytes }) });
      return;
    }
    setStatus({ kind: 'info', text: t('panel.reading', { file: chosen.name }) });
    let text: string;
    try {
      text = await chosen.text();
    } catch (error) {
      setStatus({ kind: 'error', text: importProblemText(t, chosen.name, { reason: 'read-failed', detail: error instanceof Error ? error.message : String(error) }) });
      return;
    }
    const outcome = parseProgressFile(text, chosen.size);
    if (!outcome.ok) {
      setStatus({ kind: 'error', text: importProblemText(t, chosen.name, outcome.problem) });
      return;
    }
    setStatus({ kind: 'none' });
    const ids = exercises.exercises.map((exercise) => exercise.meta.id);
    setPending({ fileName: chosen.name, file: outcome.file, plan: planImport(exercises.exportProgress(), outcome.file.progress, ids) });
  };

  const choose = (mode: ImportMode) => {
    if (!pending) return;
    exercises.importProgress(pending.file.progress, mode, pending.plan.exercises.length);
    setPending(null);
  };

  return (
    <section
      className={`progress-transfer${dragging ? ' is-dragging' : ''}`}
      aria-labelledby={headingId}
      data-testid="progress-transfer"
      // Dropping a file here is a shortcut for the Import button (which stays the keyboard's way).
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files')) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <h3 id={headingId} className="progress-transfer__heading">
        {t('panel.heading')}
      </h3>
      <p className="hint">{t('panel.intro')}</p>
      <div className="progress-transfer__buttons">
        <button type="button" onClick={exportProgress} title={t('panel.exportTitle')} data-testid="export-progress">
          {t('panel.export')}
        </button>
        {/* The button is what the keyboard reaches; the file input itself stays out of the tab order. */}
        <button type="button" onClick={() => input.current?.click()} title={t('panel.importTitle')} data-testid="import-progress">
          {t('panel.import')}
        </button>
        <input ref={input} type="file" accept="application/json,.json" hidden tabIndex={-1} onChange={onPicked} data-testid="import-file" />
      </div>
      <div aria-live="polite" className="progress-transfer__status">
        {status.kind === 'info' && <p className="hint" data-testid="transfer-status">{status.text}</p>}
      </div>
      {status.kind === 'error' && (
        <div className="notice is-warning progress-notice" role="alert" data-testid="import-error">
          <span>{status.text}</span>
          <button type="button" onClick={() => setStatus({ kind: 'none' })}>
            {t('problems.dismiss')}
          </button>
        </div>
      )}
      {lastImport && (
        <div className="notice progress-notice" role="status" data-testid="import-done">
          <span>{t(lastImport.mode === 'replace' ? 'done.replace' : 'done.merge', { count: lastImport.changed })}</span>
          <span className="progress-transfer__buttons">
            <button
              type="button"
              onClick={() => {
                exercises.undoImport();
                setStatus({ kind: 'info', text: t('done.undone') });
              }}
            >
              {t('done.undo')}
            </button>
            <button type="button" onClick={() => exercises.dismissImportNotice()}>
              {t('done.dismiss')}
            </button>
          </span>
        </div>
      )}
      {pending && (
        <ImportDialog
          fileName={pending.fileName}
          exportedAt={pending.file.exportedAt}
          appVersion={pending.file.appVersion}
          plan={pending.plan}
          locale={locale}
          titleOf={(id) => {
            const exercise = exercises.find(id);
            return exercise ? localized(exercise.meta.title, locale) : undefined;
          }}
          onChoose={choose}
          onCancel={() => setPending(null)}
        />
      )}
    </section>
  );
}
