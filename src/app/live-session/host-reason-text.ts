// A host's reason in the page's language. The runtime reports a code with its values (host.ts,
// `HostReasonCode`) beside its English sentence; the words live in the `live` namespace
// (`hostReasons.*`), so the Chinese page says why a host is not used in Chinese. A reason without a
// code (a host's own error text, e.g. from a browser API) is shown as the host wrote it.

import type { TFunction } from 'i18next';
import type { HostReasonCode } from '../../runtime/host.ts';
import { hostName } from './server-status-text.ts';

export function hostReasonText(t: TFunction<'live'>, reason: { reason: string; why?: HostReasonCode }): string {
  const { why } = reason;
  if (why === undefined) return reason.reason;
  switch (why.code) {
    case 'boot-timeout':
      return t('hostReasons.bootTimeout', { seconds: why.seconds });
    case 'boot-failed':
      return t('hostReasons.bootFailed', { detail: why.detail });
    case 'mount-failed':
      return t('hostReasons.mountFailed', { detail: why.detail });
    case 'not-isolated':
      return t('hostReasons.notIsolated');
    case 'no-shared-array-buffer':
      return t('hostReasons.noSharedArrayBuffer');
    case 'offline':
      return t('hostReasons.offline');
    case 'not-chosen':
      return t('hostReasons.notChosen');
    case 'not-tried-chosen':
      return t('hostReasons.notTriedChosen', { host: hostName(t, why.chosen) });
    case 'not-tried-forced':
      return t('hostReasons.notTriedForced', { forced: why.forced, host: hostName(t, why.forced) });
    case 'no-bridge-token':
      return t('hostReasons.noBridgeToken');
    case 'no-page-address':
      return t('hostReasons.noPageAddress');
    case 'no-websocket':
      return t('hostReasons.noWebSocket');
    case 'bridge-unreachable':
      return t('hostReasons.bridgeUnreachable', { url: why.url, detail: why.detail });
    case 'bridge-closed':
      return t('hostReasons.bridgeClosed', { url: why.url, detail: why.detail });
    case 'bridge-silent':
      return t('hostReasons.bridgeSilent', { url: why.url, ms: why.ms });
    case 'no-workers':
      return t('hostReasons.noWorkers');
    case 'check-failed':
      return t('hostReasons.checkFailed', { host: hostName(t, why.host), detail: why.detail });
  }
}
