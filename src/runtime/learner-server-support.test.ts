import { describe, expect, it } from 'vitest';
import { HOST_KINDS } from './host.ts';
import { liveServerEn, liveServerZhCN } from './learner-server-i18n.ts';
import { learnerServerSupport, sdkEchoServerSupport } from './learner-server-support.ts';

describe('learnerServerSupport', () => {
  it('runs in the worker and the WebContainer, and on a bridge only in its sandbox; otherwise says why', () => {
    expect(learnerServerSupport('worker', 'shared-bridge')).toEqual({ ok: true });
    expect(learnerServerSupport('webcontainer', 'not-enabled')).toEqual({ ok: true });
    expect(learnerServerSupport('bridge', 'sandboxed')).toEqual({ ok: true });
    for (const why of ['not-enabled', 'no-sandbox'] as const) {
      const refused = learnerServerSupport('bridge', why);
      expect(refused).toMatchObject({ ok: false, code: why });
      expect(liveServerEn.unsupported[why]).toContain('worker');
      expect(liveServerZhCN.unsupported[why]).toContain('Worker');
    }
    const shared = learnerServerSupport('bridge', 'shared-bridge');
    expect(shared).toMatchObject({ ok: false, code: 'shared-bridge' });
    if (!shared.ok) {
      expect(shared.reason).toContain('loopback');
      expect(liveServerEn.unsupported[shared.code]).toContain('npm start');
      expect(liveServerZhCN.unsupported[shared.code]).toContain('npm start');
    }
  });

  it('sdk-echo-server runs in every host', () => {
    for (const host of HOST_KINDS) expect(sdkEchoServerSupport(host)).toEqual({ ok: true });
  });

  it('has the same keys in both languages', () => {
    const keys = (value: object, prefix = ''): string[] =>
      Object.entries(value).flatMap(([key, inner]) => (typeof inner === 'object' && inner !== null ? keys(inner, `${prefix}${key}.`) : [`${prefix}${key}`]));
    expect(keys(liveServerZhCN)).toEqual(keys(liveServerEn));
  });
});
