// The protocol view's era section: what the running server speaks and the two era failure cards.
// Which era the stepper's client speaks is the scene's (app/protocol/scenes.ts), chosen above; a
// card loads its own run into the same stepper (app/protocol/era-cards.ts), so the diagram, the
// byte inspector and the transcript work as they do for a scene.

import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { ERA_CARD_IDS, eraCardConfig, FUTURE_VERSION, readEraCard, type EraCardId, type EraCardVerdict } from '../../app/protocol/era-cards.ts';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { useEraText } from './use-era-text.ts';
import './era-panel.css';

export default function EraPanel({ onUse }: { onUse?: () => void }) {
  const t = useEraText();
  const { t: tLive } = useTranslation('live');
  const { stepper } = useProtocolServices();
  const state = useStore(stepper);
  const headingId = useId();
  const busy = state.status.status === 'stepping';

  return (
    <section className="era-panel" aria-labelledby={headingId} data-testid="era-panel">
      <h3 id={headingId}>{t('panel.heading')}</h3>
      <p className="hint">{t('panel.intro')}</p>
      {state.server && (
        <p className="hint" data-testid="era-server">
          {t('panel.running', { server: t(`server.${state.server.era ?? 'dual'}`), framing: state.server.framing === 'ndjson' ? 'NDJSON' : 'Content-Length', host: tLive(`hosts.${state.server.host}`) })}
        </p>
      )}
      <EraCards busy={busy} onUse={onUse} />
    </section>
  );
}

function EraCards({ busy, onUse }: { busy: boolean; onUse: (() => void) | undefined }) {
  const t = useEraText();
  const { stepper, ui } = useProtocolServices();
  const [running, setRunning] = useState<EraCardId | null>(null);
  const [verdicts, setVerdicts] = useState<Partial<Record<EraCardId, EraCardVerdict>>>({});

  const run = async (id: EraCardId) => {
    if (busy || running !== null) return;
    setRunning(id);
    onUse?.();
    try {
      stepper.load(eraCardConfig(id));
      await stepper.runToEnd();
      const verdict = readEraCard(id, stepper.getSnapshot().records);
      setVerdicts((current) => ({ ...current, [id]: verdict }));
    } finally {
      setRunning(null);
    }
  };

  const show = (verdict: EraCardVerdict) => {
    if (verdict.kind === 'not-shown') return;
    ui.focusOn(verdict.focus, 'arrow');
    const target = stepper.inspect(verdict.focus);
    if (target) ui.openInspector(target);
  };

  return (
    <div className="era-cards" data-testid="era-cards">
      <h4>{t('cards.heading')}</h4>
      <p className="hint">{t('cards.intro')}</p>
      <div className="failure-lab__cards">
        {ERA_CARD_IDS.map((id) => {
          const verdict = verdicts[id];
          const titleId = `era-card-${id}`;
          return (
            <article key={id} className={`failure-card${running === id ? ' is-running' : ''}`} aria-labelledby={titleId} data-testid={`era-card-${id}`}>
              <h4 id={titleId}>{t(`cards.${id}.title`)}</h4>
              <p>{t(`cards.${id}.explain`, { future: FUTURE_VERSION })}</p>
              <div className="button-row">
                <button type="button" className="primary" disabled={busy || running !== null} onClick={() => void run(id)}>
                  {running === id ? t('cards.running') : t('cards.run')}
                </button>
              </div>
              {verdict && running !== id && (
                <div className={`verdict verdict--${verdict.kind === 'not-shown' ? 'breaks' : 'fails-loudly'}`} role="status" data-testid="era-verdict" data-kind={verdict.kind}>
                  <p>{verdictText(t, verdict)}</p>
                  {verdict.kind !== 'not-shown' && (
                    <button type="button" onClick={() => show(verdict)}>
                      {t('cards.show')}
                    </button>
                  )}
                </div>
              )}
            </article>
          );
        })}
      </div>
    </div>
  );
}

function verdictText(t: ReturnType<typeof useEraText>, verdict: EraCardVerdict): string {
  switch (verdict.kind) {
    case 'dead-end':
      return t('verdict.dead-end', { requested: verdict.requested, supported: verdict.supported.join(', ') });
    case 'retried':
      return t('verdict.retried', { requested: verdict.requested, supported: verdict.supported.join(', '), retriedWith: verdict.retriedWith });
    case 'not-shown':
      return t('verdict.not-shown');
  }
}
