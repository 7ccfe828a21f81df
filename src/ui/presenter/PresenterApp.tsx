// The presenter's page (?presenter=1): the scene's stepper full width in large type, the byte
// inspector full width over it, speaker notes beside it, and no editor. The stage shows one of the
// protocol view's scenes (app/protocol/scenes.ts): `t` (or the scene chooser in the bar) moves to
// the next, and choosing an exercise in the notes puts that exercise's station scene on the stage,
// as its "See it live" does in the playground. The same keys drive whichever stepper is shown, the
// notes follow the scene, and so do follow views. Driven from the keyboard (key-map.ts) from the
// moment it loads; every change is broadcast to follow views.

import { lazy, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitch } from '../components/LanguageSwitch.tsx';
import { useStore } from '../hooks/use-store.ts';
import { useProtocolServices } from '../protocol/ProtocolServicesProvider.tsx';
import { ProtocolServicesProvider } from '../protocol/ProtocolServicesProvider.tsx';
import { FailureLab } from '../protocol/FailureLab.tsx';
import { MoreSection } from '../protocol/MoreSection.tsx';
import { SceneChooser } from '../protocol/SceneChooser.tsx';
import { StepperPanel } from '../protocol/StepperPanel.tsx';
import { openFollowChannel, PresenterBroadcaster, type BroadcasterStatus } from '../../app/presenter/follow-channel.ts';
import { followStateOf } from '../../app/presenter/follow-message.ts';
import { RoomFollowPoster, teeChannel, type RelayStatus } from '../../app/room/follow-relay.ts';
import { fetchRoomKey } from '../../app/room/room-client.ts';
import { httpFollowStateOf } from '../../app/presenter/http-follow.ts';
import { httpSteps, type HttpSessionStore } from '../../app/protocol/http-session-store.ts';
import { sceneCards, sceneOfConfig, SCENES, sceneTransport, type Scene } from '../../app/protocol/scenes.ts';
import { openScene } from '../../app/services/open-scene.ts';
import { parseSceneHash } from '../../app/protocol/step-link.ts';
import { liveSceneOf } from '../../app/exercise/next-station.ts';
import { useExercises } from '../hooks/exercise-context.ts';
import { ListenerSet } from '../../runtime/listener-set.ts';
import { useProtocolText } from '../protocol/use-protocol-text.ts';
import { toggleFullscreen } from '../../app/presenter/fullscreen.ts';
import { commandForKey, focusKindOf, type PresenterCommand } from '../../app/presenter/key-map.ts';
import { KeyHelp } from './KeyHelp.tsx';
import { lastFrameSeq } from '../../app/presenter/last-frame.ts';
import { modeHref } from '../../app/presenter/mode.ts';
import { NotesPane } from './NotesPane.tsx';
import { usePresenterText } from './use-presenter-text.ts';
import type { PresenterText } from '../../app/presenter/text.ts';
import type { ProtocolText } from '../../app/protocol/text.ts';
import './presenter.css';

// The HTTP stepper loads when the presenter first puts it on the stage; the era cards when opened.
const HttpView = lazy(() => import('../protocol/HttpView.tsx'));
const EraPanel = lazy(() => import('../protocol/EraPanel.tsx'));
// The chapter loop (exercises 6–7 meet the server there) loads when the presenter first shows it.
const ChapterLoopView = lazy(() => import('../chapter-loop/ChapterLoopView.tsx').then((module) => ({ default: module.ChapterLoopView })));

export function PresenterApp() {
  return (
    <ProtocolServicesProvider>
      <PresenterLayout />
    </ProtocolServicesProvider>
  );
}

/** A status line, worded with the texts of the language shown. */
type Say = (t: PresenterText, tp: ProtocolText) => string;

/**
 * The scenes the stage cycles through. The sign-in (http-auth) is not one: its consent page is the
 * learner's own click, and the follow view mirrors only the steppers it knows; a room is sent to it
 * as a station instead.
 */
const STAGE_SCENES: readonly Scene[] = SCENES.filter((scene) => scene !== 'http-auth');

/** Toggles that repeat while a key is held would flicker; stepping may repeat (the stepper ignores presses while busy). */
const NO_REPEAT: ReadonlySet<PresenterCommand> = new Set(['fullscreen', 'notes', 'help', 'inspect', 'restart', 'end', 'scene']);

function PresenterLayout() {
  const t = usePresenterText();
  const tp = useProtocolText();
  const { i18n } = useTranslation();
  const { stepper, ui } = useProtocolServices();
  const exercises = useExercises();
  const { cursor, config, status } = useStore(stepper);
  const { scene } = useStore(ui);
  const transport = sceneTransport(scene);
  // The stage shows a scene of the protocol view, or the chapter loop (its own buttons drive it).
  const [loopShown, setLoopShown] = useState(false);
  const [loopMounted, setLoopMounted] = useState(false);
  useEffect(() => {
    if (loopShown) setLoopMounted(true);
  }, [loopShown]);
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
  // What the presenter's status line says, worded at each render: a language switch rewords it.
  const [message, setMessage] = useState<Say | null>(null);
  const say = useCallback((words: Say) => setMessage(() => words), []);
  // A stdio scene loads its run into the stepper; leaving the HTTP stepper ends its session
  // (HttpView restarts its store when it unmounts).
  const showScene = useCallback(
    (next: Scene) => {
      setLoopShown(false);
      setHttpOpen(null);
      if (openScene(ui, stepper, next, 'reference', 'reference')) setHttpStore(null);
      say((t, tp) => t('presenter.sceneShown', { scene: tp(`scenes.${next}`) }));
    },
    [ui, stepper, say],
  );
  // The stepper's run on arrival is the handshake's; a scene remembered from the playground is shown as it is.
  useEffect(() => {
    const { scene: remembered } = ui.getSnapshot();
    if (remembered === 'http-auth') ui.setScene('http-handshake');
    else if (sceneTransport(remembered) === 'stdio' && sceneOfConfig(stepper.getSnapshot().config) !== remembered) openScene(ui, stepper, remembered, 'reference', 'reference');
  }, [ui, stepper]);
  /** A card's run is loaded into the stepper: the stage's top in view, and the keys step it. */
  const showStage = () => {
    main.current?.scrollIntoView({ block: 'start' });
    main.current?.focus({ preventScroll: true });
  };
  /** The chapter loop on the stage: the exercises whose server meets an agent there. */
  const showLoop = () => {
    setLoopShown(true);
    say((t) => t('presenter.loopShown'));
  };
  /** An exercise chosen in the notes: its station's scene on the stage, or the chapter loop. */
  const showStation = (exerciseId: string) => {
    const order = exercises.find(exerciseId)?.meta.order;
    if (order === undefined) return;
    const live = liveSceneOf(order);
    const station = live === undefined ? null : parseSceneHash(live.hash);
    if (station === null) {
      showLoop();
      return say((t) => t('presenter.stationLoop', { order }));
    }
    showScene(station.scene);
    say((t, tp) => t('presenter.stationShown', { order, scene: tp(`scenes.${station.scene}`) }));
    // Back to the stage, so the next key steps the scene instead of moving through the list.
    main.current?.focus({ preventScroll: true });
  };
  const [notesShown, setNotesShown] = useState(true);
  const [helpOpen, setHelpOpen] = useState(false);
  const [broadcast, setBroadcast] = useState<BroadcasterStatus>({ sent: 0, error: null });
  const [roomFollow, setRoomFollow] = useState<RelayStatus>({ followers: null, error: null });
  const main = useRef<HTMLElement>(null);

  // Large type and the full-width inspector are page-wide: the inspector dialog sits outside this tree.
  useEffect(() => {
    document.documentElement.classList.add('presenter-mode');
    return () => document.documentElement.classList.remove('presenter-mode');
  }, []);

  // Keys work right after load, without a click: focus starts on the stage.
  useEffect(() => main.current?.focus({ preventScroll: true }), []);

  // Nobody scrolls with the keyboard-only controls: keep the step just shown in view.
  useEffect(() => {
    const band = main.current?.querySelector('.step-band.is-current');
    band?.scrollIntoView({ block: 'nearest' });
  }, [cursor]);

  useEffect(() => {
    // Tabs of this browser hear the BroadcastChannel; other devices hear the workshop room, when
    // this page is on the instructor's machine of a shared bridge with a room (its key says so).
    const tabs = openFollowChannel();
    const room = new RoomFollowPoster({ origin: window.location.origin });
    const unsubscribeRoom = room.status.subscribe(() => setRoomFollow(room.status.getSnapshot()));
    let left = false;
    void fetchRoomKey({ origin: window.location.origin }).then((access) => {
      if (access !== null && !left) room.useKey(access.key);
    });
    const broadcaster = new PresenterBroadcaster({
      channel: teeChannel(tabs === null ? [room] : [tabs, room]),
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
      left = true;
      window.removeEventListener('pagehide', leave);
      unsubscribeStatus();
      unsubscribeRoom();
      broadcaster.stop();
    };
  }, [stepper, ui, i18n, shownChanged]);

  const run = useCallback(
    async (command: PresenterCommand) => {
      if (command === 'scene') {
        if (!loopShown && transport === 'stdio' && stepper.getSnapshot().status.status === 'stepping') return;
        // After the last scene comes the chapter loop, then the first scene again.
        if (loopShown) return showScene(STAGE_SCENES[0]!);
        if (scene === STAGE_SCENES.at(-1)) return showLoop();
        return showScene(STAGE_SCENES[(STAGE_SCENES.indexOf(scene) + 1) % STAGE_SCENES.length]!);
      }
      if (loopShown && ['next', 'back', 'restart', 'end', 'inspect'].includes(command)) return say((t) => t('presenter.loopKeys'));
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
          say((t) => (notesShown ? t('presenter.notesHidden') : t('presenter.notesShown')));
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
          else say((t) => t('presenter.nothingToInspect'));
          return;
        }
        case 'fullscreen': {
          const outcome = await toggleFullscreen(document);
          if (outcome.ok) setMessage(null);
          else say((t) => (outcome.reason === 'unavailable' ? t('presenter.fullscreenUnavailable') : t('presenter.fullscreenRefused', { reason: outcome.detail })));
          return;
        }
      }
    },
    [stepper, ui, t, notesShown, transport, httpStore, scene, showScene, loopShown],
  );

  /** The stepping commands on the HTTP stepper (none while it is still loading); false for the ones that act the same on both. */
  async function runHttp(command: PresenterCommand, store: HttpSessionStore | null): Promise<boolean> {
    if (store === null) return ['next', 'back', 'restart', 'end', 'inspect'].includes(command);
    switch (command) {
      case 'next':
        await store.step();
        return true;
      case 'back':
        say((t) => t('presenter.httpNoBack'));
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
        else say((t) => t('presenter.nothingToInspect'));
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
          {loopShown ? t('presenter.loop') : transport === 'http' ? `${httpCursor} / ${httpSteps(scene === 'http-modern' ? 'modern' : 'handshake').length}` : `${cursor} / ${config.plan.length}`}
        </span>
        <SceneChooser checked={loopShown ? null : transport === 'http' ? scene : sceneOfConfig(config)} disabled={!loopShown && transport === 'stdio' && status.status === 'stepping'} onChoose={showScene} />
        <button type="button" className={loopShown ? 'primary' : undefined} aria-pressed={loopShown} onClick={showLoop} data-testid="presenter-loop">
          {t('presenter.loop')}
        </button>
        <span className="presenter__keys hint">{t('presenter.keysHint')}</span>
        <nav className="presenter__links" aria-label={t('presenter.label')}>
          <LanguageSwitch />
          <a href={modeHref(window.location.href, 'follow')} target="_blank" rel="noopener" title={t('presenter.followHint')}>
            {t('presenter.openFollow')}
          </a>
          {roomFollow.followers !== null && (
            <span className={roomFollow.error ? 'is-error' : 'hint'} data-testid="presenter-room-followers">
              {roomFollow.error ? t('presenter.roomFollowError', { error: roomFollow.error }) : t('presenter.roomFollowers', { count: roomFollow.followers })}
            </span>
          )}
          <a href={modeHref(window.location.href, 'app')}>{t('presenter.back')}</a>
        </nav>
      </header>
      <p className="presenter__message" role="status" aria-live="polite" data-testid="presenter-message">
        {broadcast.error ? t('presenter.followError', { error: broadcast.error }) : message?.(t, tp)}
      </p>
      {helpOpen && <KeyHelp />}
      <main ref={main} tabIndex={-1} className={`presenter__main${notesShown ? ' has-notes' : ''}`} aria-label={t('presenter.label')}>
        <div className="presenter__stage">
          {/* Mounted once shown, then kept (hidden): its store holds a connection and a turn, which leaving the loop must not orphan. */}
          {loopMounted && (
            <div hidden={!loopShown}>
              <Suspense fallback={<p className="hint">…</p>}>
                <ChapterLoopView />
              </Suspense>
            </div>
          )}
          {loopShown ? null : transport === 'stdio' ? (
            <>
              <StepperPanel />
              <SceneCardsSection key={scene} scene={scene} onShow={showStage} />
            </>
          ) : (
            <Suspense fallback={<p className="hint">…</p>}>
              <HttpView era={scene === 'http-modern' ? 'modern' : 'handshake'} onStore={setHttpStore} open={httpOpen} onOpenChange={setHttpOpen} />
            </Suspense>
          )}
        </div>
        {notesShown && <NotesPane http={transport === 'http' ? httpStore : null} onExercise={showStation} />}
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

/**
 * Under a stdio scene, its failure cards folded away (the lab under the handshake, the era cards
 * under 2026-07-28 and the probe), as in the protocol view: "Break it" on the presenter's stage.
 * The HTTP stepper has its own cards.
 */
function SceneCardsSection({ scene, onShow }: { scene: Scene; onShow(): void }) {
  const tp = useProtocolText();
  const cards = sceneCards(scene);
  if (cards === 'lab') {
    return (
      <MoreSection id="lab" summary={tp('scenes.more.lab')}>
        <FailureLab onShow={onShow} />
      </MoreSection>
    );
  }
  if (cards === 'era') {
    return (
      <MoreSection id="era" summary={tp('scenes.more.era')}>
        <Suspense fallback={<p className="hint">…</p>}>
          <EraPanel onUse={onShow} />
        </Suspense>
      </MoreSection>
    );
  }
  return null;
}
