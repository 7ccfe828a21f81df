// The follow view (?follow=1): what the instructor projects, or what an attendee's laptop shows.
// It draws the presenter's diagram, state machine, pending table and open frame from the broadcast
// state alone — no server, no notes, no controls — and says so while no presenter has spoken yet.
// It hears tabs of this browser, and the workshop room when this page joined it or its link
// carries the join code (#join=CODE): then any device follows.

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
import { FollowStore, isHttpState, openFollowChannel, type ChannelLike } from '../../app/presenter/follow-channel.ts';
import { RoomFollowReader, teeChannel } from '../../app/room/follow-relay.ts';
import { modeHref } from '../../app/presenter/mode.ts';
import type { FollowAuth } from '../../app/room/room-client.ts';
import { joinCodeOfHash } from '../../app/router.ts';
import { loadMembership, pageStorage } from '../../runtime/room-membership.ts';
import type { FollowState } from '../../app/presenter/follow-message.ts';
import { usePresenterText } from './use-presenter-text.ts';
import './presenter.css';

// The HTTP stepper's picture loads when the presenter first shows it.
const FollowHttpStage = lazy(() => import('./FollowHttpStage.tsx'));

export function FollowApp() {
  const t = usePresenterText();
  const [store, setStore] = useState<FollowStore | null>(null);
  const [relay, setRelay] = useState<RoomFollowReader | null>(null);
  const [unsupported, setUnsupported] = useState(false);
  const [attendee, setAttendee] = useState(false);

  // Made in the effect, not in state: StrictMode mounts twice, and a stopped store's channel is closed.
  useEffect(() => {
    const tabs = openFollowChannel();
    // Other devices follow over the workshop room: a page that joined it, or a link with its code.
    const auth = roomFollowAuth(window.location);
    const room = auth === null ? null : new RoomFollowReader(auth, { origin: window.location.origin });
    const channels = [tabs, room].filter((channel): channel is ChannelLike => channel !== null);
    if (channels.length === 0) {
      setUnsupported(true);
      return;
    }
    const follow = new FollowStore(teeChannel(channels));
    follow.start();
    setStore(follow);
    setRelay(room);
    setAttendee(auth?.kind === 'attendee');
    return () => follow.stop();
  }, []);

  useEffect(() => {
    document.documentElement.classList.add('presenter-mode');
    return () => document.documentElement.classList.remove('presenter-mode');
  }, []);

  return (
    <main className="presenter follow" aria-label={t('follow.label')} data-testid="follow">
      {relay && <RelayLine relay={relay} />}
      {unsupported ? <p className="notice is-error">{t('follow.unsupported')}</p> : store ? <Following store={store} viaRoom={relay !== null} ownLanguage={attendee} /> : <Waiting viaRoom={false} />}
    </main>
  );
}

/** Who this page is in the workshop room, when it can follow over it; null for tabs only. */
function roomFollowAuth(location: Location): FollowAuth | null {
  const membership = loadMembership(pageStorage(), location.origin);
  if (membership !== null) return { kind: 'attendee', membership };
  const code = joinCodeOfHash(location.hash);
  return code === '' ? null : { kind: 'code', code };
}

/** Where the room stands, while it is not simply open: reaching it, or why it refused. */
function RelayLine({ relay }: { relay: RoomFollowReader }) {
  const t = usePresenterText();
  const status = useStore(relay.status);
  if (status.status === 'open') return null;
  return (
    <p className={status.status === 'refused' ? 'notice is-error' : 'hint'} role="status" data-testid="follow-relay">
      {status.status === 'refused' ? t('follow.refused', { reason: status.reason }) : t('follow.connecting')}{' '}
      <a href={modeHref(window.location.href, 'app')}>{t('follow.back')}</a>
    </p>
  );
}

function Waiting({ viaRoom }: { viaRoom: boolean }) {
  const t = usePresenterText();
  return (
    <div className="follow__waiting" data-testid="follow-waiting">
      <p className="follow__waiting-text" role="status">
        {t('follow.waiting')}
      </p>
      <p className="hint">{viaRoom ? t('follow.waitingRoom') : t('follow.waitingHint')}</p>
    </div>
  );
}

function Following({ store, viaRoom, ownLanguage }: { store: FollowStore; viaRoom: boolean; ownLanguage: boolean }) {
  const view = useStore(store);
  const { i18n } = useTranslation();
  const language = view.status === 'waiting' || ownLanguage ? null : view.state.language;

  // A projector reads what the presenter reads; an attendee's own device keeps the attendee's
  // language. (Not in the keys locale, which is a translator's tool.)
  useEffect(() => {
    const current = i18n.resolvedLanguage ?? i18n.language;
    if (language !== null && language !== current && (current === 'en' || current === 'zh-CN')) void i18n.changeLanguage(language);
  }, [language, i18n]);

  if (view.status === 'waiting') return <Waiting viaRoom={viaRoom} />;
  if (isHttpState(view.state)) {
    return (
      <Suspense fallback={<Waiting viaRoom={viaRoom} />}>
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
