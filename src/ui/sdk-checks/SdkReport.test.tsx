import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it } from 'vitest';
import { CLIENT_CHECKS } from '../../app/sdk-checks/check-client.ts';
import { eraClientChecks } from '../../app/sdk-checks/check-client-era.ts';
import { HTTP_CLIENT_CHECKS } from '../../app/sdk-checks/check-client-http.ts';
import { errorReport } from '../../app/sdk-checks/check-run.ts';
import { SERVER_CHECKS } from '../../app/sdk-checks/check-server.ts';
import { blockerFor, hostRows, workerFallbackFor } from '../../app/sdk-checks/host-support.ts';
import sdkChecksEn from '../../locales/en/sdk-checks.json';
import sdkChecksZhCN from '../../locales/zh-CN/sdk-checks.json';
import { createTestI18n } from '../../app/i18n/testing.ts';
import { SdkReport } from './SdkReport.tsx';

function render(element: ReactElement, lng: 'en' | 'zh-CN' = 'en'): string {
  const i18n = createTestI18n(lng);
  return renderToStaticMarkup(<I18nextProvider i18n={i18n}>{element}</I18nextProvider>);
}

const failedRun = {
  status: 'done' as const,
  host: 'worker' as const,
  problem: null,
  seq: 3,
  report: {
    suite: 'client' as const,
    status: 'fail' as const,
    durationMs: 42,
    tests: [
      { id: 'handshake', name: 'handshake', status: 'pass' as const, code: 'await client.initialize();', durationMs: 5 },
      { id: 'in-flight', name: 'two requests', status: 'fail' as const, message: 'The two answers did not reach their own requests.', expected: '"first"', actual: '"tools"', code: 'await Promise.all([…]);', durationMs: 7 },
    ],
  },
};

describe('SdkReport', () => {
  it('reads like a test run: a summary, then each check with its status, message, expected and actual', () => {
    const html = render(<SdkReport suite="client" state={failedRun} />);
    expect(html).toContain('data-status="fail"');
    expect(html).toContain('1 of 2 checks did not pass on the worker host.');
    expect([...html.matchAll(/data-check="([^"]+)" data-status="([^"]+)"/g)].map((match) => `${match[1]}:${match[2]}`)).toEqual(['handshake:pass', 'in-flight:fail']);
    expect(html).toContain(sdkChecksEn.check.client['in-flight']);
    expect(html).toContain('The two answers did not reach their own requests.');
    expect(html).toMatch(/<dt>Expected<\/dt><dd><pre class="diff-line--expected">&quot;first&quot;<\/pre>/);
  });

  it('speaks Chinese with the same structure', () => {
    const html = render(<SdkReport suite="client" state={failedRun} />, 'zh-CN');
    expect(html).toContain('在 worker 环境中，2 项检验有 1 项没有通过。');
    expect(html).toContain(sdkChecksZhCN.check.client.handshake);
    expect(html).toContain('<dt>期望</dt>');
  });

  it('words a run that could not start by its problem', () => {
    const html = render(<SdkReport suite="server" state={{ status: 'done', host: null, seq: 1, problem: { kind: 'no-host' }, report: errorReport('server', 'refused') }} />);
    expect(html).toContain('The checks could not run.');
    expect(html).toContain(sdkChecksEn.blocker['no-host']);
    const declined = render(<SdkReport suite="server" state={{ status: 'done', host: 'bridge', seq: 2, problem: { kind: 'declined', host: 'bridge' }, report: errorReport('server', 'declined') }} />);
    expect(declined).toContain('you chose not to run code from a share link or an imported file on the bridge host');
  });

  it('shows progress while running', () => {
    const html = render(<SdkReport suite="server" state={{ status: 'running', phase: 'starting', host: 'bridge', results: [], total: null }} />);
    expect(html).toContain('Starting learner-server on the bridge host…');
  });
});

describe('host support', () => {
  it('lists every host with what it runs; a bridge that does not run learner code leaves Check my server to the worker', () => {
    const selection = {
      status: 'chosen' as const,
      kind: 'bridge' as const,
      availability: [
        { kind: 'webcontainer' as const, status: 'unavailable' as const, reason: 'offline' },
        { kind: 'bridge' as const, status: 'available' as const },
        { kind: 'worker' as const, status: 'unavailable' as const, reason: 'not tried: bridge is available and comes first' },
      ],
    };
    expect(hostRows(selection, 'shared-bridge').map((row) => [row.kind, row.chosen, row.unavailable, row.client, row.server])).toEqual([
      ['webcontainer', false, 'offline', 'runs', 'runs'],
      ['bridge', true, null, 'runs', 'in-worker'],
      ['worker', false, 'not tried: bridge is available and comes first', 'runs', 'runs'],
    ]);
    expect(hostRows(selection, 'not-enabled')[1]!.server).toBe('in-worker');
    expect(hostRows(selection, 'sandboxed')[1]!.server).toBe('runs');
    expect(hostRows({ status: 'probing' }, 'sandboxed')).toEqual([]);
  });

  it('blocks a check only while probing or without a host; sends Check my server to the worker when the bridge will not run it', () => {
    expect(blockerFor({ status: 'chosen', kind: 'bridge', availability: [] })).toBeNull();
    expect(blockerFor({ status: 'probing' })).toEqual({ kind: 'probing' });
    expect(blockerFor({ status: 'none', availability: [] })).toEqual({ kind: 'no-host' });
    expect(workerFallbackFor('server', 'bridge', 'not-enabled')).toBe('not-enabled');
    expect(workerFallbackFor('server', 'bridge', 'no-sandbox')).toBe('no-sandbox');
    expect(workerFallbackFor('server', 'bridge', 'sandboxed')).toBeNull();
    expect(workerFallbackFor('client', 'bridge', 'shared-bridge')).toBeNull();
    expect(workerFallbackFor('server', 'webcontainer', 'not-enabled')).toBeNull();
  });
});

describe('the SDK checks text', () => {
  it('has the same keys in both languages, and every check has a title in both', () => {
    const keys = (value: object, prefix = ''): string[] =>
      Object.entries(value).flatMap(([key, inner]) => (typeof inner === 'string' ? [`${prefix}${key}`] : keys(inner as object, `${prefix}${key}.`)));
    expect(keys(sdkChecksZhCN)).toEqual(keys(sdkChecksEn));
    // Exercise 3's checks, then the era checks exercise 7 adds (list-tools, call-echo and close are shared), then exercise 6's HTTP checks.
    const eraIds = (['sdk1', 'sdk2-modern'] as const).flatMap((server) => eraClientChecks(server).map((check) => check.id));
    const httpIds = HTTP_CLIENT_CHECKS.map((check) => check.id);
    expect(Object.keys(sdkChecksEn.check.client)).toEqual([...new Set([...CLIENT_CHECKS.map((check) => check.id), ...eraIds, ...httpIds])]);
    expect(Object.keys(sdkChecksEn.check.server)).toEqual(SERVER_CHECKS.map((check) => check.id));
  });
});
