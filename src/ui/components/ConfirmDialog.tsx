import { useTranslation } from 'react-i18next';
import { useModalDialog } from '../hooks/use-modal-dialog.ts';

export interface ConfirmDialogProps {
  open: boolean;
  title: string;
  body: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
}

/**
 * A real modal dialog (`<dialog>` opened with showModal): the rest of the page is inert, Escape
 * cancels, focus starts on Cancel (the safe choice) and goes back where it was when it closes.
 */
export function ConfirmDialog({ open, title, body, confirmLabel, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation('common');
  const { dialogProps, initialFocusRef, titleId, bodyId } = useModalDialog(open, onCancel);

  return (
    <dialog
      {...dialogProps}
      className="dialog"
    >
      <h2 id={titleId}>{title}</h2>
      <p id={bodyId}>{body}</p>
      <div className="dialog__buttons">
        <button type="button" ref={initialFocusRef} onClick={onCancel}>
          {t('dialog.cancel')}
        </button>
        <button type="button" className="primary is-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
