import { describe, expect, it } from 'vitest';
import type { CheckResult } from './check-types.ts';
import preflightEn from '../../locales/en/preflight.json';
import { createTestI18n } from '../i18n/testing.ts';
import { countByStatus, createPreflightStore, hasFinished, type PreflightChecks } from './preflight-store.ts';
import { addressWithoutToken, buildSummary, type PreflightTranslate } from './summary.ts';
import type { HostReasonCode } from '../../runtime/host.ts';
import { hostReasonText } from '../live-session/host-reason-text.ts';

const ok: CheckResult = { status: 'pass', detail: { key: 'isolationOk' }, fixes: [] };

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

function checksWith(overrides: Partial<PreflightChecks>): PreflightChecks {
  return {
    isolation: async () => ok,
    webcontainer: async () => ({ status: 'fail', detail: { key: 'webcontainerOffline' }, fixes: [{ key: 'goOnline' }] }),
    bridge: async () => ({ status: 'skip', detail: { key: 'bridgeNoToken' }, fixes: [{ key: 'bridgeOptional' }] }),
    storage: async () => ({ status: 'warn', detail: { key: 'storageLow', values: { quota: '5.0 MB' } }, fixes: [{ key: 'storageLow' }] }),
    offline: async () => ({ status: 'pass', detail: { key: 'offlineReady', values: { count: 48 } }, fixes: [] }),
    ...overrides,
  };
}

describe('preflight store', () => {
  it('has not finished before its first run has ended, nor while a second run goes', async () => {
    const slow = deferred<CheckResult>();
    const store = createPreflightStore(checksWith({ bridge: () => slow.promise }), () => 1234);
    // What the panel renders before its mount effect starts the checks: no "Finished: 0 OK".
    expect(hasFinished(store.getSnapshot())).toBe(false);
    const first = store.run();
    expect(hasFinished(store.getSnapshot())).toBe(false);
    slow.resolve(ok);
    await first;
    expect(hasFinished(store.getSnapshot())).toBe(true);
    const never = deferred<CheckResult>();
    const again = createPreflightStore(checksWith({ bridge: () => never.promise }), () => 1);
    void again.run();
    expect(hasFinished(again.getSnapshot())).toBe(false);
  });

  it('shows each row as soon as its check answers, while slow ones still run', async () => {
    const slow = deferred<CheckResult>();
    const store = createPreflightStore(checksWith({ webcontainer: () => slow.promise }), () => 1234);
    const running = store.run();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const midway = store.getSnapshot();
    expect(midway.running).toBe(true);
    expect(midway.rows.find((row) => row.id === 'webcontainer')?.state).toBe('running');
    expect(countByStatus(midway.rows).done).toBe(4);
    slow.resolve(ok);
    await running;
    expect(store.getSnapshot()).toMatchObject({ running: false, finishedAt: 1234 });
    expect(countByStatus(store.getSnapshot().rows)).toEqual({ pass: 3, warn: 1, fail: 0, skip: 1, done: 5 });
  });

  it('turns a check that throws into a failed row', async () => {
    const store = createPreflightStore(checksWith({ storage: () => Promise.reject(new Error('SecurityError')) }));
    await store.run();
    const row = store.getSnapshot().rows.find((candidate) => candidate.id === 'storage');
    expect(row).toMatchObject({ state: 'done', result: { status: 'fail', detail: { key: 'checkCrashed', values: { reason: 'SecurityError' } } } });
  });

  it('drops answers from a run that a newer run replaced', async () => {
    const first = deferred<CheckResult>();
    let calls = 0;
    const store = createPreflightStore(
      checksWith({
        isolation: () => {
          calls += 1;
          return calls === 1 ? first.promise : Promise.resolve(ok);
        },
      }),
    );
    const firstRun = store.run();
    await store.run();
    first.resolve({ status: 'fail', detail: { key: 'isolationMissing' }, fixes: [] });
    await firstRun;
    expect(store.getSnapshot().rows[0]).toMatchObject({ id: 'isolation', state: 'done', result: { status: 'pass' } });
  });
});

function translator(language: 'en' | 'zh-CN'): PreflightTranslate {
  // Keys are built at run time: call t untyped, as the panel does.
  const t = createTestI18n(language).getFixedT(null, 'preflight') as unknown as (key: string, values?: object) => string;
  return (key, values) => t(key, values ?? {});
}

describe('buildSummary', () => {
  it('lists every check with status, finding and, when not OK, what to do', async () => {
    const store = createPreflightStore(checksWith({}), () => Date.UTC(2026, 0, 2, 3, 4, 5));
    await store.run();
    const text = buildSummary(store.getSnapshot().rows, await translator('en'), {
      browser: 'Chrome 131',
      address: 'http://127.0.0.1:5173/',
      checkedAt: store.getSnapshot().finishedAt,
    });
    expect(text.split('\n')).toEqual([
      'MCP Playground preflight',
      'Browser: Chrome 131',
      'Address: http://127.0.0.1:5173/',
      'Checked at: 2026-01-02T03:04:05.000Z',
      '',
      '[✓ OK] Cross-origin isolation (SharedArrayBuffer) — This page is cross-origin isolated and SharedArrayBuffer is available.',
      "[✗ Problem] WebContainer (Node.js in the browser) — Offline: WebContainer needs StackBlitz's servers to start.",
      `    - ${preflightEn.fix.goOnline}`,
      `[– Not needed] Local bridge (npm start) — ${preflightEn.detail.bridgeNoToken}`,
      `    - ${preflightEn.fix.bridgeOptional}`,
      '[! Warning] Storage for your code — localStorage works, but only 5.0 MB is left for this site.',
      `    - ${preflightEn.fix.storageLow}`,
      '[✓ OK] Offline copy (service worker) — A service worker controls this page and has saved all 48 files: it will load with no network.',
    ]);
  });

  it('speaks Chinese, and shows rows still running', async () => {
    const store = createPreflightStore(checksWith({}));
    const text = buildSummary(store.getSnapshot().rows, await translator('zh-CN'), { browser: 'Firefox 133', address: 'x', checkedAt: null });
    expect(text).toContain('MCP Playground 课前检查');
    expect(text).toContain('[等待中] 跨源隔离（SharedArrayBuffer）');
    expect(text).toContain('检查时间: 检查中……');
  });
});

describe('buildSummary with a host reason', () => {
  it('words the reason in the page language when it has a code, and keeps the host sentence when it has none', async () => {
    const reason = 'WebContainer did not boot within 6 s. Its runtime loads from StackBlitz…';
    const failed = (why?: { code: 'boot-timeout'; seconds: number }): Partial<PreflightChecks> => ({
      webcontainer: async () => ({ status: 'fail', detail: { key: 'webcontainerFailed', values: { reason }, ...(why ? { why } : {}) }, fixes: [] }),
    });
    const live = createTestI18n('zh-CN').getFixedT('zh-CN', 'live');
    const hostReason = (r: { reason: string; why?: HostReasonCode }) => hostReasonText(live, r);
    const withCode = createPreflightStore(checksWith(failed({ code: 'boot-timeout', seconds: 6 })));
    await withCode.run();
    const text = buildSummary(withCode.getSnapshot().rows, await translator('zh-CN'), { browser: 'b', address: 'x', checkedAt: null, hostReason });
    expect(text).toContain('WebContainer 没能启动：WebContainer 在 6 秒内没有启动。');
    const withoutCode = createPreflightStore(checksWith(failed()));
    await withoutCode.run();
    expect(buildSummary(withoutCode.getSnapshot().rows, await translator('zh-CN'), { browser: 'b', address: 'x', checkedAt: null, hostReason })).toContain(`WebContainer 没能启动：${reason}`);
  });
});

describe('addressWithoutToken', () => {
  it('drops the shared bridge token from the address and keeps the rest', () => {
    expect(addressWithoutToken('http://192.168.1.5:5317/?token=s3cret&host=bridge#preflight')).toBe('http://192.168.1.5:5317/?host=bridge#preflight');
    expect(addressWithoutToken('http://127.0.0.1:5317/#preflight')).toBe('http://127.0.0.1:5317/#preflight');
    expect(addressWithoutToken('not a url')).toBe('not a url');
  });
});
