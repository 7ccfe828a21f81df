// Check my client's server choice: the official SDK 1.32 server, or SDK 2.4.0's serveStdio serving
// both eras or only 2026-07-28 (where a handshake-era client meets -32022), and where each runs.

import { useStore } from '../hooks/use-store.ts';
import type { ClientCheckServer, SdkChecksStore } from '../../app/sdk-checks/sdk-checks-store.ts';
import { useEraText } from '../protocol/use-era-text.ts';

const SERVERS: readonly ClientCheckServer[] = ['sdk1', 'sdk2', 'sdk2-modern'];

export function ClientCheckEra({ store, busy }: { store: SdkChecksStore; busy: boolean }) {
  const t = useEraText();
  const { clientServer } = useStore(store);
  return (
    <fieldset className="inline-radios" disabled={busy} data-testid="client-check-server">
      <legend>{t('clientChecks.label')}</legend>
      {SERVERS.map((candidate) => (
        <label key={candidate}>
          <input type="radio" name="client-check-server" checked={clientServer === candidate} onChange={() => store.setClientServer(candidate)} /> {t(`clientChecks.${candidate}`)}
        </label>
      ))}
      <p className="hint">{t('clientChecks.where')}</p>
    </fieldset>
  );
}
