// What the page knows about its offline copy, as a small state machine fed by the service worker's
// life cycle. Pure: the registration glue (register-service-worker.ts) turns browser events into
// OfflineEvents, and the status badge and the preflight panel only read the resulting state.

export type OfflineStatus =
  /** No service worker here: an insecure origin (plain http on a LAN address) or an old browser. */
  | 'unsupported'
  /** The Vite dev server: no worker on purpose, so edits are never hidden behind a cache. */
  | 'development'
  /** Registered; the worker is downloading the app's files. */
  | 'saving'
  /** A worker controls this page and has every file: the next load works with no network. */
  | 'ready'
  | 'error';

export type UnsupportedReason = 'insecure-context' | 'no-service-worker';

export interface OfflineState {
  status: OfflineStatus;
  unsupportedReason: UnsupportedReason | null;
  /** The registration error, as the browser worded it. */
  error: string | null;
  /** A newer build took over while this page was open: a reload shows it. */
  updateReady: boolean;
}

export type OfflineEvent =
  | { type: 'unsupported'; reason: UnsupportedReason }
  | { type: 'development' }
  | { type: 'saving' }
  | { type: 'controlled'; isUpdate: boolean }
  | { type: 'failed'; message: string };

export const INITIAL_OFFLINE_STATE: OfflineState = { status: 'saving', unsupportedReason: null, error: null, updateReady: false };

export function nextOfflineState(state: OfflineState, event: OfflineEvent): OfflineState {
  switch (event.type) {
    case 'unsupported':
      return { ...state, status: 'unsupported', unsupportedReason: event.reason };
    case 'development':
      return { ...state, status: 'development' };
    case 'saving':
      // A worker that already controls the page keeps it ready while a newer one installs.
      return state.status === 'ready' ? state : { ...state, status: 'saving' };
    case 'controlled':
      return { ...state, status: 'ready', error: null, updateReady: state.updateReady || event.isUpdate };
    case 'failed':
      // Once a worker controls the page it stays usable offline, even if an update check fails.
      return state.status === 'ready' ? state : { ...state, status: 'error', error: event.message };
  }
}

export interface OfflineEnvironment {
  production: boolean;
  isSecureContext: boolean;
  hasServiceWorker: boolean;
}

/** Whether to register at all, or the event that says why not. */
export function offlineSupport(environment: OfflineEnvironment): OfflineEvent | null {
  if (!environment.production) return { type: 'development' };
  // Browsers hide navigator.serviceWorker on insecure origins: say which of the two it is.
  if (!environment.isSecureContext) return { type: 'unsupported', reason: 'insecure-context' };
  if (!environment.hasServiceWorker) return { type: 'unsupported', reason: 'no-service-worker' };
  return null;
}
