import { offlineStatusStore, type OfflineStatusStore } from '../../app/offline/offline-status-store.ts';
import { useStore } from '../hooks/use-store.ts';
import { useNamespaceText } from '../hooks/use-namespace-text.ts';
import './preflight.css';

/**
 * A few words on whether this app is saved for offline use, and a Reload button when a newer
 * build has taken over: the page never reloads itself under a learner's hands. Shows nothing in
 * the dev server, where there is no service worker on purpose.
 */
export function OfflineStatus({ store = offlineStatusStore }: { store?: OfflineStatusStore }) {
  // In the header on every page, so its text is in `common`.
  const t = useNamespaceText('common');
  const state = useStore(store);
  if (state.status === 'development') return null;
  const why = state.status === 'error' ? (state.error ?? undefined) : undefined;
  return (
    <div className={`offline-status offline-status--${state.status}`} role="status" aria-label={t('offlineStatus.label')}>
      <span className="offline-status__state" title={why}>
        {t(`offlineStatus.${state.status}`)}
      </span>
      {state.updateReady && (
        <>
          <span>{t('offlineStatus.updateReady')}</span>
          <button type="button" onClick={() => window.location.reload()}>
            {t('offlineStatus.reload')}
          </button>
        </>
      )}
    </div>
  );
}
