import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { HandshakeView } from './HandshakeView.tsx';
import { HostStatus } from './HostStatus.tsx';
import { MessageLog } from './MessageLog.tsx';
import { ServerControls } from './ServerControls.tsx';

// Server features over Streamable HTTP: its code and text load after the first paint.
const ServerFeatures = lazy(() => import('../features/ServerFeatures.tsx'));

export function LivePanel() {
  const { t } = useTranslation('live');
  return (
    <section className="pane live-panel" id="live-panel" aria-labelledby="live-panel-heading">
      <h2 id="live-panel-heading">{t('panel.heading')}</h2>
      <details className="live-panel__about">
        <summary>{t('about.heading')}</summary>
        <p>{t('about.panelText')}</p>
        <p>{t('about.framingFact')}</p>
      </details>
      <div className="live-panel__controls">
        <HostStatus />
        <ServerControls />
        <HandshakeView />
      </div>
      <Suspense fallback={null}>
        <ServerFeatures />
      </Suspense>
      <MessageLog />
    </section>
  );
}
