import { describe, expect, it } from 'vitest';
import { INITIAL_OFFLINE_STATE, type OfflineState } from '../offline/offline-state.ts';
import { detectBrowser } from './browser-detect.ts';
import { checkBridge, checkIsolation, checkOffline, checkStorage, checkWebContainer, formatBytes, webContainerFixes, type WebContainerFacts } from './checks.ts';

const chrome = detectBrowser('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36');
const firefox = detectBrowser('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0');
const oldSafari = detectBrowser('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.3 Safari/605.1.15');
const iphone = detectBrowser('Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.2 Mobile/15E148 Safari/604.1');
const brave = detectBrowser('Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', true);

const fixKeys = (fixes: { key: string }[]) => fixes.map((fix) => fix.key);

describe('checkIsolation', () => {
  it('passes when isolated with SharedArrayBuffer', () => {
    expect(checkIsolation({ crossOriginIsolated: true, hasSharedArrayBuffer: true, secureContext: true }).status).toBe('pass');
  });

  it('fails without isolation, naming the headers and the hosts that still work', () => {
    const result = checkIsolation({ crossOriginIsolated: false, hasSharedArrayBuffer: false, secureContext: true });
    expect(result.status).toBe('fail');
    expect(result.detail.key).toBe('isolationMissing');
    expect(fixKeys(result.fixes)).toEqual(['headers', 'workerStillWorks']);
  });

  it('on plain http:// at a LAN address (not a secure context) warns that this is expected, and names the hosts that work there', () => {
    const result = checkIsolation({ crossOriginIsolated: false, hasSharedArrayBuffer: false, secureContext: false });
    expect(result.status).toBe('warn');
    expect(result.detail.key).toBe('isolationInsecureOrigin');
    expect(fixKeys(result.fixes)).toEqual(['lanHostsThatWork']);
  });

  it('fails when isolated but the browser lacks SharedArrayBuffer', () => {
    expect(checkIsolation({ crossOriginIsolated: true, hasSharedArrayBuffer: false, secureContext: true }).detail.key).toBe('isolationNoSharedArrayBuffer');
  });
});

describe('checkWebContainer', () => {
  const facts = (overrides: Partial<WebContainerFacts>): WebContainerFacts & { probes: number } => {
    const result = {
      offline: false,
      crossOriginIsolated: true,
      browser: chrome,
      probes: 0,
      probe: async () => {
        result.probes += 1;
        return { kind: 'webcontainer' as const, status: 'available' as const };
      },
      ...overrides,
    };
    return result;
  };

  it('passes when the real probe boots', async () => {
    const input = facts({});
    expect((await checkWebContainer(input)).status).toBe('pass');
    expect(input.probes).toBe(1);
  });

  it('is not tried on plain http:// at a LAN address (not a secure context), and names the hosts that work there', async () => {
    const input = facts({ secureContext: false, crossOriginIsolated: false });
    const result = await checkWebContainer(input);
    expect(result).toMatchObject({ status: 'skip', detail: { key: 'webcontainerInsecureOrigin' } });
    expect(fixKeys(result.fixes)).toEqual(['lanHostsThatWork']);
    expect(input.probes).toBe(0);
  });

  it('fails at once offline, without probing', async () => {
    const input = facts({ offline: true });
    const result = await checkWebContainer(input);
    expect(result).toMatchObject({ status: 'fail', detail: { key: 'webcontainerOffline' } });
    expect(input.probes).toBe(0);
  });

  it('is not tried without isolation', async () => {
    const input = facts({ crossOriginIsolated: false });
    expect((await checkWebContainer(input)).status).toBe('skip');
    expect(input.probes).toBe(0);
  });

  it('on a failed boot shows the reason and the fixes for this browser', async () => {
    const result = await checkWebContainer(facts({ probe: async () => ({ kind: 'webcontainer', status: 'unavailable', reason: 'WebContainer did not boot within 6 s' }) }));
    expect(result.status).toBe('fail');
    expect(result.detail).toEqual({ key: 'webcontainerFailed', values: { reason: 'WebContainer did not boot within 6 s' } });
    expect(fixKeys(result.fixes)).toEqual(['chromeCookies', 'generic', 'fallbackHosts']);
  });

  it("passes the host's reason code on, so the page can word it in its language", async () => {
    const why = { code: 'boot-timeout', seconds: 6 } as const;
    const result = await checkWebContainer(facts({ probe: async () => ({ kind: 'webcontainer', status: 'unavailable', reason: 'WebContainer did not boot within 6 s', why }) }));
    expect(result.detail).toEqual({ key: 'webcontainerFailed', values: { reason: 'WebContainer did not boot within 6 s' }, why });
  });

  it('turns a probe that throws into a failed row', async () => {
    const result = await checkWebContainer(facts({ probe: () => Promise.reject(new Error('boom')) }));
    expect(result.detail.values).toEqual({ reason: 'boom' });
  });

  it('says iOS and old Safari cannot run it, without probing', async () => {
    for (const browser of [iphone, oldSafari]) {
      const input = facts({ browser });
      const result = await checkWebContainer(input);
      expect(result.detail.key).toBe('webcontainerUnsupported');
      expect(input.probes).toBe(0);
    }
  });
});

describe('webContainerFixes', () => {
  it('gives each browser its own settings first, and always the fallback', () => {
    expect(fixKeys(webContainerFixes(firefox))).toEqual(['firefoxTracking', 'generic', 'fallbackHosts']);
    expect(fixKeys(webContainerFixes(brave))).toEqual(['brave', 'chromeCookies', 'generic', 'fallbackHosts']);
    expect(fixKeys(webContainerFixes(iphone))).toEqual(['ios', 'fallbackHosts']);
    expect(webContainerFixes(oldSafari)).toEqual([{ key: 'safariVersion', values: { version: 'Safari 16.3' } }, { key: 'fallbackHosts' }]);
  });
});

describe('checkBridge', () => {
  const available = async () => ({ kind: 'bridge' as const, status: 'available' as const });

  it('is not needed when the page has no token', async () => {
    let probed = false;
    const result = await checkBridge({ token: null, url: 'ws://x/bridge', probe: async () => ((probed = true), available()) });
    expect(result.status).toBe('skip');
    expect(probed).toBe(false);
  });

  it("on a shared bridge's page opened without the join link, says the link is what is missing (not that npm start is)", async () => {
    const result = await checkBridge({ token: null, url: 'ws://192.0.2.10:5317/bridge', probe: available, shared: true });
    expect(result).toMatchObject({ status: 'skip', detail: { key: 'bridgeSharedNeedsLink' } });
    expect(fixKeys(result.fixes)).toEqual(['joinLink']);
  });

  it('passes when the bridge takes the token, naming where it is', async () => {
    expect(await checkBridge({ token: 't', url: 'ws://127.0.0.1:5173/bridge', probe: available })).toMatchObject({
      status: 'pass',
      detail: { values: { url: 'ws://127.0.0.1:5173/bridge' } },
    });
  });

  it('fails with the reason when the bridge is gone', async () => {
    const result = await checkBridge({ token: 't', url: 'u', probe: async () => ({ kind: 'bridge', status: 'unavailable', reason: 'could not connect' }) });
    expect(result).toMatchObject({ status: 'fail', detail: { key: 'bridgeFailed', values: { reason: 'could not connect' } } });
    expect(fixKeys(result.fixes)).toContain('startBridge');
  });
});

describe('checkStorage', () => {
  const MB = 1024 * 1024;

  it('passes with usage and quota', async () => {
    const result = await checkStorage({ roundTrip: () => {}, estimate: async () => ({ usage: 2 * MB, quota: 500 * MB }), persisted: async () => true });
    expect(result).toEqual({ status: 'pass', detail: { key: 'storageOk', values: { usage: '2.0 MB', quota: '500.0 MB' } }, fixes: [] });
  });

  it('fails when localStorage throws (private mode, blocked site data)', async () => {
    const result = await checkStorage({
      roundTrip: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      estimate: async () => null,
      persisted: async () => null,
    });
    expect(result).toMatchObject({ status: 'fail', detail: { key: 'storageBroken', values: { reason: 'The quota has been exceeded.' } } });
  });

  it('warns when little space is left, and when storage is not persistent', async () => {
    const result = await checkStorage({ roundTrip: () => {}, estimate: async () => ({ usage: 95 * MB, quota: 100 * MB }), persisted: async () => false });
    expect(result.status).toBe('warn');
    expect(result.detail).toEqual({ key: 'storageLow', values: { quota: '5.0 MB' } });
    expect(fixKeys(result.fixes)).toEqual(['storageLow', 'storageNotPersisted']);
  });

  it('passes without an estimate', async () => {
    const result = await checkStorage({ roundTrip: () => {}, estimate: () => Promise.reject(new Error('no API')), persisted: async () => null });
    expect(result).toEqual({ status: 'pass', detail: { key: 'storageOkNoEstimate' }, fixes: [] });
  });
});

describe('checkOffline', () => {
  const state = (overrides: Partial<OfflineState>): OfflineState => ({ ...INITIAL_OFFLINE_STATE, ...overrides });
  const base = { origin: 'http://10.0.0.5:5173', controlled: true, precacheStatus: async () => ({ expected: 50, cached: 50, missing: [], manifest: [] }) };

  it('passes when a worker controls the page with every file saved', async () => {
    expect(await checkOffline({ ...base, state: state({ status: 'ready' }) })).toEqual({ status: 'pass', detail: { key: 'offlineReady', values: { count: 50 } }, fixes: [] });
  });

  it('warns while saving, with the count when the worker answers', async () => {
    const result = await checkOffline({ ...base, state: state({ status: 'ready' }), precacheStatus: async () => ({ expected: 50, cached: 20, missing: ['http://x/assets/ts.worker.js'], manifest: [] }) });
    expect(result.status).toBe('warn');
    expect(result.detail).toEqual({ key: 'offlineIncomplete', values: { missing: 30, expected: 50, examples: '/assets/ts.worker.js' } });
    const uncontrolled = await checkOffline({ ...base, controlled: false, state: state({ status: 'saving' }) });
    expect(uncontrolled).toMatchObject({ status: 'warn', detail: { key: 'offlineSavingUnknown' } });
  });

  it('explains an insecure origin, the dev server and a failed registration', async () => {
    expect(await checkOffline({ ...base, state: state({ status: 'unsupported', unsupportedReason: 'insecure-context' }) })).toMatchObject({
      status: 'warn',
      detail: { key: 'offlineInsecure', values: { origin: 'http://10.0.0.5:5173' } },
    });
    expect((await checkOffline({ ...base, state: state({ status: 'development' }) })).status).toBe('skip');
    expect(await checkOffline({ ...base, state: state({ status: 'error', error: 'TypeError: 404' }) })).toMatchObject({
      status: 'fail',
      detail: { values: { reason: 'TypeError: 404' } },
    });
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [1536, '1.5 KB'],
    [7 * 1024 * 1024, '7.0 MB'],
    [3 * 1024 ** 3, '3.0 GB'],
  ])('%i → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});
