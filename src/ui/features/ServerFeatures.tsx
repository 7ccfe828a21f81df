// The live panel's entry to Server features: a disclosure that loads the panel (its store, the HTTP
// wire and the inspector) only when first opened. This small file is itself loaded lazily by
// LivePanel, so neither it nor the `features` text is in the first paint.

import { lazy, Suspense, useState } from 'react';
import { useFeaturesText } from './use-features-text.ts';

const FeaturesPanel = lazy(() => import('./FeaturesPanel.tsx'));

export default function ServerFeatures() {
  const t = useFeaturesText();
  const [opened, setOpened] = useState(false);
  return (
    <details className="panel-section server-features" data-testid="server-features" onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary>{t('entry.summary')}</summary>
      {opened && (
        <Suspense fallback={<p className="hint">…</p>}>
          <FeaturesPanel />
        </Suspense>
      )}
    </details>
  );
}
