// The failure lab's HTTP cards under the HTTP stepper: each card writes its request's exact bytes on
// a raw relayed connection to mcp-http on the live host (app/failure-lab/http-cards.ts) and shows
// what went out, what came back and why. Loaded lazily, when the learner opens the cards.

import { useState } from 'react';
import { HTTP_CARD_IDS, MAX_POLL_RECONNECTS, runHttpCard, type HttpCardExchange, type HttpCardId, type HttpCardResult, type PollRun } from '../../app/failure-lab/http-cards.ts';
import { HTTP_PROGRAM } from '../../app/protocol/http-session-store.ts';
import { IMPATIENT_RESUMES_BEFORE_HOLD } from '../../protocol/http/event-stream.ts';
import { whenHostChosen } from '../../app/services/protocol-services.ts';
import type { HttpWire } from '../../runtime/http-tap-wire.ts';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { useProtocolText } from './use-protocol-text.ts';

type CardState = { kind: 'done'; result: HttpCardResult } | { kind: 'failed'; reason: string };

/** CRLF made visible, as the inspector marks it: the line breaks are part of what was sent. */
const showBytes = (bytes: Uint8Array) => new TextDecoder().decode(bytes).replace(/\r\n/g, '␍␊\n');

export default function HttpFailureCards() {
  const t = useProtocolText();
  const { session } = useProtocolServices();
  const [running, setRunning] = useState<HttpCardId | null>(null);
  const [states, setStates] = useState<Partial<Record<HttpCardId, CardState>>>({});

  const run = async (id: HttpCardId) => {
    setRunning(id);
    try {
      const result = await runHttpCard(id, {
        origin: location.origin,
        start: async (faults) => {
          await whenHostChosen(session);
          return (await session.startProgram({ ...HTTP_PROGRAM, faults: [...faults] })) as HttpWire;
        },
      });
      setStates((all) => ({ ...all, [id]: { kind: 'done', result } }));
    } catch (error) {
      setStates((all) => ({ ...all, [id]: { kind: 'failed', reason: error instanceof Error ? error.message : String(error) } }));
    } finally {
      setRunning(null);
    }
  };

  return (
    <section className="http-cards" data-testid="http-cards">
      <p className="hint">{t('httpCards.intro')}</p>
      <div className="failure-lab__cards">
        {HTTP_CARD_IDS.map((id) => {
          const state = states[id];
          const titleId = `http-card-${id}`;
          return (
            <article key={id} className={`failure-card${running === id ? ' is-running' : ''}`} aria-labelledby={titleId} data-testid={`http-card-${id}`}>
              <h4 id={titleId}>{t(`httpCards.cards.${id}.title`)}</h4>
              <p>{t(`httpCards.cards.${id}.what`)}</p>
              <div className="button-row">
                <button type="button" className="primary" disabled={running !== null} onClick={() => void run(id)}>
                  {running === id ? t('httpCards.running') : t('httpCards.run')}
                </button>
              </div>
              {state?.kind === 'failed' && (
                <p role="status" className="stepper__status is-error">
                  {t('httpCards.failed', { reason: state.reason })}
                </p>
              )}
              {state?.kind === 'done' && running !== id && (
                <div role="status" data-testid="http-card-result">
                  {state.result.exchanges.map((exchange, index) => (
                    <ExchangeView key={index} exchange={exchange} />
                  ))}
                  {state.result.polls && (
                    <ul className="http-card__polls">
                      <PollView client="impatient" run={state.result.polls.impatient} />
                      <PollView client="patient" run={state.result.polls.patient} />
                    </ul>
                  )}
                  <p>{t(`httpCards.cards.${id}.explain`, { n: IMPATIENT_RESUMES_BEFORE_HOLD })}</p>
                </div>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}

/** How one client polled: its waits, how often it came back, whether its response arrived. */
function PollView({ client, run }: { client: 'impatient' | 'patient'; run: PollRun }) {
  const t = useProtocolText();
  const waits = [...new Set(run.waits)].join(', ');
  return (
    <li data-testid="http-card-poll" data-client={client} data-reconnects={run.reconnects} data-result={run.gotResult}>
      {t(`httpCards.polls.${client}`, { reconnects: run.reconnects, waits: waits === '' ? '—' : waits, retry: run.retryMs ?? '—' })}{' '}
      {run.gotResult ? t('httpCards.polls.gotResult') : t('httpCards.polls.cutOff', { max: MAX_POLL_RECONNECTS })}
    </li>
  );
}

function ExchangeView({ exchange }: { exchange: HttpCardExchange }) {
  const t = useProtocolText();
  return (
    <div className="http-card__exchange" data-testid="http-card-exchange" data-role={exchange.role} data-status={exchange.status}>
      <h5>{t(`httpCards.roles.${exchange.role}`)}</h5>
      <p className="hint">{t('httpCards.sent')}</p>
      <pre className="http-card__bytes" tabIndex={0}>{showBytes(exchange.request)}</pre>
      <p className="hint">{t('httpCards.received')}</p>
      <pre className="http-card__bytes" tabIndex={0} data-testid="http-card-status">
        {exchange.statusLine}
      </pre>
      {/* Session ids named apart from the bytes: the stale-session card is about an old and a new one. */}
      {exchange.sentSessionId !== null && (
        <p data-testid="http-card-session-sent" data-session-id={exchange.sentSessionId}>
          {t('httpCards.sessionSent', { id: exchange.sentSessionId })}
        </p>
      )}
      {exchange.sessionId !== null && (
        <p data-testid="http-card-session-given" data-session-id={exchange.sessionId}>
          {t('httpCards.sessionGiven', { id: exchange.sessionId })}
        </p>
      )}
      <p className="hint">{t('httpCards.body')}</p>
      <pre className="http-card__bytes" tabIndex={0} data-testid="http-card-body">
        {exchange.body}
      </pre>
      {exchange.pieces.some((count) => count > 0) && (
        <p data-testid="http-card-pieces" data-pieces={exchange.pieces.join(',')}>
          {t('httpCards.pieces', { n: exchange.pieces.length, events: exchange.pieces.join(', ') })}
        </p>
      )}
    </div>
  );
}
