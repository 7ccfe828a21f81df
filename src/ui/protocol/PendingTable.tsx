// The client's pending table as the wire shows it: every request by id, waiting until its
// response is read, then answered in the order answers came back, with what the call returned.

import { memo } from 'react';
import { formatId } from '../../app/protocol/arrow-text.ts';
import type { PendingRow } from '../../app/protocol/stepper-records.ts';
import { useProtocolText } from './use-protocol-text.ts';

export const PendingTable = memo(function PendingTable({ rows }: { rows: readonly PendingRow[] }) {
  const t = useProtocolText();
  return (
    <section className="pending-table" aria-labelledby="pending-heading" data-testid="pending-table">
      <h4 id="pending-heading">{t('pending.heading')}</h4>
      <p className="hint">{t('pending.intro')}</p>
      {rows.length === 0 ? (
        <p className="hint">{t('pending.empty')}</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">{t('pending.id')}</th>
              <th scope="col">{t('pending.method')}</th>
              <th scope="col">{t('pending.status')}</th>
            </tr>
          </thead>
          {rows.map((row) => (
            <tbody key={row.key} className={`pending-row pending-row--${row.status}`} data-id={formatId(row.id)} data-status={row.status} data-order={row.answerOrder ?? ''}>
              <tr>
                <td className="mono">{formatId(row.id)}</td>
                <td className="mono">
                  {row.method}
                  {row.aroundClient && <span className="hint"> ({t('pending.aroundClient')})</span>}
                </td>
                <td>
                  <span className={`badge badge--${row.status}`}>
                    {row.status === 'waiting' ? `○ ${t('pending.waiting')}` : row.status === 'answered' ? `✓ ${t('pending.answered', { order: row.answerOrder ?? 0 })}` : `✗ ${t('pending.errorAnswer', { order: row.answerOrder ?? 0 })}`}
                  </span>
                </td>
              </tr>
              {row.outcome !== null && (
                <tr className="pending-row__outcome">
                  <td colSpan={3}>
                    <span className="hint">{t('pending.outcome')}: </span>
                    {row.outcome.ok ? row.outcome.summary : t('pending.threw', { error: `${row.outcome.error.name}: ${row.outcome.error.message}` })}
                  </td>
                </tr>
              )}
            </tbody>
          ))}
        </table>
      )}
    </section>
  );
});
