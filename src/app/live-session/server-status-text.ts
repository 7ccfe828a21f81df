// One sentence for the server's status, shared by the visible status line and the screen-reader
// announcement so both always say the same thing.

import type { TFunction } from 'i18next';
import type { HostKind } from '../../runtime/host.ts';
import type { ServerStatus } from './live-session-store.ts';

export function hostName(t: TFunction<'live'>, kind: HostKind): string {
  return t(`hosts.${kind}`);
}

export function serverStatusText(t: TFunction<'live'>, server: ServerStatus): string {
  switch (server.status) {
    case 'stopped':
      return t('server.status.stopped');
    case 'starting':
      return t('server.status.starting', { host: hostName(t, server.host) });
    case 'running':
      // The worker reports pid 0: it has no process, so there is no pid worth showing.
      return server.pid === null || server.pid <= 0
        ? t('server.status.running', { host: hostName(t, server.host) })
        : t('server.status.runningPid', { host: hostName(t, server.host), pid: server.pid });
    case 'exited':
      if (server.code === 0) return t('server.status.exitedOk');
      if (server.code !== null) return t('server.status.exitedCode', { code: server.code });
      return t('server.status.exitedSignal', { signal: server.signal ?? '?' });
    case 'failed':
      return t('server.status.failed', { reason: server.reason });
  }
}

/** A crash or a failure is an error the panel shows in alarm colours; the rest is news. */
export function serverStatusIsError(server: ServerStatus): boolean {
  return server.status === 'failed' || (server.status === 'exited' && server.code !== 0);
}
