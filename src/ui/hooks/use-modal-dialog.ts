import { useEffect, useId, useRef, type SyntheticEvent } from 'react';

/**
 * The behaviour every confirmation in the app shares, so ConfirmDialog, ApprovalDialog and
 * ImportDialog cannot drift apart: a real modal (`<dialog>` opened with showModal, so the page
 * behind is inert and focus stays inside), focus starting on the safe choice (the button given
 * `initialFocusRef`) and going back where it was when the dialog closes or unmounts.
 *
 * Spread `dialogProps` on the `<dialog>`: it labels the dialog by the elements given `titleId` and
 * `bodyId`, and turns Escape into `onCancel` (the safe button's handler) instead of closing the
 * dialog itself, so `open` in React state stays the truth.
 */
export function useModalDialog(open: boolean, onCancel: () => void) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const initialFocusRef = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialogRef.current;
    if (!open || !element) return;
    const returnFocus = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (!element.open) element.showModal();
    initialFocusRef.current?.focus();
    return () => {
      element.close();
      if (returnFocus?.isConnected) returnFocus.focus();
    };
  }, [open]);

  const dialogProps = {
    ref: dialogRef,
    'aria-labelledby': titleId,
    'aria-describedby': bodyId,
    onCancel(event: SyntheticEvent<HTMLDialogElement>) {
      event.preventDefault();
      onCancel();
    },
  };
  return { dialogProps, initialFocusRef, titleId, bodyId };
}
