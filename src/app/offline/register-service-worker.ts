// Registers the service worker built from src/app/offline/sw.ts and reports its life cycle to the
// offline-status store. Call once from the page's entry (src/main.tsx). It does nothing in the dev
// server, and says why not on an insecure origin (a LAN address over plain http: browsers allow
// service workers only on https and localhost).

import { askPrecacheStatus, pageEntryScripts } from './ask-precache-status.ts';
import { offlineSupport } from './offline-state.ts';
import { offlineStatusStore, type OfflineStatusStore } from './offline-status-store.ts';
import { pageIsFromBuild } from './precache-status.ts';

/** The worker's URL: next to index.html, so its scope is the whole app whatever the base path. */
export function serviceWorkerUrl(baseUrl: string): string {
  return `${baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`}sw.js`;
}

export function registerServiceWorker(store: OfflineStatusStore = offlineStatusStore): void {
  const notSupported = offlineSupport({
    production: import.meta.env.PROD,
    isSecureContext: window.isSecureContext,
    hasServiceWorker: 'serviceWorker' in navigator,
  });
  if (notSupported) {
    store.dispatch(notSupported);
    return;
  }
  const container = navigator.serviceWorker;
  // Controlled from an earlier visit: this load already came from (or through) the worker.
  let controlled = container.controller !== null;
  store.dispatch(controlled ? { type: 'controlled', isUpdate: false } : { type: 'saving' });

  // A worker takes control once it has saved every file (it claims open pages). The first time,
  // that just means "ready". When a worker already controlled the page, a newer build has taken
  // over: the page keeps running the build it loaded (it is never reloaded under the learner's
  // hands) and is told, unless it already is that build (it loaded the new page from the network
  // while the new worker installed).
  container.addEventListener('controllerchange', () => {
    const wasControlled = controlled;
    controlled = true;
    if (!wasControlled) {
      store.dispatch({ type: 'controlled', isUpdate: false });
      return;
    }
    void askPrecacheStatus().then((status) => {
      const sameBuild = status !== null && pageIsFromBuild(pageEntryScripts(), status.manifest);
      store.dispatch({ type: 'controlled', isUpdate: !sameBuild });
    });
  });

  // Workbox is loaded on its own (not part of the first paint) and waits for the load event, so
  // registering and saving files never compete with the first paint.
  import('workbox-window')
    .then(({ Workbox }) => new Workbox(serviceWorkerUrl(import.meta.env.BASE_URL), { scope: import.meta.env.BASE_URL }).register())
    .then(
      (registration) => {
        // A newer worker may be installing already; the badge says "saving" until it is done.
        if (!controlled && registration?.installing) store.dispatch({ type: 'saving' });
      },
      (error: unknown) => store.dispatch({ type: 'failed', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
    );
}
