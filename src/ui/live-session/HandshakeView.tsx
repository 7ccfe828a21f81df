import { useTranslation } from 'react-i18next';
import type { ClientState } from '../../protocol/client.ts';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import type { HandshakeState } from '../../app/live-session/handshake.ts';

const LIFECYCLE: readonly ClientState[] = ['new', 'initialized', 'ready', 'closed'];

export function HandshakeView() {
  const { t } = useTranslation('live');
  const session = useLiveSession();
  const { handshake, host } = useStore(session);
  const running = handshake.step !== 'idle' && handshake.step !== 'done' && handshake.step !== 'failed';

  return (
    <section className="panel-section handshake" aria-labelledby="handshake-heading">
      <div className="panel-section__header">
        <h3 id="handshake-heading">{t('handshake.heading')}</h3>
        <button type="button" className="primary" disabled={running || host.selection.status !== 'chosen'} onClick={() => void session.runHandshake()}>
          {t('handshake.run')}
        </button>
      </div>
      <p className="hint">{t('handshake.explain')}</p>
      <div className="client-state">
        <span id="client-state-label">{t('handshake.clientState')}</span>
        <ol className="lifecycle" aria-labelledby="client-state-label" data-testid="client-state">
          {LIFECYCLE.map((state) => (
            <li key={state} className="lifecycle__step" aria-current={handshake.clientState === state ? 'step' : undefined}>
              <span className={`lifecycle__state${handshake.clientState === state ? ' is-current' : ''}`}>{t(`handshake.states.${state}`)}</span>
            </li>
          ))}
        </ol>
        {handshake.clientState === null && <span className="hint">{t('handshake.stateNone')}</span>}
      </div>
      <p className={`handshake__step${handshake.step === 'failed' ? ' is-error' : ''}`} data-testid="handshake-step">
        <StepText handshake={handshake} />
      </p>
      {handshake.server && <p>{t('handshake.server', handshake.server)}</p>}
      {handshake.tools && <p>{t('handshake.tools', { names: handshake.tools.join(', ') })}</p>}
      {handshake.result && (
        <div className="handshake__result" data-testid="handshake-result">
          <p>{handshake.result.isError ? t('handshake.resultError') : t('handshake.result')}</p>
          <pre className="mono">
            {handshake.result.content.map((block) => ('text' in block && typeof block.text === 'string' ? block.text : JSON.stringify(block))).join('\n')}
          </pre>
        </div>
      )}
    </section>
  );
}

function StepText({ handshake }: { handshake: HandshakeState }) {
  const { t } = useTranslation('live');
  if (handshake.step === 'failed') return t('handshake.steps.failed', { reason: handshake.error ?? '?' });
  return t(`handshake.steps.${handshake.step}`);
}
