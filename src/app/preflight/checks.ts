// The five preflight checks, each a function of what it needs from the browser (passed in, so the
// tests can describe any browser). They answer; they never throw: a check that breaks says so in
// its own row instead of taking the panel down.

import type { HostAvailability } from '../../runtime/host.ts';
import type { OfflineState } from '../offline/offline-state.ts';
import { isPrecacheComplete, type PrecacheStatus } from '../offline/precache-status.ts';
import { isSafariTooOld, type BrowserInfo } from './browser-detect.ts';
import type { CheckResult, Fix } from './check-types.ts';

export interface IsolationFacts {
  crossOriginIsolated: boolean;
  hasSharedArrayBuffer: boolean;
  /** window.isSecureContext: false for plain http:// on a LAN address (a workshop attendee's page). */
  secureContext: boolean;
}

export function checkIsolation(facts: IsolationFacts): CheckResult {
  // Browsers never isolate an insecure context, whatever the headers say: not a fault to fix on a
  // workshop LAN, where the worker and the instructor's shared bridge run everything.
  if (!facts.secureContext) return { status: 'warn', detail: { key: 'isolationInsecureOrigin' }, fixes: [{ key: 'lanHostsThatWork' }] };
  if (!facts.crossOriginIsolated) {
    return { status: 'fail', detail: { key: 'isolationMissing' }, fixes: [{ key: 'headers' }, { key: 'workerStillWorks' }] };
  }
  if (!facts.hasSharedArrayBuffer) {
    return { status: 'fail', detail: { key: 'isolationNoSharedArrayBuffer' }, fixes: [{ key: 'generic' }, { key: 'workerStillWorks' }] };
  }
  return { status: 'pass', detail: { key: 'isolationOk' }, fixes: [] };
}

export interface WebContainerFacts {
  offline: boolean;
  crossOriginIsolated: boolean;
  /** As in IsolationFacts; absent means secure. */
  secureContext?: boolean;
  browser: BrowserInfo;
  /** The real WebContainer host's probe (boots once per page, shared with the live panel). */
  probe(): Promise<HostAvailability>;
}

/** The browser-specific ways to get a WebContainer booting, most likely first. */
export function webContainerFixes(browser: BrowserInfo): Fix[] {
  const specific: Fix[] = (() => {
    switch (browser.family) {
      case 'ios':
        return [{ key: 'ios' }];
      case 'safari':
        return isSafariTooOld(browser) ? [{ key: 'safariVersion', values: { version: browser.label } }] : [{ key: 'safariCookies' }];
      case 'brave':
        return [{ key: 'brave' }, { key: 'chromeCookies' }];
      case 'chrome':
      case 'edge':
        return [{ key: 'chromeCookies' }];
      case 'firefox':
        return [{ key: 'firefoxTracking' }];
      case 'other':
        return [];
    }
  })();
  const generic: Fix[] = browser.family === 'ios' || isSafariTooOld(browser) ? [] : [{ key: 'generic' }];
  return [...specific, ...generic, { key: 'fallbackHosts' }];
}

export async function checkWebContainer(facts: WebContainerFacts): Promise<CheckResult> {
  // No probe where it cannot work: offline the boot never settles, and without isolation it fails.
  if (facts.browser.family === 'ios' || isSafariTooOld(facts.browser)) {
    return { status: 'fail', detail: { key: 'webcontainerUnsupported', values: { browser: facts.browser.label } }, fixes: webContainerFixes(facts.browser) };
  }
  if (facts.offline) return { status: 'fail', detail: { key: 'webcontainerOffline' }, fixes: [{ key: 'goOnline' }] };
  if (facts.secureContext === false) return { status: 'skip', detail: { key: 'webcontainerInsecureOrigin' }, fixes: [{ key: 'lanHostsThatWork' }] };
  if (!facts.crossOriginIsolated) return { status: 'skip', detail: { key: 'webcontainerNeedsIsolation' }, fixes: [{ key: 'headers' }] };
  const availability = await facts.probe().catch((error: unknown): HostAvailability => ({ kind: 'webcontainer', status: 'unavailable', reason: messageOf(error) }));
  if (availability.status === 'available') return { status: 'pass', detail: { key: 'webcontainerOk' }, fixes: [] };
  return { status: 'fail', detail: { key: 'webcontainerFailed', values: { reason: availability.reason }, ...(availability.why ? { why: availability.why } : {}) }, fixes: webContainerFixes(facts.browser) };
}

export interface BridgeFacts {
  /** The token from GET /__bridge/token, or null when this page's server gave none. */
  token: string | null;
  /** Where the bridge is, without the token: shown to people. */
  url: string;
  /** Opens a WebSocket to the bridge with the token and closes it again. */
  probe(): Promise<HostAvailability>;
  /** The page came from a shared bridge (npm start -- --host), which gives its token only to join links. */
  shared?: boolean;
}

export async function checkBridge(facts: BridgeFacts): Promise<CheckResult> {
  if ((facts.token === null || facts.token === '') && facts.shared === true) return { status: 'skip', detail: { key: 'bridgeSharedNeedsLink' }, fixes: [{ key: 'joinLink' }] };
  if (facts.token === null || facts.token === '') return { status: 'skip', detail: { key: 'bridgeNoToken' }, fixes: [{ key: 'bridgeOptional' }] };
  const availability = await facts.probe().catch((error: unknown): HostAvailability => ({ kind: 'bridge', status: 'unavailable', reason: messageOf(error) }));
  if (availability.status === 'available') return { status: 'pass', detail: { key: 'bridgeOk', values: { url: facts.url } }, fixes: [] };
  return { status: 'fail', detail: { key: 'bridgeFailed', values: { reason: availability.reason }, ...(availability.why ? { why: availability.why } : {}) }, fixes: [{ key: 'startBridge' }, { key: 'bridgeOptional' }] };
}

export interface StorageFacts {
  /** Writes, reads back and removes a value; throws when storage is unusable. */
  roundTrip(): void;
  estimate(): Promise<{ usage?: number; quota?: number } | null>;
  /** null when the browser cannot say. */
  persisted(): Promise<boolean | null>;
}

/** Below this, a long session's autosaves (code per exercise, runs) could hit the quota. */
export const LOW_STORAGE_BYTES = 20 * 1024 * 1024;

export async function checkStorage(facts: StorageFacts): Promise<CheckResult> {
  try {
    facts.roundTrip();
  } catch (error) {
    return { status: 'fail', detail: { key: 'storageBroken', values: { reason: messageOf(error) } }, fixes: [{ key: 'storagePrivate' }] };
  }
  const [estimate, persisted] = await Promise.all([facts.estimate().catch(() => null), facts.persisted().catch(() => null)]);
  const persistFix: Fix[] = persisted === false ? [{ key: 'storageNotPersisted' }] : [];
  const quota = estimate?.quota;
  if (quota === undefined || quota === null || !Number.isFinite(quota)) {
    return { status: 'pass', detail: { key: 'storageOkNoEstimate' }, fixes: persistFix };
  }
  const usage = estimate?.usage ?? 0;
  if (quota - usage < LOW_STORAGE_BYTES) {
    return { status: 'warn', detail: { key: 'storageLow', values: { quota: formatBytes(quota - usage) } }, fixes: [{ key: 'storageLow' }, ...persistFix] };
  }
  return { status: 'pass', detail: { key: 'storageOk', values: { usage: formatBytes(usage), quota: formatBytes(quota) } }, fixes: persistFix };
}

export interface OfflineFacts {
  state: OfflineState;
  origin: string;
  /** Whether a service worker controls this page right now. */
  controlled: boolean;
  /** Asks the controlling worker how much of the app it has saved; null when it cannot say. */
  precacheStatus(): Promise<PrecacheStatus | null>;
}

export async function checkOffline(facts: OfflineFacts): Promise<CheckResult> {
  const { state } = facts;
  if (state.status === 'development') return { status: 'skip', detail: { key: 'offlineDevelopment' }, fixes: [{ key: 'offlineBuild' }] };
  if (state.status === 'unsupported') {
    return state.unsupportedReason === 'insecure-context'
      ? { status: 'warn', detail: { key: 'offlineInsecure', values: { origin: facts.origin } }, fixes: [{ key: 'offlineInsecure' }] }
      : { status: 'warn', detail: { key: 'offlineUnsupported' }, fixes: [{ key: 'generic' }] };
  }
  if (state.status === 'error') return { status: 'fail', detail: { key: 'offlineError', values: { reason: state.error ?? '' } }, fixes: [{ key: 'offlineReload' }] };
  const precache = facts.controlled ? await facts.precacheStatus().catch(() => null) : null;
  if (!facts.controlled || state.status === 'saving' || precache === null) {
    const detail = precache === null ? { key: 'offlineSavingUnknown' as const } : { key: 'offlineSaving' as const, values: { cached: precache.cached, expected: precache.expected } };
    return { status: 'warn', detail, fixes: [{ key: 'offlineWait' }] };
  }
  if (isPrecacheComplete(precache)) return { status: 'pass', detail: { key: 'offlineReady', values: { count: precache.expected } }, fixes: [] };
  return {
    status: 'warn',
    detail: {
      key: 'offlineIncomplete',
      values: { missing: precache.expected - precache.cached, expected: precache.expected, examples: precache.missing.map(shortPath).join(', ') },
    },
    fixes: [{ key: 'offlineWait' }, { key: 'offlineReload' }],
  };
}

/** 1536 → "1.5 KB"; binary units, one decimal, as people compare them with disk sizes. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function shortPath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
