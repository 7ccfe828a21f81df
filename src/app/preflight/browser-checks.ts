// The preflight checks wired to this browser: the real WebContainer and bridge probes from
// src/runtime (the WebContainer boots once per page, so the preflight and the live panel share
// one boot), localStorage and navigator.storage, and the service worker's own count of saved files.

import { offlineStatusStore } from '../offline/offline-status-store.ts';
import { askPrecacheStatus } from '../offline/ask-precache-status.ts';
import { bridgeIsSharedFromPage, createBridgeHost } from '../../runtime/bridge-host.ts';
import { fetchBridgeToken } from '../../runtime/bridge-token.ts';
import { BRIDGE_PATH } from '../../runtime/bridge-messages.ts';
import { browserIsOffline } from '../../runtime/host-selection.ts';
import { createWebContainerHost, type WebContainerHost } from '../../runtime/webcontainer-host.ts';
import { detectBrowser, type BrowserInfo } from './browser-detect.ts';
import { checkBridge, checkIsolation, checkOffline, checkStorage, checkWebContainer } from './checks.ts';
import type { PreflightChecks } from './preflight-store.ts';

const STORAGE_PROBE_KEY = 'mcp-playground:preflight-probe';

export function currentBrowser(): BrowserInfo {
  return detectBrowser(navigator.userAgent, 'brave' in navigator);
}

let webContainerHost: WebContainerHost | undefined;

export function createBrowserPreflightChecks(): PreflightChecks {
  const isolated = () => globalThis.crossOriginIsolated === true;
  return {
    isolation: async () => checkIsolation({ crossOriginIsolated: isolated(), hasSharedArrayBuffer: typeof SharedArrayBuffer === 'function', secureContext: globalThis.isSecureContext !== false }),
    webcontainer: () =>
      checkWebContainer({
        offline: browserIsOffline(),
        crossOriginIsolated: isolated(),
        secureContext: globalThis.isSecureContext !== false,
        browser: currentBrowser(),
        probe: () => (webContainerHost ??= createWebContainerHost()).probe(),
      }),
    bridge: async () => {
      const token = await fetchBridgeToken();
      return checkBridge({
        token,
        url: `${location.protocol === 'https:' ? 'wss:' : 'ws:'}//${location.host}${BRIDGE_PATH}`,
        shared: bridgeIsSharedFromPage(),
        probe: () => createBridgeHost(token === null ? {} : { token }).probe(),
      });
    },
    storage: () =>
      checkStorage({
        roundTrip: () => {
          const value = String(Date.now());
          window.localStorage.setItem(STORAGE_PROBE_KEY, value);
          const read = window.localStorage.getItem(STORAGE_PROBE_KEY);
          window.localStorage.removeItem(STORAGE_PROBE_KEY);
          if (read !== value) throw new Error('a value written to localStorage did not read back');
        },
        estimate: async () => (navigator.storage?.estimate ? navigator.storage.estimate() : null),
        persisted: async () => (navigator.storage?.persisted ? navigator.storage.persisted() : null),
      }),
    offline: () =>
      checkOffline({
        state: offlineStatusStore.getSnapshot(),
        origin: location.origin,
        controlled: Boolean(navigator.serviceWorker?.controller),
        precacheStatus: () => askPrecacheStatus(),
      }),
  };
}
