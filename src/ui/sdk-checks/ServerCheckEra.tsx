// Check my server's client choice: the official SDK 1.32 Client (handshake era) or SDK 2.4.0's
// (2026-07-28, probing with server/discover and falling back), and where each part runs.

import { useStore } from '../hooks/use-store.ts';
import type { SdkChecksStore, ServerCheckClient } from '../../app/sdk-checks/sdk-checks-store.ts';
import { useEraText } from '../protocol/use-era-text.ts';

const CLIENTS: readonly ServerCheckClient[] = ['sdk1', 'sdk2'];

export function ServerCheckEra({ store, busy }: { store: SdkChecksStore; busy: boolean }) {
  const t = useEraText();
  const { serverClient } = useStore(store);
  return (
    <fieldset className="inline-radios" disabled={busy} data-testid="server-check-client">
      <legend>{t('checks.label')}</legend>
      {CLIENTS.map((candidate) => (
        <label key={candidate}>
          <input type="radio" name="server-check-client" checked={serverClient === candidate} onChange={() => store.setServerClient(candidate)} /> {t(`checks.${candidate}`)}
        </label>
      ))}
      <p className="hint">{t('checks.where')}</p>
    </fieldset>
  );
}
