import { describe, expect, it } from 'vitest';
import { sdkChecksEn, sdkChecksZhCN } from '../app/sdk-checks/i18n.ts';
import { HOST_KINDS } from './host.ts';
import { learnerServerSupport, sdkEchoServerSupport } from './learner-server-support.ts';

describe('learnerServerSupport', () => {
  it('runs in the worker and the WebContainer, and on a bridge only in its sandbox; otherwise says why', () => {
    expect(learnerServerSupport('worker', 'shared-bridge')).toEqual({ ok: true });
    expect(learnerServerSupport('webcontainer', 'not-enabled')).toEqual({ ok: true });
    expect(learnerServerSupport('bridge', 'sandboxed')).toEqual({ ok: true });
    for (const why of ['not-enabled', 'no-sandbox'] as const) {
      const refused = learnerServerSupport('bridge', why);
      expect(refused).toMatchObject({ ok: false, code: why });
      // The page's words for it: the SDK checks' fallback line, in both languages.
      expect(sdkChecksEn.fallback[why]).toContain('worker');
      expect(sdkChecksZhCN.fallback[why]).toContain('Worker');
    }
    const shared = learnerServerSupport('bridge', 'shared-bridge');
    expect(shared).toMatchObject({ ok: false, code: 'shared-bridge' });
    if (!shared.ok) {
      expect(shared.reason).toContain('loopback');
    }
  });

  it('sdk-echo-server runs in every host', () => {
    for (const host of HOST_KINDS) expect(sdkEchoServerSupport(host)).toEqual({ ok: true });
  });
});
