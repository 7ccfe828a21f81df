// The approval gate: a modal dialog (the page behind is inert, so focus stays inside) naming the
// tool, where it comes from and its arguments. Focus starts on Deny, the safe choice; Escape denies.

import { useEffect, useId, useRef } from 'react';
import type { ApprovalRequest } from './agent-loop.ts';
import { argsText, originText } from './describe.ts';
import { useAgentText } from './text.ts';

export function ApprovalDialog({ request, onApprove, onDeny }: { request: ApprovalRequest | null; onApprove(): void; onDeny(): void }) {
  const t = useAgentText();
  const dialog = useRef<HTMLDialogElement>(null);
  const denyButton = useRef<HTMLButtonElement>(null);
  const returnFocus = useRef<HTMLElement | null>(null);
  const titleId = useId();
  const bodyId = useId();

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (request && !element.open) {
      returnFocus.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      element.showModal();
      denyButton.current?.focus();
    } else if (!request && element.open) {
      element.close();
      if (returnFocus.current?.isConnected) returnFocus.current.focus();
      returnFocus.current = null;
    }
  }, [request]);

  return (
    <dialog
      ref={dialog}
      className="dialog agent-approval"
      aria-labelledby={titleId}
      aria-describedby={bodyId}
      data-testid="approval-dialog"
      onCancel={(event) => {
        event.preventDefault();
        onDeny();
      }}
    >
      {request && (
        <>
          <h2 id={titleId}>{t('approval.title')}</h2>
          <p id={bodyId}>{t('approval.body', { name: request.name, origin: originText(t, request.origin) })}</p>
          <p className="agent-approval__label">{t('approval.args')}</p>
          <pre className="mono agent-args" data-testid="approval-args">
            {argsText(request.args)}
          </pre>
          <p className="hint">{t('approval.hint')}</p>
          <div className="dialog__buttons">
            <button type="button" ref={denyButton} onClick={onDeny}>
              {t('approval.deny')}
            </button>
            <button type="button" className="primary is-danger" onClick={onApprove}>
              {t('approval.approve')}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
