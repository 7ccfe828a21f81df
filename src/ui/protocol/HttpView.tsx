// The HTTP stepper: one Streamable HTTP session against mcp-http on the live host, drawn as a
// sequence diagram — a request arrow and a response arrow per TCP connection, the SSE events under
// the response that carried them — with what the client holds beside it. Each connection opens in
// the HTTP byte inspector. Loaded only when the learner picks an HTTP scene. In the 2026-07-28
// scene (`era="modern"`) the session is three POSTs and nothing else: no session, no GET, no DELETE.

import { lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpSteps, HttpSessionStore, type HttpClientKind, type HttpEra, type HttpExchangeRecord, type HttpSessionState } from '../../app/protocol/http-session-store.ts';
import { httpLayout } from '../../protocol/http/http-layout.ts';
import { LEARNER_EXERCISES, whenHostChosen } from '../../app/services/protocol-services.ts';
import { UnfinishedExerciseNote } from '../exercise/UnfinishedExerciseNote.tsx';
import { useStore } from '../hooks/use-store.ts';
import { summaryText } from './HttpInspector.tsx';
import { concatBytes } from '../../protocol/inspect/concat-bytes.ts';
import { HttpInspectorDialog } from './HttpInspectorDialog.tsx';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { stepperKeyDown } from './stepper-keys.ts';
import { useProtocolText } from './use-protocol-text.ts';
import { useOpenOnSignal } from './use-open-on-signal.ts';
import type { ProtocolText } from '../../app/protocol/text.ts';
import { progressLine } from '../../app/protocol/progress-seen-text.ts';
import { httpFailureText } from '../../app/protocol/http-failure-text.ts';
import './http-view.css';
// Static: the page's first chunk has it anyway (share links, progress files use it).
import { downloadFile } from '../../app/progress-transfer/browser-file.ts';

// The HTTP failure cards load when the learner first opens them.
const HttpFailureCards = lazy(() => import('./HttpFailureCards.tsx'));

/** The presenter view (src/ui/presenter) drives the store with its keys and mirrors it, and the open connection, to follow views. */
export interface HttpViewProps {
  /** The scene's era; the handshake when absent (the presenter's HTTP stage). */
  era?: HttpEra;
  onStore?(store: HttpSessionStore): void;
  /** The connection open in the inspector, when the parent keeps it. */
  open?: number | null;
  onOpenChange?(conn: number | null): void;
  /** Who should drive, when a link asks (ProtocolView's scene links); the learner's choice otherwise. */
  driver?: { kind: HttpClientKind } | null;
  /** Changes when a "Break it" link asks for the failure cards: they open and come into view. */
  openCards?: number;
}

export default function HttpView({ era = 'handshake', onStore, open: openProp, onOpenChange, driver = null, openCards = 0 }: HttpViewProps = {}) {
  const t = useProtocolText();
  const { t: tLive } = useTranslation('live');
  const services = useProtocolServices();
  const { session } = services;
  // A Step pressed while the page is still choosing its host waits for the choice, as the stdio stepper does.
  // "Your code": the learner's exercise-6 module, read when a session starts (what the editor holds then).
  const [store] = useState(
    () => new HttpSessionStore({ startProgram: (spec) => whenHostChosen(session).then(() => session.startProgram(spec)), createLearnerDriver: () => services.learnerHttpDriver() }),
  );
  useEffect(() => () => store.restart(), [store]);
  useEffect(() => store.setEra(era), [store, era]);
  useEffect(() => {
    if (driver) store.setClient(driver.kind);
  }, [store, driver]);
  const state = useStore(store);
  const headingId = useId();
  const [localOpen, setLocalOpen] = useState<number | null>(null);
  const open = openProp === undefined ? localOpen : openProp;
  const setOpen = (conn: number | null) => (setLocalOpen(conn), onOpenChange?.(conn));
  useEffect(() => onStore?.(store), [store, onStore]);
  const { status, cursor } = state;
  const busy = status.status === 'stepping';
  const steps = httpSteps(state.era);
  const modern = state.era === 'modern';
  const atEnd = cursor >= steps.length || status.status === 'failed';
  const next = steps[cursor];
  const opened = state.exchanges.find((exchange) => exchange.conn === open) ?? null;
  // The stdio stepper's keys (stepper-keys.ts).
  const onKeyDown = stepperKeyDown({ busy, atEnd, step: () => void store.step(), runToEnd: () => void store.runToEnd(), restart: () => store.restart() });

  return (
    <section className="http-stepper" aria-labelledby={headingId} data-testid="http-stepper" onKeyDown={onKeyDown}>
      <h3 id={headingId}>{t(modern ? 'http.modern.heading' : 'http.heading')}</h3>
      <div className="stepper__toolbar">
        {/* Exercise 6's transport speaks the handshake era only: no driver choice in 2026-07-28. */}
        {!modern && <fieldset className="inline-radios stepper__driver" disabled={busy}>
          <legend>{t('http.driver.legend')}</legend>
          {(['reference', 'learner'] as const).map((kind) => (
            <label key={kind}>
              <input type="radio" name="http-stepper-driver" checked={state.client === kind} onChange={() => store.setClient(kind)} />
              {t(kind === 'reference' ? 'http.driver.reference' : 'http.driver.learner')}
            </label>
          ))}
        </fieldset>}
        <div role="toolbar" aria-label={t('http.controls')} className="button-row stepper__controls">
          <button type="button" onClick={() => store.restart()}>
            ↺ {t('http.restart')}
          </button>
          <button type="button" className="primary" aria-disabled={busy || undefined} disabled={atEnd} onClick={() => !busy && void store.step()}>
            {t('http.step')} ▶
          </button>
          <button type="button" aria-disabled={busy || undefined} disabled={atEnd} onClick={() => !busy && void store.runToEnd()}>
            {t('http.runToEnd')} ▶▶
          </button>
        </div>
        <button type="button" onClick={() => void saveHttpTrace(store)} disabled={state.exchanges.length === 0} title={t('http.saveTraceHint')} data-testid="save-http-trace">
          {t('http.saveTrace')}
        </button>
        <span data-testid="http-progress">{t('http.progress', { shown: cursor, total: steps.length })}</span>
      </div>
      <p className={`stepper__driving ${state.client === 'learner' ? 'is-learner' : ''}`} data-testid="http-driver">
        {t(modern ? 'http.modern.driving' : state.client === 'learner' ? 'http.driver.drivingLearner' : 'http.driver.drivingReference')}
        {state.client === 'learner' && <span className="hint"> — {t('http.driver.learnerNote')}</span>}
      </p>
      {!modern && state.client === 'learner' && <UnfinishedExerciseNote exerciseId={LEARNER_EXERCISES.http} />}
      <p role="status" className={`stepper__status${status.status === 'failed' ? ' is-error' : ''}`} data-testid="http-status" data-status={status.status}>
        {statusText(t, state)}
        {next && !busy && status.status !== 'failed' && <span className="hint"> {t('http.next', { step: t(`http.steps.${next}`) })}</span>}
      </p>
      {state.host && <p className="hint">{t('http.host', { host: tLive(`hosts.${state.host}`) })}</p>}
      <div className="stepper__body">
        <HttpDiagram exchanges={state.exchanges} onInspect={setOpen} />
        <HoldsPanel state={state} noSession={modern} />
      </div>
      {/* Under the diagram, so its first arrows stay on the first screen. */}
      <p className="hint">{t('http.intro')}</p>
      <p className="hint">{t('http.keys')}</p>
      <HttpInspectorDialog exchange={opened} onClose={() => setOpen(null)} />
      {/* The HTTP cards break a session: there is none in 2026-07-28. */}
      {!modern && <FailureCardsDetails openSignal={openCards} />}
    </section>
  );
}

/** The HTTP failure cards, folded away until opened (their code loads then). */
function FailureCardsDetails({ openSignal }: { openSignal: number }) {
  const t = useProtocolText();
  const [opened, setOpened] = useState(false);
  const details = useRef<HTMLDetailsElement>(null);
  useOpenOnSignal(details, openSignal, () => setOpened(true));
  return (
    <details ref={details} className="era-cards" data-testid="http-cards-details" onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary>{t('httpCards.heading')}</summary>
      {opened && (
        <Suspense fallback={<p className="hint">…</p>}>
          <HttpFailureCards />
        </Suspense>
      )}
    </details>
  );
}

/** The session (every connection's exact bytes) as an http trace; the writer loads on the first save. */
async function saveHttpTrace(store: HttpSessionStore): Promise<void> {
  const recording = store.recording();
  if (recording === null) return;
  const { httpTraceText, traceFileName } = await import('../../app/trace/trace-export.ts');
  downloadFile(traceFileName(recording.started), httpTraceText(recording), 'application/x-ndjson');
}

function statusText(t: ProtocolText, state: HttpSessionState): string {
  const { status } = state;
  switch (status.status) {
    case 'idle':
      return t(state.era === 'modern' ? 'http.modern.idle' : 'http.status.idle');
    case 'stepping':
      return t('http.status.stepping', { step: t(`http.steps.${status.step}`) });
    case 'ready':
      return t('http.status.ready', { step: t(`http.steps.${httpSteps(state.era)[state.cursor - 1]!}`) });
    case 'done':
      return t(state.era === 'modern' ? 'http.modern.done' : 'http.status.done');
    case 'failed':
      return t('http.status.failed', { reason: httpFailureText(t, status) });
  }
}

/** Two lifelines; per connection a request arrow, then the response arrow and the events it carried. */
export function HttpDiagram({ exchanges, onInspect }: { exchanges: readonly HttpExchangeRecord[]; onInspect(conn: number): void }) {
  const t = useProtocolText();
  return (
    <div className="http-diagram" role="group" aria-label={t('http.diagram.label')}>
      <div className="http-diagram__heads" aria-hidden="true">
        <span>{t('http.diagram.client')}</span>
        <span>{t('http.diagram.server')}</span>
      </div>
      {exchanges.length === 0 ? (
        <p className="hint">{t('http.diagram.empty')}</p>
      ) : (
        <ol className="http-diagram__arrows">
          {exchanges.map((exchange) => (
            <ExchangeArrows key={exchange.conn} exchange={exchange} onInspect={onInspect} />
          ))}
        </ol>
      )}
    </div>
  );
}

function ExchangeArrows({ exchange, onInspect }: { exchange: HttpExchangeRecord; onInspect(conn: number): void }) {
  const t = useProtocolText();
  const events = useMemo(() => (exchange.contentType === 'text/event-stream' ? httpLayout(concatBytes(exchange.s2c), 'response', { ended: exchange.closed }).events : []), [exchange.s2c, exchange.contentType, exchange.closed]);
  const response =
    exchange.status === null
      ? t('http.diagram.waiting', { conn: exchange.conn })
      : t('http.diagram.response', { conn: exchange.conn, status: exchange.status, type: exchange.contentType ?? '' });
  return (
    <li className="http-exchange" data-testid="http-exchange" data-conn={exchange.conn} data-request={exchange.request} data-status={exchange.status ?? ''}>
      <button type="button" className="http-arrow http-arrow--c2s" data-testid="http-arrow" aria-label={`${t('http.diagram.request', { conn: exchange.conn, request: exchange.request })}. ${t('http.diagram.inspect', { conn: exchange.conn })}`} onClick={() => onInspect(exchange.conn)}>
        <span className="http-arrow__label">{exchange.request || '…'}</span>
      </button>
      <button type="button" className="http-arrow http-arrow--s2c" data-testid="http-arrow" aria-label={`${response}. ${t('http.diagram.inspect', { conn: exchange.conn })}`} onClick={() => onInspect(exchange.conn)}>
        <span className="http-arrow__label">
          {exchange.status ?? '…'} {exchange.contentType ?? ''} · {exchange.closed ? t('http.diagram.closed') : t('http.diagram.open')}
        </span>
      </button>
      {events.length > 0 && (
        <ul className="http-events">
          {events.map((event) => (
            <li key={event.index} className="http-event">
              {t('http.diagram.event', { summary: summaryText(t, event.summary) })}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

export function HoldsPanel({ state, noSession = false }: { state: Pick<HttpSessionState, 'holds' | 'progress'>; noSession?: boolean }) {
  const t = useProtocolText();
  const { holds } = state;
  return (
    <aside className="stepper__side http-holds" aria-label={t('http.holds.heading')} data-testid="http-holds">
      <h4>{t('http.holds.heading')}</h4>
      <dl>
        <dt>{t('http.holds.sessionId')}</dt>
        <dd className="mono" data-testid="holds-session">{holds.sessionId ?? t(noSession ? 'http.modern.noSession' : 'http.holds.none')}</dd>
        {/* 2026-07-28 negotiates nothing: the client picks from discover and says it in _meta and the header. */}
        <dt>{t(noSession ? 'http.holds.versionModern' : 'http.holds.version')}</dt>
        <dd className="mono">{holds.protocolVersion ?? t('http.holds.none')}</dd>
        <dt>{t('http.holds.pending')}</dt>
        <dd className="mono">{holds.pending.length === 0 ? t('http.holds.none') : holds.pending.map((entry) => `${entry.method} #${String(entry.id)}`).join(', ')}</dd>
        <dt>{t('http.holds.streams')}</dt>
        <dd className="mono">{holds.openStreams}</dd>
        <dt>{t('http.holds.progress')}</dt>
        <dd className="mono">{state.progress.length === 0 ? t('http.holds.none') : progressLine(t, state.progress)}</dd>
      </dl>
    </aside>
  );
}
