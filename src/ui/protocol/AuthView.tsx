// The authorization scene: the reference client signs in to mcp-http --auth=self on the live host,
// one HTTP exchange per Step, the learner deciding on the consent page as the person. Beside the
// exchanges, what the client sees: the PKCE pair and how the one proves the other, the redirect's
// code, state and iss, and the access token's claims judged for this server. Secrets stay hidden
// (same length) in the rows, the inspector and a saved trace until the learner shows them. Below,
// the failure cards run the same sign-in with one thing broken. Loaded when the scene is chosen.

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AuthSceneStore, type AuthClientKind, type AuthFacts, type AuthSceneState, type AuthStep } from '../../app/protocol/auth-scene-store.ts';
import { AUTH_CARDS, type AuthCard } from '../../app/protocol/auth-cards.ts';
import { redactEvents, redactExchange } from '../../app/protocol/auth-redaction.ts';
import type { AuthText } from '../../app/protocol/auth-text.ts';
import { LEARNER_EXERCISES, whenHostChosen } from '../../app/services/protocol-services.ts';
import { UnfinishedExerciseNote } from '../exercise/UnfinishedExerciseNote.tsx';
import { redactSecrets } from '../../protocol/inspect/secrets.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { downloadFile } from '../../app/progress-transfer/browser-file.ts';
import { useStore } from '../hooks/use-store.ts';
import { useLocale } from '../hooks/use-locale.ts';
import { HttpInspectorDialog } from './HttpInspectorDialog.tsx';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { stepperKeyDown } from './stepper-keys.ts';
import { useAuthText } from './use-auth-text.ts';
import { useOpenOnSignal } from './use-open-on-signal.ts';
import './http-view.css';
import './auth-view.css';

/** The scene recorded on the bridge, for a page whose host cannot run it (scripts/record-auth-trace.ts). */
const RECORDED_TRACE = 'traces/authorization-scene.jsonl';

export interface AuthViewProps {
  /** Changes when a "Break it" link asks for the failure cards: they open and come into view. */
  openCards?: number;
  /** Who should write the client's steps, when a link asks (exercise 8's "See it live": the learner). */
  driver?: { kind: AuthClientKind } | null;
}

export default function AuthView({ openCards = 0, driver = null }: AuthViewProps) {
  const t = useAuthText();
  const { t: tLive } = useTranslation('live');
  // The person's browser asks in the page's language, whatever it is when the consent page loads.
  const locale = useLocale();
  const language = useRef(locale);
  language.current = locale;
  const services = useProtocolServices();
  const { session } = services;
  // "Your code": the learner's exercise 8 file, read when a sign-in starts (what the editor holds then).
  const [store] = useState(
    () =>
      new AuthSceneStore({
        startProgram: (spec) => whenHostChosen(session).then(() => session.startProgram(spec) as Promise<HttpWire>),
        createLearnerSteps: () => services.learnerAuthSteps(),
        language: () => language.current,
      }),
  );
  useEffect(() => () => store.restart(null), [store]);
  // A link (a new object each time) starts a fresh sign-in: it reads the learner's file as it is now,
  // not the run left from an earlier visit.
  useEffect(() => {
    if (driver === null) return;
    store.setClient(driver.kind);
    store.restart();
  }, [store, driver]);
  const state = useStore(store);
  const { selection } = useStore(session).host;
  const headingId = useId();
  const [revealed, setRevealed] = useState(false);
  const [open, setOpen] = useState<number | null>(null);
  const { status } = state;
  const busy = status.status === 'stepping' || status.status === 'starting';
  const atEnd = status.status === 'done' || status.status === 'failed' || status.status === 'consent';
  const opened = state.exchanges.find((exchange) => exchange.conn === open) ?? null;
  const onKeyDown = stepperKeyDown({ busy, atEnd, step: () => void store.step(), runToEnd: () => void store.runToEnd(), restart: () => store.restart() });

  // No Node runs on the worker host: the recorded sign-in instead, and the cards to read (not run).
  if (selection.status === 'chosen' && selection.kind === 'worker') return <WorkerNote cards={<AuthCards store={null} active={null} running={false} openSignal={openCards} />} />;

  return (
    <section className="http-stepper auth-scene" aria-labelledby={headingId} data-testid="auth-scene" data-status={status.status} data-card={state.card ?? ''} onKeyDown={onKeyDown}>
      <h3 id={headingId}>{t('heading')}</h3>
      <div className="stepper__toolbar">
        <fieldset className="inline-radios stepper__driver" disabled={busy}>
          <legend>{t('driver.legend')}</legend>
          {(['reference', 'learner'] as const).map((kind) => (
            <label key={kind}>
              <input type="radio" name="auth-scene-driver" checked={state.client === kind} onChange={() => store.setClient(kind)} />
              {t(kind === 'reference' ? 'driver.reference' : 'driver.learner')}
            </label>
          ))}
        </fieldset>
        {/* Authorization is the same in both eras: only the request that meets the 401 differs. */}
        <fieldset className="inline-radios stepper__driver" disabled={busy}>
          <legend>{t('era.legend')}</legend>
          {(['handshake', 'modern'] as const).map((era) => (
            <label key={era}>
              <input type="radio" name="auth-scene-era" checked={state.era === era} onChange={() => store.setEra(era)} />
              {t(`era.${era}`)}
            </label>
          ))}
        </fieldset>
        <div role="toolbar" aria-label={t('controls')} className="button-row stepper__controls">
          <button type="button" onClick={() => store.restart()}>
            ↺ {t('restart')}
          </button>
          <button type="button" className="primary" aria-disabled={busy || undefined} disabled={atEnd} onClick={() => !busy && void store.step()} data-testid="auth-step">
            {t('step')} ▶
          </button>
          <button type="button" aria-disabled={busy || undefined} disabled={atEnd} onClick={() => !busy && void store.runToEnd()}>
            {t('runToEnd')} ▶▶
          </button>
        </div>
        <button type="button" onClick={() => saveTrace(store, revealed)} disabled={state.exchanges.length === 0} title={t('saveTraceHint')} data-testid="save-auth-trace">
          {t('saveTrace')}
        </button>
        <label className="auth-scene__reveal" title={t('revealHint')}>
          <input type="checkbox" checked={revealed} onChange={(event) => setRevealed(event.currentTarget.checked)} data-testid="auth-reveal" /> {t('reveal')}
        </label>
      </div>
      <p className={`stepper__driving ${state.client === 'learner' ? 'is-learner' : ''}`} data-testid="auth-driver">
        {t(state.client === 'learner' ? 'driver.drivingLearner' : 'driver.drivingReference')}
        {state.client === 'learner' && (
          <span className="hint" data-testid="auth-yours" data-count={state.yours.length}>
            {' '}
            {t('driver.answered', { steps: state.yours.length === 0 ? t('driver.none') : [...new Set(state.yours)].join(', ') })}
          </span>
        )}
      </p>
      {state.client === 'learner' && <UnfinishedExerciseNote exerciseId={LEARNER_EXERCISES.auth} />}
      <p role="status" className={`stepper__status${status.status === 'failed' ? ' is-error' : ''}`} data-testid="auth-status">
        {statusText(t, state)}
      </p>
      {state.host && state.endpoint && <p className="hint">{t('host', { host: tLive(`hosts.${state.host}`), endpoint: state.endpoint })}</p>}
      {status.status === 'consent' && state.consent && <ConsentPanel html={state.consent.html} onDecide={(decision) => store.decide(decision)} />}
      {state.outcome && (
        <p className={`notice${state.outcome.ok ? '' : ' is-error'}`} data-testid="auth-outcome" data-ok={String(state.outcome.ok)}>
          {state.outcome.ok ? t('outcome.ok', { result: state.outcome.result }) : t('outcome.failed', { error: shown(state.outcome.error, revealed) })}
        </p>
      )}
      <div className="stepper__body">
        <StepList steps={state.steps} revealed={revealed} onInspect={setOpen} />
        <FactsPanel facts={state.facts} revealed={revealed} />
      </div>
      <p className="hint">{t('intro')}</p>
      <p className="hint">{t('keys')}</p>
      <HttpInspectorDialog exchange={opened === null ? null : revealed ? opened : redactExchange(opened)} onClose={() => setOpen(null)} />
      <AuthCards store={store} active={state.card} running={busy || status.status === 'ready'} openSignal={openCards} />
    </section>
  );
}

function statusText(t: AuthText, state: AuthSceneState): string {
  const { status } = state;
  switch (status.status) {
    case 'idle':
      return t('status.idle');
    case 'starting':
      return t('status.starting');
    case 'stepping':
      return t('status.stepping', { kind: t(`kinds.${status.kind}`) });
    case 'ready':
      return state.next === null ? t('status.starting') : t('status.ready', { kind: t(`kinds.${state.next}`) });
    case 'consent':
      return t('status.consent');
    case 'done':
      return t('status.done');
    case 'failed':
      return t('status.failed', { reason: status.reason });
  }
}

/** A secret as the learner chose to see it: itself, or the same length of `*`. */
function shown(text: string, revealed: boolean): string {
  return revealed ? text : new TextDecoder().decode(redactSecrets(new TextEncoder().encode(text)));
}

function StepList({ steps, revealed, onInspect }: { steps: readonly AuthStep[]; revealed: boolean; onInspect(conn: number): void }) {
  const t = useAuthText();
  return (
    <div className="auth-steps" role="group" aria-label={t('list.label')}>
      <p className="hint">{t('stepCount', { count: steps.length })}</p>
      {steps.length === 0 ? (
        <p className="hint">{t('list.empty')}</p>
      ) : (
        <ol className="auth-steps__list">
          {steps.map((step, index) => {
            const target = shown(step.target, revealed);
            const answered = step.status === null ? t('list.waiting') : String(step.status);
            return (
              <li key={index} data-testid="auth-row" data-kind={step.kind} data-status={step.status ?? ''}>
                <button
                  type="button"
                  className={`auth-step auth-step--${step.kind}${step.status !== null && step.status >= 400 ? ' has-error-status' : ''}`}
                  disabled={step.conn === null}
                  aria-label={t('list.open', { conn: step.conn ?? '?', method: step.method, target, status: answered })}
                  onClick={() => step.conn !== null && onInspect(step.conn)}
                >
                  {/* The browser's one 200 is the consent page; its other answers are redirects. */}
                  <span className="auth-step__kind">{t(step.kind === 'browser' && step.status === 200 ? 'kinds.page' : `kinds.${step.kind}`)}</span>
                  <span className="auth-step__line mono">
                    {step.method} {target}
                    {step.rpc !== null && <strong> {step.rpc}</strong>}
                  </span>
                  <span className="auth-step__status mono">{answered}</span>
                </button>
              </li>
            );
          })}
        </ol>
      )}
    </div>
  );
}

function Secret({ value, revealed }: { value: string | undefined | null; revealed: boolean }) {
  const t = useAuthText();
  if (value === undefined || value === null) return <span className="hint">{t('facts.none')}</span>;
  return revealed ? <span className="mono auth-secret">{value}</span> : <span className="hint" data-testid="auth-hidden">{t('facts.hidden', { count: value.length })}</span>;
}

function Plain({ value }: { value: string | undefined | null }) {
  const t = useAuthText();
  return value === undefined || value === null ? <span className="hint">{t('facts.none')}</span> : <span className="mono auth-secret">{value}</span>;
}

function FactsPanel({ facts, revealed }: { facts: AuthFacts; revealed: boolean }) {
  const t = useAuthText();
  const { redirect, claims, tokenHeader } = facts;
  return (
    <aside className="stepper__side auth-facts" aria-label={t('facts.heading')} data-testid="auth-facts">
      <h4>{t('facts.heading')}</h4>
      <h5>{t('facts.pkce')}</h5>
      <dl>
        <dt>{t('facts.challenge')}</dt>
        <dd data-testid="auth-challenge">
          <Plain value={facts.challenge} />
        </dd>
        <dt>{t('facts.verifier')}</dt>
        <dd>
          <Secret value={facts.verifier} revealed={revealed} />
        </dd>
        {facts.challengeOfVerifier !== undefined && (
          <>
            <dt className="mono">{t('facts.relation')}</dt>
            <dd data-testid="auth-pkce-relation" data-matches={String(facts.challengeOfVerifier === facts.challenge)}>
              <Plain value={facts.challengeOfVerifier} /> {facts.challengeOfVerifier === facts.challenge ? t('facts.matches') : t('facts.differs')}
            </dd>
          </>
        )}
      </dl>
      <p className="hint">{t('facts.pkceExplain')}</p>
      <h5>{t('facts.redirect')}</h5>
      <dl data-testid="auth-redirect">
        {redirect?.error ? (
          <>
            <dt>{t('facts.error')}</dt>
            <dd className="mono">{redirect.error}</dd>
          </>
        ) : (
          <>
            <dt>{t('facts.code')}</dt>
            <dd>
              <Secret value={redirect?.code} revealed={revealed} />
            </dd>
          </>
        )}
        <dt>{t('facts.state')}</dt>
        <dd>
          <Plain value={redirect?.state} /> {redirect?.state ? (redirect.state === facts.state ? t('facts.stateMatches') : t('facts.stateDiffers')) : null}
        </dd>
        <dt>{t('facts.iss')}</dt>
        <dd data-testid="auth-iss">
          <Plain value={redirect?.iss} /> {redirect?.iss && facts.issuer ? (redirect.iss === facts.issuer ? t('facts.issMatches') : t('facts.issDiffers')) : null}
        </dd>
      </dl>
      <h5>{t('facts.token')}</h5>
      <p>
        <Secret value={facts.accessToken} revealed={revealed} />
      </p>
      {tokenHeader && <p className="mono">{t('facts.header', { alg: String(tokenHeader.alg), typ: String(tokenHeader.typ) })}</p>}
      {claims && (
        <dl data-testid="auth-claims">
          {claims.map((fact) => (
            <div key={fact.claim} data-claim={fact.claim} data-verdict={fact.verdict} className={fact.verdict === 'ok' ? '' : 'is-error'}>
              <dt>{t(`facts.claims.${fact.claim}`)}</dt>
              <dd>
                <span className="mono">{claimValue(fact.claim, fact.value)}</span> {t(`facts.verdicts.${fact.verdict}`)}
              </dd>
            </div>
          ))}
        </dl>
      )}
    </aside>
  );
}

function claimValue(claim: string, value: unknown): string {
  if (claim === 'exp' && typeof value === 'number') return `${value} (${new Date(value * 1000).toISOString()})`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function ConsentPanel({ html, onDecide }: { html: string; onDecide(decision: 'allow' | 'deny'): void }) {
  const t = useAuthText();
  const allow = useRef<HTMLButtonElement>(null);
  useEffect(() => allow.current?.focus(), []);
  return (
    <section className="auth-consent" aria-label={t('consent.heading')} data-testid="auth-consent">
      <h4>{t('consent.heading')}</h4>
      {/* The server's own page, inert: no script, no form, no navigation (sandbox with nothing allowed). */}
      <iframe className="auth-consent__page" title={t('consent.frame')} sandbox="" srcDoc={html} />
      <p className="hint">{t('consent.explain')}</p>
      <div className="button-row">
        <button ref={allow} type="button" className="primary" onClick={() => onDecide('allow')} data-testid="auth-allow">
          {t('consent.allow')}
        </button>
        <button type="button" onClick={() => onDecide('deny')} data-testid="auth-deny">
          {t('consent.deny')}
        </button>
      </div>
    </section>
  );
}

/** The failure cards; without a store (the worker host) they are read, not run. */
function AuthCards({ store, active, running, openSignal }: { store: AuthSceneStore | null; active: AuthCard | null; running: boolean; openSignal: number }) {
  const t = useAuthText();
  const details = useRef<HTMLDetailsElement>(null);
  useOpenOnSignal(details, openSignal, () => undefined);
  const run = (card: AuthCard) => {
    if (store === null) return;
    store.restart(card);
    void store.runToEnd({ allow: true });
    details.current?.closest('.auth-scene')?.scrollIntoView({ block: 'start' });
  };
  return (
    <details ref={details} className="era-cards auth-cards" data-testid="auth-cards-details">
      <summary>{t('cards.heading')}</summary>
      <p className="hint">{t(store === null ? 'cards.introRecorded' : 'cards.intro')}</p>
      {active !== null && store !== null && (
        <button type="button" onClick={() => store.restart(null)}>
          {t('cards.back')}
        </button>
      )}
      <ul className="auth-cards__list">
        {AUTH_CARDS.map((card) => (
          <li key={card} className={`era-card${active === card ? ' is-active' : ''}`} data-testid="auth-card" data-card={card}>
            <h4>{t(`cards.${card}.title`)}</h4>
            <p>{t(`cards.${card}.what`)}</p>
            <p className="hint">{t(`cards.${card}.explain`)}</p>
            {store !== null && (
              <button type="button" onClick={() => run(card)} disabled={running && active === card}>
                {running && active === card ? t('cards.running') : t('cards.run')}
              </button>
            )}
            {active === card && <p className="hint">{t('cards.active')}</p>}
          </li>
        ))}
      </ul>
    </details>
  );
}

function WorkerNote({ cards }: { cards: ReactNode }) {
  const t = useAuthText();
  const [problem, setProblem] = useState<string | null>(null);
  const openRecorded = async () => {
    try {
      const response = await fetch(`${import.meta.env.BASE_URL}${RECORDED_TRACE}`);
      if (!response.ok) throw new Error(`${response.status}`);
      const { traceHash } = await import('../../app/trace/trace-link.ts');
      const hash = await traceHash(await response.text());
      if (hash === null) throw new Error('too long for a link');
      window.location.hash = hash;
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  return (
    <section className="http-stepper auth-scene" data-testid="auth-scene" data-status="worker">
      <h3>{t('heading')}</h3>
      <p className="notice" data-testid="auth-worker-note">
        {t('worker.note')}
      </p>
      <button type="button" className="primary" onClick={() => void openRecorded()} data-testid="auth-open-recorded">
        {t('worker.open')}
      </button>
      {problem !== null && <p className="notice is-error">{t('worker.failed', { reason: problem })}</p>}
      {cards}
    </section>
  );
}

/** The sign-in as an http trace: secrets hidden unless the learner shows them. The writer loads on the first save. */
function saveTrace(store: AuthSceneStore, revealed: boolean): void {
  const recording = store.recording();
  if (recording === null) return;
  void import('../../app/trace/trace-export.ts').then(({ httpTraceText, traceFileName }) =>
    downloadFile(traceFileName(recording.started), httpTraceText({ ...recording, events: revealed ? recording.events : redactEvents(recording.events) }), 'application/x-ndjson'),
  );
}
