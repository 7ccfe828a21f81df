import { useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { getSandboxStatus, subscribeSandboxStatus } from '../../sandbox/sandbox-frame-client.ts';

/**
 * Says so, in the page's language, when the sandbox frame that runs learner code could not load
 * (a proxy or an extension blocked /sandbox/, or it was never cached before going offline): no
 * learner code runs then, rather than running on the playground's own origin.
 */
export function SandboxNotice() {
  const { t } = useTranslation('common');
  const status = useSyncExternalStore(subscribeSandboxStatus, getSandboxStatus);
  if (status !== 'unavailable') return null;
  return (
    <p className="notice is-warning sandbox-notice" role="alert" data-testid="sandbox-notice">
      {t('sandbox.unavailable')}
    </p>
  );
}
