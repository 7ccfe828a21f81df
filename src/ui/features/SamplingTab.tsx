// Sampling: run the tool that makes the server ask the client's model; the request stops at the
// approval gate (the chapter loop's: a modal naming what is asked, focus on Deny, Escape denies).
// Approve sends the scripted model's answer as the response; Deny sends error -1.

import { useId, useState } from 'react';
import type { FeaturesState, FeaturesStore } from '../../app/features/features-store.ts';
import { useModalDialog } from '../hooks/use-modal-dialog.ts';
import type { TabProps } from './FeaturesPanel.tsx';
import { useFeaturesText } from './use-features-text.ts';

export function SamplingTab({ store, state, disabled }: TabProps) {
  const t = useFeaturesText();
  const id = useId();
  const [question, setQuestion] = useState(() => t('sampling.defaultQuestion'));
  const { pending, decisions, result } = state.sampling;
  return (
    <div className="features-tab">
      <p className="hint">{t('sampling.intro')}</p>
      <div className="field">
        <label htmlFor={id}>{t('sampling.question')}</label>
        <input id={id} value={question} onChange={(event) => setQuestion(event.target.value)} data-testid="sampling-question" />
      </div>
      <div className="button-row">
        <button type="button" disabled={disabled} onClick={() => void store.askModel(question)} data-testid="sampling-ask">
          {t('sampling.ask')}
        </button>
      </div>
      {pending !== null && <p role="status">{t('sampling.waiting')}</p>}
      {decisions.length > 0 && (
        <>
          <p className="features-exchanges__label">{t('sampling.history')}</p>
          <ol className="features-list" data-testid="sampling-decisions">
            {decisions.map((row, index) => (
              <li key={index} data-decision={row.decision}>
                {t(row.decision === 'approved' ? 'sampling.approved' : 'sampling.denied')}
              </li>
            ))}
          </ol>
        </>
      )}
      {result !== null && (
        <p className={result.isError ? 'is-error' : undefined} data-testid="sampling-result" data-error={result.isError ? 'yes' : 'no'}>
          {t(result.isError ? 'sampling.resultError' : 'sampling.result', { text: result.text })}
        </p>
      )}
    </div>
  );
}

export function SamplingDialog({ store, pending }: { store: FeaturesStore; pending: FeaturesState['sampling']['pending'] }) {
  const t = useFeaturesText();
  const { dialogProps, initialFocusRef, titleId, bodyId } = useModalDialog(pending !== null, () => store.denySampling());
  return (
    <dialog {...dialogProps} className="dialog features-approval" data-testid="sampling-dialog">
      {pending && (
        <>
          <h2 id={titleId}>{t('sampling.dialog.title')}</h2>
          <p id={bodyId}>{t('sampling.dialog.body')}</p>
          <p className="features-exchanges__label">{t('sampling.dialog.question')}</p>
          <pre className="mono features-pre" data-testid="sampling-ask-text">
            {pending.ask.question}
          </pre>
          {pending.ask.systemPrompt !== null && <p className="hint">{t('sampling.dialog.system', { text: pending.ask.systemPrompt })}</p>}
          {pending.ask.maxTokens !== null && <p className="hint">{t('sampling.dialog.maxTokens', { count: pending.ask.maxTokens })}</p>}
          <p className="features-exchanges__label">{t('sampling.dialog.answer')}</p>
          <pre className="mono features-pre" data-testid="sampling-answer">
            {pending.answer.content.text}
          </pre>
          <p className="hint">{t('sampling.dialog.hint')}</p>
          <div className="dialog__buttons">
            <button type="button" ref={initialFocusRef} onClick={() => store.denySampling()} data-testid="sampling-deny">
              {t('sampling.dialog.deny')}
            </button>
            <button type="button" className="primary" onClick={() => store.approveSampling()} data-testid="sampling-approve">
              {t('sampling.dialog.approve')}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
