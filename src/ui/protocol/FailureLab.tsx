// The failure-mode lab: one card per failure mode of the chapter. A card explains the failure,
// says what it switches on, runs its scenario through the live host with the reference code or
// the learner's, and shows the verdict with a way to the place the symptom shows.

import { useStore } from '../hooks/use-store.ts';
import { FAILURE_SCENARIOS, type FailureScenario } from '../../app/failure-lab/failure-scenarios.ts';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { useProtocolText } from './use-protocol-text.ts';

export function FailureLab({ onShow }: { onShow?: () => void }) {
  const t = useProtocolText();
  return (
    <section className="failure-lab" aria-labelledby="failure-lab-heading" data-testid="failure-lab">
      <h3 id="failure-lab-heading">{t('lab.heading')}</h3>
      <p className="hint">{t('lab.intro')}</p>
      <div className="failure-lab__cards">
        {FAILURE_SCENARIOS.map((scenario) => (
          <FailureCard key={scenario.id} scenario={scenario} onShow={onShow} />
        ))}
      </div>
    </section>
  );
}

function FailureCard({ scenario, onShow }: { scenario: FailureScenario; onShow: (() => void) | undefined }) {
  const t = useProtocolText();
  const { lab, stepper, ui } = useProtocolServices();
  const state = useStore(lab);
  const variantId = state.variants[scenario.id] ?? scenario.variants[0]!.id;
  const variant = scenario.variants.find((candidate) => candidate.id === variantId) ?? scenario.variants[0]!;
  const result = state.results[scenario.id];
  const running = state.running?.id === scenario.id;
  const headingId = `failure-card-${scenario.id}`;

  const show = () => {
    const focus = result?.verdict.focus;
    onShow?.();
    if (!focus) return;
    ui.focusOn(focus.seq, focus.kind);
    if (scenario.place === 'bytes' && focus.kind === 'arrow') {
      const target = stepper.inspect(focus.seq);
      if (target) ui.openInspector(target);
    }
  };

  return (
    <article className={`failure-card${running ? ' is-running' : ''}`} aria-labelledby={headingId} data-testid={`failure-card-${scenario.id}`}>
      <h4 id={headingId}>{t(`lab.cards.${scenario.id}.title`)}</h4>
      <p>{t(`lab.cards.${scenario.id}.explain`)}</p>
      {scenario.variants.length > 1 ? (
        <label className="field">
          <span>{t('lab.variant')}</span>
          <select value={variant.id} disabled={state.running !== null} onChange={(event) => lab.selectVariant(scenario.id, event.target.value)}>
            {scenario.variants.map((candidate) => (
              <option key={candidate.id} value={candidate.id}>
                {t(`lab.variants.${`${scenario.id}/${candidate.id}` as 'id-pairing/out-of-order'}`)}
              </option>
            ))}
          </select>
        </label>
      ) : (
        <p className="hint">{t('lab.switches', { what: t(`lab.variants.${`${scenario.id}/${variant.id}` as 'id-pairing/out-of-order'}`) })}</p>
      )}
      <p className="hint mono">
        {variant.settings.framing === 'ndjson' ? 'NDJSON' : 'Content-Length'} · {variant.settings.faults.length > 0 ? variant.settings.faults.join(', ') : t('stepper.noFaults')}
      </p>
      <div className="button-row">
        <button type="button" className="primary" disabled={state.running !== null} onClick={() => void lab.run(scenario.id, 'reference')}>
          {t('lab.runReference')}
        </button>
        <button type="button" disabled={state.running !== null} onClick={() => void lab.run(scenario.id, 'learner')}>
          {t('lab.runLearner', { part: t(`lab.parts.${scenario.learnerPart}`) })}
        </button>
      </div>
      {running && <p className="hint" role="status">{t('lab.running')}</p>}
      {result && !running && (
        <div className={`verdict verdict--${result.verdict.outcome}`} data-testid="verdict" data-outcome={result.verdict.outcome} data-symptom={result.verdict.symptom} role="status">
          <p>
            {t('lab.ranWith', { who: t(result.who === 'learner' ? 'lab.whoLearner' : 'lab.whoReference') })} <strong className="verdict__outcome">{outcomeMark(result.verdict.outcome)} {t(`lab.outcome.${result.verdict.outcome}`)}</strong>
            {result.variantId !== variant.id && <span className="hint"> ({t(`lab.variants.${`${scenario.id}/${result.variantId}` as 'id-pairing/out-of-order'}`)})</span>}
          </p>
          <p className="verdict__symptom">{t(`lab.symptoms.${result.verdict.symptom}`, result.verdict.values)}</p>
          <p className="hint">
            {t('lab.symptomWhere', { place: t(`lab.place.${scenario.place}`) })}{' '}
            {result.verdict.focus && (
              <button type="button" onClick={show}>
                {t('lab.show')}
              </button>
            )}
          </p>
        </div>
      )}
    </article>
  );
}

function outcomeMark(outcome: 'copes' | 'fails-loudly' | 'breaks'): string {
  return outcome === 'copes' ? '✓' : outcome === 'fails-loudly' ? '⚠' : '✗';
}
