// Asks the service worker that controls this page (src/offline/sw.ts) how much of its build it has
// saved, over a MessageChannel. Null when no worker controls the page or it does not answer in time.

import { isPrecacheStatus, PRECACHE_STATUS_REQUEST, type PrecacheStatus } from './precache-status.ts';

const ANSWER_TIMEOUT_MS = 3000;

export function askPrecacheStatus(timeoutMs = ANSWER_TIMEOUT_MS): Promise<PrecacheStatus | null> {
  const worker = typeof navigator === 'undefined' ? null : navigator.serviceWorker?.controller;
  if (!worker) return Promise.resolve(null);
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => {
      channel.port1.close();
      resolve(null);
    }, timeoutMs);
    channel.port1.onmessage = (event: MessageEvent) => {
      clearTimeout(timer);
      channel.port1.close();
      resolve(isPrecacheStatus(event.data) ? event.data : null);
    };
    worker.postMessage({ type: PRECACHE_STATUS_REQUEST }, [channel.port2]);
  });
}

/** The page's own module entry scripts, as absolute URLs (the hashed `assets/index-….js`). */
export function pageEntryScripts(): string[] {
  return [...document.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')].map((script) => script.src);
}
