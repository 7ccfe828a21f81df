// The connections an action made, one button each: the request line, the status, whether it is
// still open. A button opens the connection in the HTTP byte inspector.

import type { FeatureExchange } from '../../app/features/features-store.ts';
import { useFeaturesText } from './use-features-text.ts';

export function ExchangeList({ label, exchanges, onInspect, testId }: { label: string; exchanges: readonly FeatureExchange[]; onInspect(conn: number): void; testId: string }) {
  const t = useFeaturesText();
  return (
    <div className="features-exchanges" data-testid={testId}>
      <p className="features-exchanges__label">{label}</p>
      {exchanges.length === 0 ? (
        <p className="hint">{t('exchanges.none')}</p>
      ) : (
        <ul>
          {exchanges.map((exchange) => {
            const text = t('exchanges.item', {
              conn: exchange.conn,
              request: exchange.request || '…',
              status: exchange.status === null ? t('exchanges.waiting') : `${exchange.status} ${exchange.contentType ?? ''}`.trim(),
              state: exchange.closed ? t('exchanges.closed') : t('exchanges.open'),
            });
            return (
              <li key={exchange.conn}>
                <button type="button" className="link-button mono" aria-label={`${text}. ${t('exchanges.inspect', { conn: exchange.conn })}`} onClick={() => onInspect(exchange.conn)} data-testid="features-exchange" data-request={exchange.request}>
                  {text}
                </button>
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
