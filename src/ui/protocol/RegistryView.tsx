// The local tool registry after a registerMcpTools step: which tools it holds and where each came
// from, and the refusal when a name clashed.

import { memo } from 'react';
import type { RegisterOutcome } from '../../sandbox/client-driver.ts';
import { useProtocolText } from './use-protocol-text.ts';

export const RegistryView = memo(function RegistryView({ outcome }: { outcome: RegisterOutcome }) {
  const t = useProtocolText();
  return (
    <section className="registry-view" aria-labelledby="registry-heading" data-testid="registry-view">
      <h4 id="registry-heading">{t('registry.heading')}</h4>
      <p className="hint">{t('registry.intro')}</p>
      <p className={outcome.ok ? 'ok-text' : 'notice is-error'}>
        {outcome.ok ? `✓ ${t('registry.registered', { count: outcome.count ?? 0 })}` : `✗ ${t('registry.refused', { error: outcome.error ? `${outcome.error.name}: ${outcome.error.message}` : '?' })}`}
      </p>
      <ul className="registry-view__list">
        {outcome.registry.map((entry) => (
          <li key={entry.name} className={`registry-entry registry-entry--${entry.source}`}>
            <span className="mono">{entry.name}</span> <span className="badge">{entry.source === 'local' ? t('registry.local') : t('registry.remote', { name: entry.remoteName ?? '' })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
});
