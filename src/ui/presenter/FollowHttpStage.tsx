// The follow view while the presenter shows the HTTP stepper: the same sequence diagram (one pair of
// arrows per relayed connection, the SSE events under the response), what the client holds, and the
// connection open in the presenter's HTTP inspector, drawn from the broadcast state alone. Loaded
// only when the first HTTP state arrives.

import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HttpFollowState } from '../../app/presenter/http-follow.ts';
import { httpSteps } from '../../app/protocol/http-session-store.ts';
import { HttpInspector } from '../protocol/HttpInspector.tsx';
import { HoldsPanel, HttpDiagram } from '../protocol/HttpView.tsx';
import { useProtocolText } from '../protocol/use-protocol-text.ts';
import '../protocol/protocol-view.css';
import '../protocol/http-view.css';
import { usePresenterText } from './use-presenter-text.ts';
import { httpFailureText } from '../../app/protocol/http-failure-text.ts';

export default function FollowHttpStage({ state, left }: { state: HttpFollowState; left: boolean }) {
  const t = usePresenterText();
  const tp = useProtocolText();
  const { t: tLive } = useTranslation('live');
  const frameId = useId();
  const { cursor, total, status, host, exchanges, open } = state;
  const diagram = useRef<HTMLDivElement>(null);
  // An arrow clicked here opens its connection on this screen until the presenter opens another.
  const [local, setLocal] = useState<{ conn: number; presenterOpen: number | null } | null>(null);
  const shownConn = local !== null && local.presenterOpen === open ? local.conn : open;
  const shown = exchanges.find((exchange) => exchange.conn === shownConn) ?? null;
  const current = httpSteps(state.era)[cursor - 1];
  const next = httpSteps(state.era)[cursor];

  // The newest connection is at the bottom of the diagram: keep it in view.
  useEffect(() => {
    const box = diagram.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [exchanges.length]);

  return (
    <>
      <header className="presenter__bar">
        <h1>{t('follow.heading')}</h1>
        <span className="presenter__progress" data-testid="follow-progress">
          {t('follow.progress', { shown: cursor, total })}
        </span>
        {host && <span className="hint">{t('follow.httpServer', { host: tLive(`hosts.${host}`) })}</span>}
      </header>
      {left && <p className="notice">{t('follow.left')}</p>}
      <p className="follow__now" data-testid="follow-step" data-transport="http" data-step={current ?? ''}>
        {current ? t('follow.now', { step: tp(`http.steps.${current}`) }) : tp('http.status.idle')}
        {status.status === 'failed' ? (
          <span className="is-error"> — {tp('http.status.failed', { reason: httpFailureText(tp, status) })}</span>
        ) : next ? (
          <span className="hint"> · {t('follow.next', { step: tp(`http.steps.${next}`) })}</span>
        ) : (
          <span className="hint"> · {t('follow.done')}</span>
        )}
      </p>
      <div className="presenter__stage follow__stage">
        <div className="stepper__body">
          {/* Focusable: the box scrolls once the diagram is long, and a keyboard must reach it. */}
          <div className="stepper__diagram" ref={diagram} tabIndex={0} role="region" aria-label={tp('http.diagram.label')}>
            <HttpDiagram exchanges={exchanges} onInspect={(conn) => setLocal({ conn, presenterOpen: open })} />
          </div>
          <HoldsPanel state={state} noSession={state.era === 'modern'} />
        </div>
      </div>
      {shown && (
        <section className="follow__frame" aria-labelledby={frameId} data-testid="follow-frame" data-conn={shown.conn}>
          <h2 id={frameId}>
            {shown.conn === open ? t('follow.connection') : t('follow.connectionHere')}: {tp('http.inspector.title', { conn: shown.conn, request: shown.request })}
          </h2>
          <HttpInspector exchange={shown} />
        </section>
      )}
    </>
  );
}
