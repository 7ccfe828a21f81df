// The stdio stepper (its title and first words follow the era its client speaks): who drives, the controls (buttons and keys), the diagram beside the
// client's state machine and pending table, a text version of the diagram, and a live region that
// announces each step.

import { useEffect, useId, useMemo, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { arrowDetail, arrowLabel, noteText, stepLabel } from '../../app/protocol/arrow-text.ts';
import type { DriverKind } from '../../sandbox/client-driver.ts';
import { PendingTable } from './PendingTable.tsx';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { RegistryView } from './RegistryView.tsx';
import { SequenceDiagram } from './SequenceDiagram.tsx';
import { StateMachineView } from './StateMachineView.tsx';
import { stepHash } from '../../app/protocol/step-link.ts';
import type { StepRecord } from '../../app/protocol/stepper-records.ts';
import { HANDSHAKE_CONFIG, type StepperState } from '../../app/protocol/stepper-store.ts';
import type { ProtocolText } from '../../app/protocol/text.ts';
import { useProtocolText } from './use-protocol-text.ts';
import { UnfinishedExerciseNote } from '../exercise/UnfinishedExerciseNote.tsx';
import { LEARNER_EXERCISES } from '../../app/services/protocol-services.ts';

export interface StepperPanelProps {
  /** Show this many steps once mounted (a deep link). */
  initialStep?: number | null;
  onCursorChange?: (cursor: number) => void;
}

export function StepperPanel({ initialStep = null, onCursorChange }: StepperPanelProps) {
  const t = useProtocolText();
  const { t: tMain } = useTranslation('live');
  const { stepper, ui } = useProtocolServices();
  const state = useStore(stepper);
  const { focus } = useStore(ui);
  const headingId = useId();
  const keysId = useId();
  const { status, records, cursor, config } = state;
  const shown = useMemo(() => records.slice(0, cursor), [records, cursor]);
  const current = shown[shown.length - 1];
  const busy = status.status === 'stepping';
  const waiting = useMemo(() => (status.status === 'stepping' && cursor === records.length ? { step: status.index, waitingFor: status.waitingFor } : null), [status, cursor, records.length]);
  const total = config.plan.length;
  const next = config.plan[cursor];
  const atEnd = cursor >= total;

  const linked = useRef(false);
  useEffect(() => {
    if (linked.current || initialStep === null || initialStep <= 0) return;
    linked.current = true;
    void stepper.goTo(initialStep);
  }, [initialStep, stepper]);
  useEffect(() => onCursorChange?.(cursor), [cursor, onCursorChange]);

  const onKeyDown = (event: KeyboardEvent) => {
    const target = event.target as Element;
    if (target.closest('input, select, textarea, dialog')) return;
    const onControl = target.closest('button, a, [role="button"], summary') !== null;
    if (event.key === 'ArrowRight' || (event.key === ' ' && !onControl)) {
      event.preventDefault();
      void stepper.step();
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      stepper.back();
    } else if (event.key === 'End' && !onControl) {
      event.preventDefault();
      void stepper.runToEnd();
    } else if (event.key === 'Home' && !onControl) {
      event.preventDefault();
      stepper.restart();
    }
  };

  const inspect = (seq: number) => {
    const target = stepper.inspect(seq);
    if (target) ui.openInspector(target);
  };

  // An era run's "your client" is exercise 7's (its ModernSession inside the dual-era client).
  const era = config.eraClient !== undefined;
  const eraMode = config.eraClient?.mode ?? 'handshake';
  // The 2026-07-28 client has no handshake states: new → ready (server/discover) → closed.
  const machine = eraMode === 'modern' || shown.some((record) => record.transition?.from === 'new' && record.transition.to === 'ready') ? 'modern' : 'handshake';
  const stepBlocked = atEnd || (status.status === 'failed' && cursor >= records.length);
  return (
    <section className="stepper" aria-labelledby={headingId} onKeyDown={onKeyDown} data-testid="stepper">
      <div className="panel-section__header">
        <h3 id={headingId}>{t(`stepper.headings.${eraMode}`)}</h3>
      </div>

      <div className="stepper__toolbar">
        <fieldset className="inline-radios stepper__driver" disabled={busy}>
          <legend>{t('stepper.driver')}</legend>
          {(['reference', 'learner'] as const).map((kind: DriverKind) => (
            <label key={kind}>
              <input type="radio" name="stepper-driver" checked={config.client === kind && config.scenario === null} onChange={() => stepper.setClient(kind)} />
              {t(kind === 'reference' ? 'stepper.driverReference' : era ? 'stepper.driverLearnerEra' : 'stepper.driverLearner')}
            </label>
          ))}
        </fieldset>
        {/* While a step runs the buttons are only aria-disabled: a truly disabled button drops the
            keyboard focus to <body>, and the next Enter would go nowhere. */}
        <div role="toolbar" aria-label={t('stepper.controls')} className="button-row stepper__controls">
          <button type="button" title={t('stepper.restartTitle')} onClick={() => stepper.restart()}>
            ↺ {t('stepper.restart')}
          </button>
          <button type="button" title={t('stepper.backTitle')} aria-disabled={busy || undefined} disabled={cursor === 0} onClick={() => !busy && stepper.back()}>
            ◀ {t('stepper.back')}
          </button>
          <button type="button" className="primary" title={t('stepper.stepTitle')} aria-disabled={busy || undefined} disabled={stepBlocked} onClick={() => !busy && void stepper.step()}>
            {t('stepper.step')} ▶
          </button>
          <button type="button" title={t('stepper.runToEndTitle')} aria-disabled={busy || undefined} disabled={stepBlocked} onClick={() => !busy && void stepper.runToEnd()}>
            {t('stepper.runToEnd')} ▶▶
          </button>
        </div>
        <span className="stepper__progress">
          <span data-testid="stepper-progress">{t('stepper.progress', { shown: cursor, total })}</span>
          {' · '}
          <a href={stepHash(cursor)}>{t('stepper.link')}</a>
        </span>
      </div>

      <p className={`stepper__driving ${config.client === 'learner' ? 'is-learner' : ''}`} data-testid="stepper-driver">
        {config.client === 'learner' ? t(era ? 'stepper.drivingLearnerEra' : 'stepper.drivingLearner') : t('stepper.drivingReference')}
        {config.client === 'learner' && <span className="hint"> — {t(era ? 'stepper.driverLearnerEraNote' : 'stepper.driverLearnerNote')}</span>}
      </p>
      {/* Before the learner's own client runs: whether its exercise passes yet, with a link to it. */}
      {config.client === 'learner' && config.scenario === null && <UnfinishedExerciseNote exerciseId={era ? LEARNER_EXERCISES.era : LEARNER_EXERCISES.client} />}
      {config.scenario !== null && (
        <p className="notice stepper__scenario">
          {t('stepper.scenario', { name: scenarioName(t, config.scenario) })}{' '}
          <button type="button" disabled={busy} onClick={() => stepper.load({ ...HANDSHAKE_CONFIG, client: config.client === 'learner' ? 'learner' : 'reference', register: 'reference' })}>
            {t('stepper.backToHandshake')}
          </button>
        </p>
      )}
      <p role="status" className={`stepper__status${status.status === 'failed' ? ' is-error' : ''}`} data-testid="stepper-status" data-status={status.status}>
        {statusText(t, state)}
        {next && !busy && status.status !== 'failed' && <span className="hint"> {t('stepper.next', { step: stepLabel(t, next) })}</span>}
      </p>
      {state.server && (
        <p className="hint">
          {t('stepper.server', { framing: state.server.framing === 'ndjson' ? 'NDJSON' : 'Content-Length', faults: state.server.faults.length > 0 ? state.server.faults.join(', ') : t('stepper.noFaults'), host: tMain(`hosts.${state.server.host}`) })}
        </p>
      )}
      {state.heldBytes > 0 && cursor === records.length && (
        <p className="stepper__held" data-testid="held-bytes">
          {t('stepper.held', { count: state.heldBytes })}
        </p>
      )}

      <div className="stepper__body">
        <div className="stepper__diagram" tabIndex={0} aria-describedby={keysId}>
          <SequenceDiagram records={shown} waiting={waiting} currentStep={current ? current.index : null} focus={focus} onInspect={inspect} />
        </div>
        <aside className="stepper__side">
          <StateMachineView state={current?.clientState ?? null} transition={current?.transition ?? null} machine={machine} />
          <PendingTable rows={current?.pending ?? []} />
          {current?.registry && <RegistryView outcome={current.registry} />}
        </aside>
      </div>
      {/* Under the diagram, so its first arrows stay on the first screen. */}
      <p className="hint">{t('stepper.intro')}</p>
      <p id={keysId} className="hint">
        {t('stepper.keys')}
      </p>
      <StepTranscript records={shown} total={total} onInspect={inspect} />
      <StepAnnouncer record={current} cursor={cursor} total={total} />
    </section>
  );
}

function statusText(t: ProtocolText, state: StepperState): string {
  const { status } = state;
  switch (status.status) {
    case 'idle': {
      const mode = state.config.eraClient?.mode;
      return t(mode === 'modern' ? 'stepper.status.idleModern' : mode === 'probe' ? 'stepper.status.idleProbe' : 'stepper.status.idle');
    }
    case 'stepping':
      return t(`stepper.waiting.${status.waitingFor}`);
    case 'ready':
      return t('stepper.status.ready');
    case 'done':
      return t('stepper.status.done');
    case 'failed':
      return t('stepper.status.failed', { reason: status.reason });
  }
}

export function scenarioName(t: ProtocolText, scenario: string): string {
  const [id] = scenario.split('/');
  return `${t(`lab.cards.${id as 'id-pairing'}.title`)} — ${t(`lab.variants.${scenario as 'id-pairing/out-of-order'}`)}`;
}

/** The diagram as text: every step, every arrow and note, each frame one button away from its bytes. */
function StepTranscript({ records, total, onInspect }: { records: readonly StepRecord[]; total: number; onInspect: (seq: number) => void }) {
  const t = useProtocolText();
  return (
    <details className="stepper__transcript" data-testid="transcript">
      <summary>{t('diagram.transcript')}</summary>
      {records.length === 0 ? (
        <p className="hint">{t('diagram.transcriptEmpty')}</p>
      ) : (
        <ol>
          {records.map((record) => (
            <li key={record.index}>
              <strong>
                {t('diagram.announce', { n: record.index + 1, total, text: stepLabel(t, record.step) })}
              </strong>
              <ul>
                {[...record.arrows.map((arrow) => ({ seq: arrow.seq, arrow })), ...record.notes.map((note) => ({ seq: note.seq, note }))]
                  .sort((a, b) => a.seq - b.seq)
                  .map((item) =>
                    'arrow' in item ? (
                      <li key={item.seq}>
                        {t(`diagram.directions.${item.arrow.direction}`)}: {arrowLabel(t, item.arrow)} {arrowDetail(t, item.arrow) && <span className="hint">({arrowDetail(t, item.arrow)})</span>}{' '}
                        {item.arrow.frame && (
                          <button type="button" className="link-button" onClick={() => onInspect(item.seq)}>
                            {t('diagram.inspect', { what: arrowLabel(t, item.arrow) })}
                          </button>
                        )}
                      </li>
                    ) : (
                      <li key={item.seq} className={`transcript-note transcript-note--${item.note.severity}`}>
                        {t(`diagram.who.${item.note.who}`)} — {noteText(t, item.note)}
                      </li>
                    ),
                  )}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </details>
  );
}

/** Says what the shown step did, each time it changes (stepping, stepping back, bytes arriving). */
function StepAnnouncer({ record, cursor, total }: { record: StepRecord | undefined; cursor: number; total: number }) {
  const t = useProtocolText();
  const text = record
    ? t('diagram.announce', {
        n: cursor,
        total,
        text: [stepLabel(t, record.step), ...record.arrows.map((arrow) => `${t(`diagram.directions.${arrow.direction}`)} ${arrowLabel(t, arrow)}`), ...record.notes.filter((note) => note.severity !== 'info').map((note) => noteText(t, note))].join('; '),
      })
    : '';
  return (
    <p className="visually-hidden" aria-live="polite" data-testid="stepper-announcer">
      {text}
    </p>
  );
}
