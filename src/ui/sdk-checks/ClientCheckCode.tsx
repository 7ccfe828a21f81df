// Check my client's code choice: the exercise-3 client (the handshake era), or exercise 7's
// ModernSession run inside the app's dual-era client (the 2026-07-28 era, with its fallback).

import { useStore } from '../hooks/use-store.ts';
import type { ClientCheckCode as Code, SdkChecksStore } from '../../app/sdk-checks/sdk-checks-store.ts';
import { useSdkText } from './use-sdk-text.ts';

const CODES: readonly Code[] = ['exercise-3', 'exercise-6', 'exercise-7'];

export function ClientCheckCode({ store, busy }: { store: SdkChecksStore; busy: boolean }) {
  const t = useSdkText();
  const { clientCode } = useStore(store);
  return (
    <fieldset className="inline-radios" disabled={busy} data-testid="client-check-code">
      <legend>{t('clientCode.label')}</legend>
      {CODES.map((candidate) => (
        <label key={candidate}>
          <input type="radio" name="client-check-code" value={candidate} checked={clientCode === candidate} onChange={() => store.setClientCode(candidate)} /> {t(`clientCode.${candidate}`)}
        </label>
      ))}
      {clientCode === 'exercise-7' && <p className="hint">{t('clientCode.era7Hint')}</p>}
      {clientCode === 'exercise-6' && <p className="hint">{t('clientCode.http6Hint')}</p>}
    </fieldset>
  );
}
