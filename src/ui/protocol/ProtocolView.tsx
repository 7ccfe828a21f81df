// The protocol view: one scene chooser, then the scene's stepper (stdio or Streamable HTTP) with
// its diagram on the first screen; what only some scenes use (era cards, the stdio failure lab,
// the framing comparison) waits below in collapsed sections, present only where it applies. The
// byte inspector opens over it from ProtocolServicesProvider; the HTTP stepper has its own, and
// loads only when an HTTP scene is chosen.

import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { useStore } from '../hooks/use-store.ts';
import { sceneCards, sceneOfConfig, sceneTransport, type Scene, type SceneCards } from '../../app/protocol/scenes.ts';
import { parseSceneHash } from '../../app/protocol/step-link.ts';
import type { HttpClientKind } from '../../app/protocol/http-session-store.ts';
import { openScene } from '../../app/services/open-scene.ts';
import { FailureLab } from './FailureLab.tsx';
import { FramingCompare } from './FramingCompare.tsx';
import { SceneChooser } from './SceneChooser.tsx';
import { StepperPanel } from './StepperPanel.tsx';
import { useProtocolServices } from './ProtocolServicesProvider.tsx';
import { MoreSection } from './MoreSection.tsx';
import { useProtocolText } from './use-protocol-text.ts';
import { StationBar } from '../path/StationBar.tsx';
import { useLandOnHash } from '../hooks/use-land-on-hash.ts';
import './protocol-view.css';

const HttpView = lazy(() => import('./HttpView.tsx'));
// The sign-in scene (issue 27): its store, the flow and the cards load when it is chosen.
const AuthView = lazy(() => import('./AuthView.tsx'));
// The era cards: their text and code load when their section is first opened.
const EraPanel = lazy(() => import('./EraPanel.tsx'));

export interface ProtocolViewProps {
  initialStep?: number | null;
  onCursorChange?: (cursor: number) => void;
}

export function ProtocolView({ initialStep = null, onCursorChange }: ProtocolViewProps) {
  const t = useProtocolText();
  const { stepper, ui } = useProtocolServices();
  const { scene } = useStore(ui);
  const { config, status } = useStore(stepper);
  const stepperRef = useRef<HTMLDivElement>(null);
  const transport = sceneTransport(scene);
  // On stdio the stepper's run is the truth: a card's run is no scene, and then none is checked.
  const checked = transport === 'http' ? scene : sceneOfConfig(config);

  // Who drives stays the learner's choice across scenes.
  const choose = (next: Scene) => void openScene(ui, stepper, next, config.client, config.register);
  // Who drives the HTTP stepper, when a link asks (a new object each time, so the same ask twice counts).
  const [httpDriver, setHttpDriver] = useState<{ kind: HttpClientKind } | null>(null);
  // Which failure cards a "Break it" link asked to open, counted so the same link twice opens them twice.
  const [cardsAsked, setCardsAsked] = useState<{ cards: SceneCards; count: number } | null>(null);
  const signalFor = (cards: SceneCards) => (cardsAsked?.cards === cards ? cardsAsked.count : 0);

  // A scene link (`#protocol/scene/<scene>[/yours]`, e.g. an exercise's "See it live"): that scene,
  // driven by the learner's own code when it says so — on arrival and whenever the address changes.
  // The arrival's link is read while rendering: the stepper's own effects run first and may already
  // have put its step in the address.
  const [arrivalLink] = useState(() => parseSceneHash(window.location.hash));
  useEffect(() => {
    const follow = (link = parseSceneHash(window.location.hash)) => {
      if (link === null) return;
      const kind = link.yours ? 'learner' : 'reference';
      if (!openScene(ui, stepper, link.scene, kind, kind)) setHttpDriver({ kind });
      else if (link.step !== null) void stepper.goTo(link.step);
      const cards = link.breakIt ? sceneCards(link.scene) : null;
      if (cards !== null) setCardsAsked((asked) => ({ cards, count: (asked?.count ?? 0) + 1 }));
    };
    follow(arrivalLink);
    const onHashChange = () => follow();
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, [stepper, ui, arrivalLink]);
  // A scene link without its cards ("See it live") opens the view at its top: it is a new scene,
  // not the place the learner last left. A "Break it" link scrolls to its cards instead (MoreSection).
  const view = useRef<HTMLElement>(null);
  useLandOnHash(view, (hash) => parseSceneHash(hash)?.breakIt === false, true);
  const showStdio = () => {
    // The lab's and era cards' runs are stdio stepper runs.
    if (transport !== 'stdio') ui.setScene('stdio-handshake');
    stepperRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  return (
    <section ref={view} className="pane protocol-view" id="protocol-view" aria-labelledby="protocol-view-heading" data-scene={scene}>
      <StationBar />
      <div className="protocol-view__head">
        <h2 id="protocol-view-heading">{t('view.heading')}</h2>
        <p className="hint">{t('view.intro')}</p>
      </div>
      <SceneChooser checked={checked} disabled={transport === 'stdio' && status.status === 'stepping'} onChoose={choose} />
      <p className="hint protocol-view__explain" data-testid="scene-explain">
        {checked === null ? null : t(`scenes.explain.${checked}`)}
      </p>
      <div ref={stepperRef}>
        {transport === 'stdio' ? (
          <StepperPanel initialStep={initialStep} onCursorChange={onCursorChange} />
        ) : scene === 'http-auth' ? (
          <Suspense fallback={<p className="hint">…</p>}>
            <AuthView openCards={signalFor('auth')} driver={httpDriver} />
          </Suspense>
        ) : (
          <Suspense fallback={<p className="hint">…</p>}>
            <HttpView era={scene === 'http-modern' ? 'modern' : 'handshake'} driver={httpDriver} openCards={signalFor('http')} />
          </Suspense>
        )}
      </div>
      {transport === 'stdio' && (
        <>
          <MoreSection id="era" summary={t('scenes.more.era')} openSignal={signalFor('era')}>
            <Suspense fallback={null}>
              <EraPanel onUse={showStdio} />
            </Suspense>
          </MoreSection>
          <MoreSection id="lab" summary={t('scenes.more.lab')} openSignal={signalFor('lab')}>
            <FailureLab onShow={showStdio} />
          </MoreSection>
          <MoreSection id="framing" summary={t('scenes.more.framing')}>
            <FramingCompare />
          </MoreSection>
        </>
      )}
    </section>
  );
}
