// The follow view (?follow=1): what the instructor projects. It draws the presenter's diagram,
// state machine, pending table and open frame from the broadcast state alone — no server, no
// notes, no controls — and says so while no presenter has spoken yet.

import { lazy, Suspense, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { arrowLabel, stepLabel } from '../../app/protocol/arrow-text.ts';
import { ByteInspector } from '../protocol/ByteInspector.tsx';
import { PendingTable } from '../protocol/PendingTable.tsx';
import { RegistryView } from '../protocol/RegistryView.tsx';
import { SequenceDiagram } from '../protocol/SequenceDiagram.tsx';
import { StateMachineView } from '../protocol/StateMachineView.tsx';
import { useProtocolText } from '../protocol/use-protocol-text.ts';
import '../protocol/protocol-view.css';
import { FollowStore, isHttpState, openFollowChannel } from '../../app/presenter/follow-channel.ts';
import type { FollowState } from '../../app/presenter/follow-message.ts';
import { usePresenterText } from './use-presenter-text.ts';
import './presenter.css';

// The HTTP stepper's picture loads when the presenter first shows it.
const FollowHttpStage = lazy(() => import('./FollowHttpStage.tsx'));

export function FollowApp() {
  const t = usePresenterText();
  const [store, setStore] = useState<FollowStore | null>(null);
  const [unsupported, setUnsupported] = useState(false);

  // Made in the effect, not in state: StrictMode mounts twice, and a stopped store's channel is closed.
  useEffect(() => {
    const channel = openFollowChannel();
    if (channel === null) {
      setUnsupported(true);
      return;
    }
    const follow = new FollowStore(channel);
    follow.start();
    setStore(follow);
    return () => follow.stop();
  }, []);

  useEffect(() => {
    document.documentElement.classList.add('presenter-mode');
    return () => document.documentElement.classList.remove('presenter-mode');
  }, []);

  return (
    <main className="presenter follow" aria-label={t('follow.label')} data-testid="follow">
      {unsupported ? <p className="notice is-error">{t('follow.unsupported')}</p> : store ? <Following store={store} /> : <Waiting />}
    </main>
  );
}

function Waiting() {
  const t = usePresenterText();
  return (
    <div className="follow__waiting" data-testid="follow-waiting">
      <p className="follow__waiting-text" role="status">
        {t('follow.waiting')}
      </p>
      <p className="hint">{t('follow.waitingHint')}</p>
    </div>
  );
}

function Following({ store }: { store: FollowStore }) {
  const view = useStore(store);
  const { i18n } = useTranslation();
  const language = view.status === 'waiting' ? null : view.state.language;

  // The room reads what the presenter reads. (Not in the keys locale, which is a translator's tool.)
  useEffect(() => {
    const current = i18n.resolvedLanguage ?? i18n.language;
    if (language !== null && language !== current && (current === 'en' || current === 'zh-CN')) void i18n.changeLanguage(language);
  }, [language, i18n]);

  if (view.status === 'waiting') return <Waiting />;
  if (isHttpState(view.state)) {
    return (
      <Suspense fallback={<Waiting />}>
        <FollowHttpStage state={view.state} left={view.status === 'left'} />
      </Suspense>
    );
  }
  return <FollowStage state={view.state} left={view.status === 'left'} />;
}

export function FollowStage({ state, left }: { state: FollowState; left: boolean }) {
  const t = usePresenterText();
  const tp = useProtocolText();
  const { t: tMain } = useTranslation('live');
  const headingId = useId();
  const frameId = useId();
  const { records, total, status, next, server, inspect } = state;
  const current = records[records.length - 1];
  const diagram = useRef<HTMLDivElement>(null);

  // The room watches the newest step: the follow view holds only the steps shown, so the newest
  // is at the bottom of the diagram, which scrolls inside its box once it is long.
  useEffect(() => {
    const box = diagram.current;
    if (box) box.scrollTop = box.scrollHeight;
  }, [records.length]);

  return (
    <>
      <header className="presenter__bar">
        <h1 id={headingId}>{t('follow.heading')}</h1>
        <span className="presenter__progress" data-testid="follow-progress">
          {t('follow.progress', { shown: records.length, total })}
        </span>
        {server && <span className="hint">{t('follow.server', { framing: server.framing === 'ndjson' ? 'NDJSON' : 'Content-Length', host: tMain(`hosts.${server.host}`) })}</span>}
      </header>
      {left && <p className="notice">{t('follow.left')}</p>}
      <p className="follow__now" data-testid="follow-step" aria-live="polite">
        {current ? t('follow.now', { step: stepLabel(tp, current.step) }) : tp('stepper.status.idle')}
        {status.status === 'failed' ? <span className="is-error"> — {tp('stepper.status.failed', { reason: status.reason })}</span> : next ? <span className="hint"> · {t('follow.next', { step: stepLabel(tp, next) })}</span> : <span className="hint"> · {t('follow.done')}</span>}
      </p>
      <div className="presenter__stage follow__stage">
        <div className="stepper__body">
          {/* Focusable: the box scrolls once the diagram is long, and a keyboard must reach it. */}
          <div className="stepper__diagram" ref={diagram} tabIndex={0} role="region" aria-label={tp('diagram.label')}>
            <SequenceDiagram records={records} waiting={state.waiting} currentStep={current ? current.index : null} focus={null} />
          </div>
          <aside className="stepper__side">
            <StateMachineView state={current?.clientState ?? null} transition={current?.transition ?? null} />
            <PendingTable rows={current?.pending ?? []} />
            {current?.registry && <RegistryView outcome={current.registry} />}
          </aside>
        </div>
      </div>
      {inspect && (
        <section className="follow__frame" aria-labelledby={frameId} data-testid="follow-frame">
          <h2 id={frameId}>
            {t('follow.frame')}: {arrowLabel(tp, inspect)}
          </h2>
          <ByteInspector target={inspect} showReplay={false} />
        </section>
      )}
    </>
  );
}
