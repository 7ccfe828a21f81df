// The approval gate: a modal dialog (the page behind is inert, so focus stays inside) naming the
// tool, where it comes from and its arguments. Focus starts on Deny, the safe choice; Escape denies.

import { useModalDialog } from '../hooks/use-modal-dialog.ts';
import type { ApprovalRequest } from '../../app/chapter-loop/agent-loop.ts';
import { argsText, originText } from '../../app/chapter-loop/describe.ts';
import { useAgentText } from './use-chapter-loop-text.ts';

export function ApprovalDialog({ request, onApprove, onDeny }: { request: ApprovalRequest | null; onApprove(): void; onDeny(): void }) {
  const t = useAgentText();
  const { dialogProps, initialFocusRef, titleId, bodyId } = useModalDialog(request !== null, onDeny);

  return (
    <dialog
      {...dialogProps}
      className="dialog agent-approval"
      data-testid="approval-dialog"
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
            <button type="button" ref={initialFocusRef} onClick={onDeny}>
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
