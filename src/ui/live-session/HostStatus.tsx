import { useTranslation } from 'react-i18next';
import { HOST_KINDS } from '../../runtime/host.ts';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { hostName } from '../../app/live-session/server-status-text.ts';
import { describeHosts } from '../../app/live-session/host-rows.ts';
import { WEBCONTAINER_NOT_CHOSEN_REASON } from '../../runtime/host-selection.ts';
import { hostReasonText } from '../../app/live-session/host-reason-text.ts';

export function HostStatus() {
  const { t } = useTranslation('live');
  const session = useLiveSession();
  const { host, server } = useStore(session);
  const { selection } = host;
  const probing = selection.status === 'probing';
  // A forced host is the only one tried: listing the others would only repeat the notice above.
  const rows = describeHosts(host.forced === null ? HOST_KINDS : [host.forced], selection);
  // The WebContainer was skipped because nobody chose it yet: offer it (it loads from StackBlitz).
  const offerWebContainer = rows.some((row) => row.kind === 'webcontainer' && row.status === 'unavailable' && row.reason === WEBCONTAINER_NOT_CHOSEN_REASON);

  return (
    <section className="panel-section host-status" aria-labelledby="host-status-heading">
      <div className="panel-section__header">
        <h3 id="host-status-heading">{t('hostStatus.heading')}</h3>
        <button
          type="button"
          onClick={() => void session.probeHosts()}
          disabled={probing || server.status === 'starting'}
          aria-label={t('hostStatus.retryLabel')}
        >
          {t('hostStatus.retry')}
        </button>
      </div>
      <p className={`host-status__summary${selection.status === 'none' ? ' is-error' : ''}`}>
        {selection.status === 'probing'
          ? t('hostStatus.probing')
          : selection.status === 'chosen'
            ? t('hostStatus.live', { host: hostName(t, selection.kind) })
            : t('hostStatus.none')}
      </p>
      {host.invalidForced !== null && <p className="notice is-warning">{t('hostStatus.invalidForced', { value: host.invalidForced })}</p>}
      {host.forced !== null && <p className="notice">{t('hostStatus.forced', { host: host.forced })}</p>}
      {!probing && (
        <ul className="host-status__list" aria-label={t('hostStatus.heading')}>
          {rows.map((row) => (
            <li key={row.kind} className={`host-row host-row--${row.status}`}>
              <span className="host-row__name">{hostName(t, row.kind)}</span>{' '}
              <span className="host-row__state">
                {row.status === 'live'
                  ? '✓'
                  : row.status === 'available'
                    ? t('hostStatus.availableNotChosen')
                    : row.status === 'unavailable'
                      ? t('hostStatus.unavailable', { reason: hostReasonText(t, row) })
                      : t('hostStatus.notProbed')}
              </span>
            </li>
          ))}
        </ul>
      )}
      {offerWebContainer && (
        <p className="hint">
          {t('hostStatus.webContainerOffer')}{' '}
          <button type="button" onClick={() => void session.chooseWebContainer()} disabled={server.status === 'starting'}>
            {t('hostStatus.tryWebContainer')}
          </button>
        </p>
      )}
      {host.forced === null && !probing && <p className="hint">{t('hostStatus.order')}</p>}
    </section>
  );
}
