import { useTranslation } from 'react-i18next';
import { useStore } from '../hooks/use-store.ts';
import { useLiveSession } from '../hooks/live-session-context.ts';
import { hostName } from '../../app/live-session/server-status-text.ts';

/** Always says which host is live, so nobody wonders where their bytes went. */
export function HostBadge() {
  const { t } = useTranslation('live');
  const { selection } = useStore(useLiveSession()).host;
  const text =
    selection.status === 'probing'
      ? t('badge.probing')
      : selection.status === 'chosen'
        ? t('badge.live', { host: hostName(t, selection.kind) })
        : t('badge.none');
  return (
    <span className={`host-badge host-badge--${selection.status}`} data-testid="host-badge">
      {text}
    </span>
  );
}
