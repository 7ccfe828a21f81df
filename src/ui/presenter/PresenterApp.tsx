// The presenter's page (?presenter=1): the handshake stepper full width in large type, the byte
// inspector full width over it, speaker notes beside it, and no editor. `t` (or the switch in the
// bar) puts the Streamable HTTP stepper on the stage instead; the same keys drive whichever is
// shown, the notes follow it, and so do follow views. Driven from the keyboard (key-map.ts) from
// the moment it loads; every change is broadcast to follow views.

import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { useStore } from '../hooks/use-store.ts';
import { useProtocolServices } from '../protocol/ProtocolServicesProvider.tsx';
import { ProtocolServicesProvider } from '../protocol/ProtocolServicesProvider.tsx';
import { StepperPanel } from '../protocol/StepperPanel.tsx';
import { openFollowChannel, PresenterBroadcaster, type BroadcasterStatus } from '../../app/presenter/follow-channel.ts';
import { followStateOf } from '../../app/presenter/follow-message.ts';
import { httpFollowStateOf } from '../../app/presenter/http-follow.ts';
import { HTTP_STEPS, type HttpSessionStore } from '../../app/protocol/http-session-store.ts';
import { ListenerSet } from '../../runtime/listener-set.ts';
import { useProtocolText } from '../protocol/use-protocol-text.ts';
import { toggleFullscreen } from '../../app/presenter/fullscreen.ts';
import { commandForKey, focusKindOf, type PresenterCommand } from '../../app/presenter/key-map.ts';
import { KeyHelp } from './KeyHelp.tsx';
import { lastFrameSeq } from '../../app/presenter/last-frame.ts';
import { modeHref } from '../../app/presenter/mode.ts';
import { NotesPane } from './NotesPane.tsx';
import { usePresenterText } from './use-presenter-text.ts';
import './presenter.css';

// The HTTP stepper loads when the presenter first puts it on the stage.
const HttpView = lazy(() => import('../protocol/HttpView.tsx'));

type Transport = 'stdio' | 'http';

export function PresenterApp() {
  return (
    <ProtocolServicesProvider>
      <PresenterLayout />
    </ProtocolServicesProvider>
  );
}

/** Toggles that repeat while a key is held would flicker; stepping may repeat (the stepper ignores presses while busy). */
const NO_REPEAT: ReadonlySet<PresenterCommand> = new Set(['fullscreen', 'notes', 'help', 'inspect', 'restart', 'end', 'transport']);

function PresenterLayout() {
  const t = usePresenterText();
  const tp = useProtocolText();
  const { i18n } = useTranslation();
  const { stepper, ui } = useProtocolServices();
  const { cursor, config } = useStore(stepper);
  const [transport, setTransport] = useState<Transport>('stdio');
  // The HTTP stepper's store, handed up by HttpView once it is on the stage; and its open connection.
  const [httpStore, setHttpStore] = useState<HttpSessionStore | null>(null);
  const [httpOpen, setHttpOpen] = useState<number | null>(null);
  // Read by the broadcaster, which lives as long as the page: what the stage shows now.
  const shown = useRef({ transport, httpStore, httpOpen });
  const [shownChanged] = useState(() => new ListenerSet<void>());
  useEffect(() => {
    shown.current = { transport, httpStore, httpOpen };
    shownChanged.emit();
  }, [transport, httpStore, httpOpen, shownChanged]);
  const httpCursor = useHttpCursor(transport === 'http' ? httpStore : null);
  // Leaving the HTTP stepper ends its session (HttpView restarts its store when it unmounts).
  const switchTo = (kind: Transport) => {
    setTransport(kind);
    setHttpOpen(null);
    if (kind === 'stdio') setHttpStore(null);
  };
  const [notesShown, setNotesShown] = useState(true);
  const [helpOpen, setHelpOpen] = useState(false);
  const [message, setMessage] = useState('');
  const [broadcast, setBroadcast] = useState<BroadcasterStatus>({ sent: 0, error: null });
  const main = useRef<HTMLElement>(null);

  // Large type and the full-width inspector are page-wide: the inspector dialog sits outside this tree.
  useEffect(() => {
    document.documentElement.classList.add('presenter-mode');
    return () => document.documentElement.classList.remove('presenter-mode');
  }, []);

  // Keys work right after load, without a click: focus starts on the stage.
  useEffect(() => main.current?.focus(), []);

  // Nobody scrolls with the keyboard-only controls: keep the step just shown in view.
  useEffect(() => {
    const band = main.current?.querySelector('.step-band.is-current');
    band?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  useEffect(() => {
    const channel = openFollowChannel();
    if (channel === null) return;
    const broadcaster = new PresenterBroadcaster({
      channel,
      state: () => {
        const language = i18n.resolvedLanguage ?? i18n.language;
        const { transport: now, httpStore: http, httpOpen: open } = shown.current;
        if (now === 'http' && http !== null) return httpFollowStateOf(http.getSnapshot(), open, language);
        return followStateOf(stepper.getSnapshot(), ui.getSnapshot().inspect, language);
      },
      subscribe: (listener) => {
        let unsubscribeHttp: (() => void) | null = null;
        const follow = () => {
          // The HTTP store changes when HttpView mounts a new one: listen to the current one.
          unsubscribeHttp?.();
          unsubscribeHttp = shown.current.httpStore?.subscribe(listener) ?? null;
          listener();
        };
        const unsubscribers = [stepper.subscribe(listener), ui.subscribe(listener), shownChanged.add(follow), () => unsubscribeHttp?.()];
        follow();
        i18n.on('languageChanged', listener);
        return () => {
          for (const unsubscribe of unsubscribers) unsubscribe();
          i18n.off('languageChanged', listener);
        };
      },
    });
    const unsubscribeStatus = broadcaster.status.subscribe(() => setBroadcast(broadcaster.status.getSnapshot()));
    broadcaster.start();
    // pagehide, not unload: it also fires when the page goes into the back/forward cache.
    const leave = () => broadcaster.stop();
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      unsubscribeStatus();
      broadcaster.stop();
    };
  }, [stepper, ui, i18n, shownChanged]);

  const run = useCallback(
    async (command: PresenterCommand) => {
      if (command === 'transport') {
        const next = transport === 'stdio' ? 'http' : 'stdio';
        switchTo(next);
        setMessage(next === 'http' ? t('presenter.transportHttp') : t('presenter.transportStdio'));
        return;
      }
      if (transport === 'http' && (await runHttp(command, httpStore))) return;
      switch (command) {
        case 'next':
          return stepper.step();
        case 'back':
          return stepper.back();
        case 'restart':
          return stepper.restart();
        case 'end':
          return stepper.runToEnd();
        case 'notes':
          setNotesShown(!notesShown);
          setMessage(notesShown ? t('presenter.notesHidden') : t('presenter.notesShown'));
          return;
        case 'help':
          return setHelpOpen((open) => !open);
        case 'close-help':
          return setHelpOpen(false);
        case 'inspect': {
          const { records, cursor: shown } = stepper.getSnapshot();
          const seq = lastFrameSeq(records, shown);
          const target = seq === null ? null : stepper.inspect(seq);
          if (target) ui.openInspector(target);
          else setMessage(t('presenter.nothingToInspect'));
          return;
        }
        case 'fullscreen': {
          const outcome = await toggleFullscreen(document);
          if (outcome.ok) setMessage('');
          else setMessage(outcome.reason === 'unavailable' ? t('presenter.fullscreenUnavailable') : t('presenter.fullscreenRefused', { reason: outcome.detail }));
          return;
        }
      }
    },
    [stepper, ui, t, notesShown, transport, httpStore],
  );

  /** The stepping commands on the HTTP stepper (none while it is still loading); false for the ones that act the same on both. */
  async function runHttp(command: PresenterCommand, store: HttpSessionStore | null): Promise<boolean> {
    if (store === null) return ['next', 'back', 'restart', 'end', 'inspect'].includes(command);
    switch (command) {
      case 'next':
        await store.step();
        return true;
      case 'back':
        setMessage(t('presenter.httpNoBack'));
        return true;
      case 'restart':
        setHttpOpen(null);
        store.restart();
        return true;
      case 'end':
        await store.runToEnd();
        return true;
      case 'inspect': {
        const last = store.getSnapshot().exchanges.at(-1);
        if (last) setHttpOpen(last.conn);
        else setMessage(t('presenter.nothingToInspect'));
        return true;
      }
      default:
        return false;
    }
  }

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // The stepper's own handler (focus inside it) already acted on this key.
      if (event.defaultPrevented) return;
      const command = commandForKey({ key: event.key, ctrlKey: event.ctrlKey, metaKey: event.metaKey, altKey: event.altKey, focus: focusKindOf(event.target instanceof Element ? event.target : null), helpOpen });
      if (command === null || (event.repeat && NO_REPEAT.has(command))) return;
      event.preventDefault();
      void run(command);
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [run, helpOpen]);

  return (
    <div className="presenter" data-testid="presenter">
      <header className="presenter__bar">
        <h1>{t('presenter.heading')}</h1>
        <span className="presenter__progress" data-testid="presenter-progress" data-transport={transport}>
          {transport === 'http' ? `${httpCursor} / ${HTTP_STEPS.length}` : `${cursor} / ${config.plan.length}`}
        </span>
        <fieldset className="inline-radios presenter__transport" data-testid="presenter-transport">
          <legend>{t('presenter.transportLabel')}</legend>
          {(['stdio', 'http'] as const).map((kind) => (
            <label key={kind}>
              <input type="radio" name="presenter-transport" checked={transport === kind} onChange={() => switchTo(kind)} />
              {tp(kind === 'stdio' ? 'http.switch.stdio' : 'http.switch.http')}
            </label>
          ))}
        </fieldset>
        <span className="presenter__keys hint">{t('presenter.keysHint')}</span>
        <nav className="presenter__links" aria-label={t('presenter.label')}>
          <LanguageSwitch />
          <a href={modeHref(window.location.href, 'follow')} target="_blank" rel="noopener" title={t('presenter.followHint')}>
            {t('presenter.openFollow')}
          </a>
          <a href={modeHref(window.location.href, 'app')}>{t('presenter.back')}</a>
        </nav>
      </header>
      <p className="presenter__message" role="status" aria-live="polite" data-testid="presenter-message">
        {broadcast.error ? t('presenter.followError', { error: broadcast.error }) : message}
      </p>
      {helpOpen && <KeyHelp />}
      <main ref={main} tabIndex={-1} className={`presenter__main${notesShown ? ' has-notes' : ''}`} aria-label={t('presenter.label')}>
        <div className="presenter__stage">
          {transport === 'stdio' ? (
            <StepperPanel />
          ) : (
            <Suspense fallback={<p className="hint">…</p>}>
              <HttpView onStore={setHttpStore} open={httpOpen} onOpenChange={setHttpOpen} />
            </Suspense>
          )}
        </div>
        {notesShown && <NotesPane http={transport === 'http' ? httpStore : null} />}
      </main>
    </div>
  );
}

/** The HTTP stepper's finished steps, 0 while it is not on the stage. */
function useHttpCursor(store: HttpSessionStore | null): number {
  const [cursor, setCursor] = useState(0);
  useEffect(() => {
    if (store === null) return setCursor(0);
    const update = () => setCursor(store.getSnapshot().cursor);
    update();
    return store.subscribe(update);
  }, [store]);
  return cursor;
}
