import type { ImportMode, ImportPlan } from '../../exercise/progress-transfer-plan.ts';
import { useModalDialog } from '../hooks/use-modal-dialog.ts';
import { useTransferText } from './use-transfer-text.ts';

export interface ImportDialogProps {
  fileName: string;
  exportedAt: string;
  appVersion: string;
  plan: ImportPlan;
  /** The exercise's title in the page's language, for a known id. */
  titleOf(id: string): string | undefined;
  locale: string;
  onChoose(mode: ImportMode): void;
  onCancel(): void;
}

/**
 * What importing a file would change, per exercise, and the choice: replace all, merge, or cancel.
 * A modal <dialog> like ConfirmDialog: Escape cancels, focus starts on Cancel (the safe choice) and
 * returns where it was. Shown only while there is a file to decide about.
 */
export function ImportDialog({ fileName, exportedAt, appVersion, plan, titleOf, locale, onChoose, onCancel }: ImportDialogProps) {
  const t = useTransferText();
  // Mounted only while there is a file to decide about: open for its whole life.
  const { dialogProps, initialFocusRef, titleId, bodyId } = useModalDialog(true, onCancel);

  const date = new Date(exportedAt).toLocaleString(locale, { dateStyle: 'medium', timeStyle: 'short' });
  const nothing = plan.exercises.length === 0;

  return (
    <dialog
      {...dialogProps}
      className="dialog transfer-dialog"
      data-testid="import-dialog"
    >
      <h2 id={titleId}>{t('dialog.title', { file: fileName })}</h2>
      <div id={bodyId}>
        <p className="hint">{t('dialog.meta', { date, version: appVersion })}</p>
        {nothing ? (
          <p>{t('dialog.nothingToChange')}</p>
        ) : (
          <>
            <h3 className="transfer-dialog__subheading">{t('dialog.changesHeading')}</h3>
            <ul className="transfer-dialog__changes" data-testid="import-changes">
              {plan.exercises.map((exercise) => (
                <li key={exercise.id} data-exercise={exercise.id}>
                  <strong>{exercise.known ? (titleOf(exercise.id) ?? exercise.id) : t('dialog.unknown', { id: exercise.id })}</strong>
                  <ul>
                    {exercise.changes.map((change) => (
                      <li key={change} className={change === 'code-differs' || change === 'code-removed' ? 'is-error' : undefined}>
                        {t(`dialog.changes.${change}`)}
                      </li>
                    ))}
                  </ul>
                </li>
              ))}
            </ul>
            {plan.unchanged > 0 && <p className="hint">{t('dialog.unchanged', { count: plan.unchanged })}</p>}
            <p>
              {t('dialog.replaceExplain')} {plan.replaceLosesCode && <strong>{t('dialog.replaceLoses')}</strong>}
            </p>
            {!plan.modesAgree && <p>{t('dialog.mergeExplain')}</p>}
            <p className="hint">{t('dialog.undoNote')}</p>
          </>
        )}
      </div>
      <div className="dialog__buttons">
        <button type="button" ref={initialFocusRef} onClick={onCancel}>
          {t('dialog.cancel')}
        </button>
        {!nothing && !plan.modesAgree && (
          <button type="button" onClick={() => onChoose('merge')}>
            {t('dialog.merge')}
          </button>
        )}
        {!nothing && (
          <button type="button" className={plan.replaceLosesCode ? 'primary is-danger' : 'primary'} onClick={() => onChoose('replace')}>
            {t('dialog.replace')}
          </button>
        )}
      </div>
    </dialog>
  );
}
